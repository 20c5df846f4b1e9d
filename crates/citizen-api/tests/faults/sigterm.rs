//! SIGTERM while citizens file reports: the uploads already under way (their request read in
//! part, the rest still coming) and every request sent well before the signal are answered,
//! acknowledged filings are there with their photos, no file is left without its report, and
//! the process exits 0 within `http.shutdown_grace_seconds`.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use futures::future::join_all;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use uuid::Uuid;

use crate::harness::{one_case_at_a_time, token, Answer, Api, Platform, Tally};
use crate::media_images::images;

const CASE: &str = "SIGTERM under load";
const GRACE_SECS: u64 = 5;
/// Uploads under way at the signal: half their body sent before it, the rest after.
const SLOW_UPLOADS: usize = 4;
/// A request sent this long before the signal has surely been taken by the server.
const TAKEN: Duration = Duration::from_millis(300);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepted_requests_are_answered_and_the_process_exits_within_its_grace() {
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("sigterm", false).await else {
        return;
    };
    let mut api = platform
        .citizen_api(
            None,
            &[("HTTP__SHUTDOWN_GRACE_SECONDS", GRACE_SECS.to_string())],
        )
        .await;
    let authority = api.process.base.trim_start_matches("http://").to_owned();

    // Uploads under way: connected, head and half the body sent.
    let mut slow = Vec::new();
    for n in 0..SLOW_UPLOADS {
        slow.push(SlowUpload::start(&authority, &token(&format!("slow-{n}"), &[])).await);
    }
    let signal_at = Instant::now() + Duration::from_millis(1500);
    let load = join_all((0..3).map(|n| file_until_refused(&api, n)));
    let signal = async {
        tokio::time::sleep_until(signal_at.into()).await;
        api.process.signal("TERM");
        let sent = Instant::now();
        // The uploads go on after the signal; each must be answered.
        let answered = join_all(slow.into_iter().map(SlowUpload::finish)).await;
        (sent, answered)
    };
    let (loads, (signalled, slow_answers)) = tokio::join!(load, signal);
    let status = api
        .process
        .exited(Duration::from_secs(GRACE_SECS + 5))
        .await;
    let took = signalled.elapsed();
    assert!(
        status.success(),
        "exit status {status:?}\n{}",
        api.process.log_tail()
    );
    assert!(
        took <= Duration::from_secs(GRACE_SECS + 1),
        "exited {took:?} after SIGTERM (grace {GRACE_SECS} s)"
    );

    let mut tally = Tally::default();
    let mut filed = BTreeSet::new();
    for (n, status, body) in &slow_answers {
        tally.sent += 1;
        assert_eq!(*status, 201, "slow upload {n}: {body}");
        tally.acknowledged += 1;
        let id: Uuid = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|b| b["id"].as_str().and_then(|s| s.parse().ok()))
            .unwrap_or_else(|| panic!("no id in {body}"));
        filed.insert(id);
    }
    for (sent_at, answer) in loads.iter().flatten() {
        tally.sent += 1;
        if answer.acknowledged() {
            tally.acknowledged += 1;
            filed.insert(answer.id());
        } else if *sent_at + TAKEN <= signalled {
            panic!("a request sent {TAKEN:?} before SIGTERM was not answered: {answer:?}");
        }
    }

    // The database and the media store, read after the process is gone.
    let reports: BTreeSet<Uuid> = platform.ids("reports").await;
    tally.found = filed.intersection(&reports).count();
    tally.lost = filed.difference(&reports).count();
    let media: BTreeSet<Uuid> = platform.ids("media").await;
    let files = platform.stored_files();
    tally.report(CASE, "filings");
    eprintln!(
        "{CASE}: exit {took:?} after the signal; {} files",
        files.len()
    );
    assert_eq!(tally.lost, 0, "acknowledged filings not found");
    assert_eq!(media.len(), reports.len(), "one photo per report");
    assert_eq!(
        files, media,
        "the media store holds exactly the reports' photos"
    );
}

/// Files reports with a photo, one after the other, until the service stops answering: each
/// answer with the instant its request was sent.
async fn file_until_refused(api: &Api, n: usize) -> Vec<(Instant, Answer)> {
    let bearer = token(&format!("citizen-{n}"), &[]);
    let mut answers = Vec::new();
    for round in 0.. {
        let sent = Instant::now();
        let answer = api
            .file(&bearer, &format!("citizen {n} round {round}"))
            .await;
        let stop = answer.status.is_none();
        answers.push((sent, answer));
        if stop {
            break;
        }
    }
    answers
}

/// A filing sent over a socket of its own, its body in two halves.
struct SlowUpload {
    n: String,
    stream: TcpStream,
    rest: Vec<u8>,
}

impl SlowUpload {
    /// Connects and sends the head and the first half of the body, then waits until the
    /// server has surely taken the request.
    async fn start(authority: &str, bearer: &str) -> Self {
        let boundary = "fault-suite-boundary";
        let (photo, _) = images::jpeg();
        let mut body = Vec::new();
        for (name, value) in [
            ("title", "Uploaded slowly"),
            ("description", "Across SIGTERM"),
        ] {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                )
                .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"media\"; \
                 filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(&photo);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let head = format!(
            "POST /api/v1/reports HTTP/1.1\r\nHost: {authority}\r\n\
             Authorization: Bearer {bearer}\r\n\
             Content-Type: multipart/form-data; boundary={boundary}\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let mut stream = TcpStream::connect(authority).await.expect("connect");
        stream
            .write_all(head.as_bytes())
            .await
            .expect("send the head");
        let half = body.len() / 2;
        stream
            .write_all(&body[..half])
            .await
            .expect("send half the body");
        tokio::time::sleep(TAKEN).await;
        Self {
            n: bearer.chars().rev().take(6).collect(),
            stream,
            rest: body[half..].to_vec(),
        }
    }

    /// Sends the rest over a second, then reads the answer: (which, status, body).
    async fn finish(mut self) -> (String, u16, String) {
        for chunk in self.rest.chunks(self.rest.len().div_ceil(4)) {
            tokio::time::sleep(Duration::from_millis(250)).await;
            if let Err(err) = self.stream.write_all(chunk).await {
                return (self.n, 0, format!("the connection was cut: {err}"));
            }
        }
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(
            Duration::from_secs(GRACE_SECS + 5),
            self.stream.read_to_end(&mut answer),
        )
        .await;
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default();
        (self.n, status, body)
    }
}
