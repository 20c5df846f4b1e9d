//! Floods: anonymous filings from one address past the rate limit get 429 with `Retry-After`
//! while another address still files; 500 uploads trickling a byte a second do not stop other
//! citizens from being served and are cut at the request time-out; an upload refused at a limit
//! has its connection closed even when the client goes on sending.

use std::time::{Duration, Instant};

use futures::future::join_all;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::harness::{one_case_at_a_time, token, Platform, Tally, ANSWER_WITHIN};

const CASE: &str = "floods";
/// `rate_limit.burst`: the filings an address may make at once.
const BURST: usize = 3;
/// `http.request_timeout_seconds` of the slow-upload case.
const REQUEST_TIMEOUT_SECS: u64 = 4;
/// How long the service reads and discards after answering before it closes (service-kit's
/// lingering close).
const LINGER_SECS: u64 = 5;
const TRICKLING: usize = 500;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_over_the_limit_gets_429_while_another_files() {
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("floodlimit", false).await else {
        return;
    };
    let api = platform
        .citizen_api(
            None,
            &[
                ("RATE_LIMIT__ANONYMOUS_REPORTS_PER_HOUR", "10".into()),
                ("RATE_LIMIT__BURST", BURST.to_string()),
                ("RATE_LIMIT__TRUSTED_PROXY_HOPS", "1".into()),
            ],
        )
        .await;
    let from = |address: &'static str, n: usize| {
        let request = api
            .filing(None, &format!("Anonymous {n} from {address}"))
            .header("X-Forwarded-For", address);
        async move { request.send().await.expect("an answer") }
    };
    let flood = join_all((0..30).map(|n| from("203.0.113.7", n)));
    let other = async {
        // Once the flood has used its burst, another address files as usual.
        tokio::time::sleep(Duration::from_millis(200)).await;
        from("198.51.100.9", 0).await
    };
    let (flood, other) = tokio::join!(flood, other);
    assert_eq!(other.status(), 201, "another address is served");
    let mut tally = Tally::default();
    for answer in flood {
        tally.sent += 1;
        match answer.status().as_u16() {
            201 => tally.acknowledged += 1,
            429 => {
                let wait: u64 = answer.headers()["retry-after"]
                    .to_str()
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .expect("Retry-After in seconds");
                assert!(wait >= 1, "Retry-After {wait}");
                let body: serde_json::Value = answer.json().await.expect("an error body");
                assert_eq!(body["statusCode"], 429, "{body}");
                assert_eq!(body["name"], "TOO_MANY_REQUESTS", "{body}");
            }
            other => panic!("a flooding filing answered {other}"),
        }
    }
    eprintln!("{CASE}: 30 anonymous filings from one address at once: {tally:?}");
    assert_eq!(tally.acknowledged, BURST, "exactly the burst is filed");
    api.process.terminate(Duration::from_secs(30)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trickling_uploads_do_not_stop_other_citizens_and_are_cut_at_the_time_out() {
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("floodslow", false).await else {
        return;
    };
    let api = platform
        .citizen_api(
            None,
            &[(
                "HTTP__REQUEST_TIMEOUT_SECONDS",
                REQUEST_TIMEOUT_SECS.to_string(),
            )],
        )
        .await;
    let authority = api.process.base.trim_start_matches("http://").to_owned();
    let bearer = token("trickler", &[]);
    let started = Instant::now();
    let mut tricklers = Vec::new();
    for _ in 0..TRICKLING {
        let mut stream = TcpStream::connect(&authority).await.expect("connect");
        stream
            .write_all(upload_head(&authority, &bearer, 100_000).as_bytes())
            .await
            .expect("send the head");
        tricklers.push(tokio::spawn(trickle(stream)));
    }
    // Other citizens are served meanwhile, each within the usual time.
    let citizen = token("citizen-1", &[]);
    let mut served = Vec::new();
    for n in 0..5 {
        let answer = api
            .file(&citizen, &format!("Filed beside a flood {n}"))
            .await;
        assert_eq!(answer.status, Some(201), "{answer:?}");
        assert!(answer.took < ANSWER_WITHIN, "{answer:?}");
        served.push(answer.took);
    }
    // Every trickling upload is answered 408 at the request time-out, and its connection is
    // closed at the latest a lingering close later.
    let cut = join_all(tricklers).await;
    let mut answered_408 = 0;
    let mut latest = Duration::ZERO;
    for outcome in cut {
        let (status, closed_after) = outcome.expect("a trickler");
        if status == Some(408) {
            answered_408 += 1;
        }
        latest = latest.max(closed_after.duration_since(started));
    }
    eprintln!(
        "{CASE}: {TRICKLING} uploads at a byte a second: {answered_408} answered 408, the last \
         connection closed {latest:?} after the first opened; 5 other filings took {served:?}"
    );
    assert_eq!(answered_408, TRICKLING);
    assert!(
        latest <= Duration::from_secs(REQUEST_TIMEOUT_SECS + LINGER_SECS + 5),
        "connections held for {latest:?}"
    );
    assert!(
        platform.stored_files().len() == 5,
        "the cut uploads left files behind"
    );
    api.process.terminate(Duration::from_secs(30)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_upload_has_its_connection_closed_while_the_client_sends_on() {
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("floodrefused", false).await else {
        return;
    };
    let api = platform
        .citizen_api(
            None,
            &[
                ("MEDIA__MAX_FILE_BYTES", "100000".into()),
                ("MEDIA__MAX_TOTAL_BYTES", "100000".into()),
            ],
        )
        .await;
    let authority = api.process.base.trim_start_matches("http://").to_owned();
    let stream = TcpStream::connect(&authority).await.expect("connect");
    let (mut read, mut write) = stream.into_split();
    write
        .write_all(upload_head(&authority, &token("big", &[]), 50_000_000).as_bytes())
        .await
        .expect("send the head");
    let started = Instant::now();
    // The client sends on, a kilobyte every 10 ms, until the connection is gone.
    let sending = tokio::spawn(async move {
        let chunk = vec![b'x'; 1024];
        while write.write_all(&chunk).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    let mut answer = Vec::new();
    let read_all = tokio::time::timeout(
        Duration::from_secs(LINGER_SECS + 5),
        read.read_to_end(&mut answer),
    )
    .await;
    let closed_after = started.elapsed();
    sending.abort();
    let text = String::from_utf8_lossy(&answer);
    // TOTAL_MEDIA_SIZE_TOO_LARGE (400) before the body is read: its declared length is over.
    assert!(text.starts_with("HTTP/1.1 400"), "the refusal: {text}");
    assert!(
        text.contains("TOTAL_MEDIA_SIZE_TOO_LARGE"),
        "the refusal: {text}"
    );
    assert!(
        read_all.is_ok(),
        "the connection was still open {closed_after:?} after the refusal"
    );
    eprintln!("{CASE}: an upload past the limit: 400, closed {closed_after:?} after its head");
    assert!(
        platform.stored_files().is_empty(),
        "a refused upload left a file"
    );
    api.process.terminate(Duration::from_secs(30)).await;
}

/// The head of a filing whose body is `length` bytes of multipart, the media part open.
fn upload_head(authority: &str, bearer: &str, length: usize) -> String {
    format!(
        "POST /api/v1/reports HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Bearer {bearer}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {length}\r\n\r\n\
         --b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nSlow\r\n\
         --b\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\nSlow\r\n\
         --b\r\nContent-Disposition: form-data; name=\"media\"; filename=\"a.jpg\"\r\n\
         Content-Type: image/jpeg\r\n\r\n"
    )
}

/// Sends a byte a second until the server answers and closes: (its status, when it closed).
async fn trickle(stream: TcpStream) -> (Option<u16>, Instant) {
    let (mut read, mut write) = stream.into_split();
    let sending = tokio::spawn(async move {
        while write.write_all(b"x").await.is_ok() {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(60), read.read_to_end(&mut answer)).await;
    let closed = Instant::now();
    sending.abort();
    let status = String::from_utf8_lossy(&answer)
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok());
    (status, closed)
}
