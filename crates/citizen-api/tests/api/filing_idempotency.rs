//! `Idempotency-Key` on `POST /reports` (issue 51, item 7): a retry after a cut connection gets
//! the first filing's answer and files nothing more, a retry racing the first request is 409
//! `IDEMPOTENCY_KEY_IN_USE` and, once the first is answered, gets its answer, a key reused with
//! another form is 422 `IDEMPOTENCY_KEY_REUSED`, keys are kept per citizen, and for
//! `reports.idempotency_key_hours` only (then swept).

use std::time::{Duration, Instant};

use citizen_api::store;
use serde_json::Value;
use service_kit::db::{Database, DatabaseSettings};
use test_support::on_both_backends;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{assert_error, file, form, TestApp};
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    a_retry_after_a_cut_connection_gets_the_first_answer_and_files_once,
    a_retry_racing_the_first_request_is_409_then_gets_its_answer,
    a_key_reused_with_another_form_is_422_and_keys_are_per_citizen,
    a_key_past_its_time_files_again_and_is_swept,
    an_erasure_deletes_the_citizens_keys_and_no_other,
);

const BOUNDARY: &str = "idempotency-test-boundary-7f3a";
/// How long the first request may take to get to a state the test waits for.
const WITHIN: Duration = Duration::from_secs(20);

/// The form `title` + description + a JPEG, as multipart bytes of [`BOUNDARY`].
fn multipart(title: &str, photo: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in [("title", title), ("description", "Filed on a bad network")] {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"media\"; \
             filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(photo);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// The same form as reqwest builds it (another boundary).
fn same_form(title: &str, photo: &[u8]) -> reqwest::multipart::Form {
    form(title, "Filed on a bad network").part("media", file(photo.to_vec(), "photo.jpg"))
}

/// Connects and sends the head of a filing with `key` and the first `sent` bytes of `body`.
async fn start_filing(
    app: &TestApp,
    token: &str,
    key: &str,
    body: &[u8],
    sent: usize,
) -> TcpStream {
    let authority = app.root.trim_start_matches("http://");
    let mut stream = TcpStream::connect(authority).await.unwrap();
    let head = format!(
        "POST {}/reports HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Bearer {token}\r\n\
         Idempotency-Key: \"{key}\"\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        app.settings.http.base_path,
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body[..sent]).await.unwrap();
    stream.flush().await.unwrap();
    stream
}

/// The rest of the answer on `stream`: (status, JSON body).
async fn answer_of(mut stream: TcpStream) -> (u16, Value) {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// POST /reports with `form` and `key` as `token`'s citizen.
async fn post_with_key(
    app: &TestApp,
    form: reqwest::multipart::Form,
    token: &str,
    key: &str,
) -> (u16, Value) {
    crate::helpers::answer(
        app.http
            .post(format!("{}/reports", app.base))
            .bearer_auth(token)
            .header("Idempotency-Key", key)
            .multipart(form),
    )
    .await
}

/// Rows of `idempotency_keys`, read on a connection of the test's own.
async fn key_rows(app: &TestApp) -> i64 {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    let db = Database::connect(&settings, store::SCHEMA).await.unwrap();
    let sql = "SELECT COUNT(*) FROM idempotency_keys";
    let n = match &db {
        Database::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.unwrap(),
        Database::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.unwrap(),
    };
    db.close().await;
    n
}

async fn reports_of(app: &TestApp, subject: &str) -> Vec<uuid::Uuid> {
    app.stores.privacy.reports_of(subject).await.unwrap()
}

async fn a_retry_after_a_cut_connection_gets_the_first_answer_and_files_once(app: TestApp) {
    let subject = "citizen-cut";
    let token = app.token(subject, &[]);
    let (photo, _) = images::jpeg();
    let body = multipart("Cut off", &photo);
    // The whole request sent, the connection dropped before the answer is read.
    let stream = start_filing(&app, &token, "cut-1", &body, body.len()).await;
    drop(stream);

    // Retried as a client does: while the first still runs the key is in use, then the first
    // answer comes back (or, had the first been dropped unfiled, the retry files).
    let deadline = Instant::now() + WITHIN;
    let (status, answer) = loop {
        let (status, answer) =
            post_with_key(&app, same_form("Cut off", &photo), &token, "cut-1").await;
        if status != 409 || Instant::now() > deadline {
            break (status, answer);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(status, 201, "{answer}");
    let filed = reports_of(&app, subject).await;
    assert_eq!(filed.len(), 1, "one report, not two: {filed:?}");
    assert_eq!(answer["id"], filed[0].to_string());

    // Retried again: the same answer, still one report.
    let (again, replayed) =
        post_with_key(&app, same_form("Cut off", &photo), &token, "cut-1").await;
    assert_eq!(again, 201);
    assert_eq!(replayed, answer);
    assert_eq!(reports_of(&app, subject).await.len(), 1);
}

async fn a_retry_racing_the_first_request_is_409_then_gets_its_answer(app: TestApp) {
    let subject = "citizen-race";
    let token = app.token(subject, &[]);
    let (photo, _) = images::jpeg();
    let body = multipart("Racing", &photo);
    // The first request has claimed its key and is in the middle of its photo.
    let cut = body.len() - photo.len() / 2;
    let mut first = start_filing(&app, &token, "race-1", &body, cut).await;
    let deadline = Instant::now() + WITHIN;
    while key_rows(&app).await == 0 {
        assert!(
            Instant::now() < deadline,
            "the first request claimed no key"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let (status, refused) =
        post_with_key(&app, same_form("Racing", &photo), &token, "race-1").await;
    assert_error(status, &refused, 409, "IDEMPOTENCY_KEY_IN_USE");

    first.write_all(&body[cut..]).await.unwrap();
    let (status, answer) = answer_of(first).await;
    assert_eq!(status, 201, "{answer}");

    let (status, replayed) =
        post_with_key(&app, same_form("Racing", &photo), &token, "race-1").await;
    assert_eq!(status, 201, "{replayed}");
    assert_eq!(replayed, answer, "the first answer again");
    assert_eq!(reports_of(&app, subject).await.len(), 1);
}

async fn a_key_reused_with_another_form_is_422_and_keys_are_per_citizen(app: TestApp) {
    let token = app.token("citizen-reuse", &[]);
    let (photo, _) = images::jpeg();
    let (status, first) = post_with_key(&app, same_form("Lamp", &photo), &token, "k-1").await;
    assert_eq!(status, 201, "{first}");

    let (status, refused) = post_with_key(&app, same_form("Bench", &photo), &token, "k-1").await;
    assert_error(status, &refused, 422, "IDEMPOTENCY_KEY_REUSED");
    let (png, _) = images::png();
    let other_file = form("Lamp", "Filed on a bad network").part("media", file(png, "photo.jpg"));
    let (status, refused) = post_with_key(&app, other_file, &token, "k-1").await;
    assert_error(status, &refused, 422, "IDEMPOTENCY_KEY_REUSED");
    assert_eq!(reports_of(&app, "citizen-reuse").await.len(), 1);

    // Another citizen's key of the same name is its own.
    let other = app.token("citizen-other", &[]);
    let (status, theirs) = post_with_key(&app, same_form("Lamp", &photo), &other, "k-1").await;
    assert_eq!(status, 201, "{theirs}");
    assert_ne!(theirs["id"], first["id"]);

    // A malformed key is a 400.
    let (status, bad) = post_with_key(&app, same_form("Lamp", &photo), &token, "a b").await;
    assert_error(status, &bad, 400, "VALIDATION_ERROR");
}

/// The keys' scope is a hash of the subject, which still leads back to it: an erasure deletes
/// the citizen's rows (docs/privacy.md) and leaves another citizen's key of the same name.
async fn an_erasure_deletes_the_citizens_keys_and_no_other(app: TestApp) {
    let (photo, _) = images::jpeg();
    let erased = app.token("citizen-keys-erased", &[]);
    let kept = app.token("citizen-keys-kept", &[]);
    for token in [&erased, &kept] {
        let (status, body) = post_with_key(&app, same_form("Lamp", &photo), token, "k-1").await;
        assert_eq!(status, 201, "{body}");
    }
    assert_eq!(key_rows(&app).await, 2);

    let confirmed = serde_json::json!({"confirm": "ERASE"});
    let (status, body) = app
        .send_json(reqwest::Method::DELETE, "/me", &erased, &confirmed)
        .await;
    assert_eq!((status, body), (204, Value::Null));
    assert_eq!(
        key_rows(&app).await,
        1,
        "only the other citizen's key is left"
    );
    let (status, again) = post_with_key(&app, same_form("Lamp", &photo), &kept, "k-1").await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(
        reports_of(&app, "citizen-keys-kept").await.len(),
        1,
        "answered again"
    );
}

async fn a_key_past_its_time_files_again_and_is_swept(app: TestApp) {
    use service_kit::clock::Clock;
    let subject = "citizen-expiry";
    let token = app.token(subject, &[]);
    let (photo, _) = images::jpeg();
    let hours = i64::from(app.settings.reports.idempotency_key_hours);
    assert_eq!(hours, 24);
    let (status, first) = post_with_key(&app, same_form("Old", &photo), &token, "old-1").await;
    assert_eq!(status, 201, "{first}");
    let ttl = app.settings.reports.idempotency_ttl();

    // Just inside its time: answered again, and the sweep keeps it.
    app.clock
        .advance(chrono::TimeDelta::hours(hours) - chrono::TimeDelta::seconds(1));
    let swept =
        citizen_api::app::idempotency::sweep(app.stores.idempotency.as_ref(), ttl, app.clock.now());
    assert_eq!(swept.await.unwrap(), 0);
    let (_, replayed) = post_with_key(&app, same_form("Old", &photo), &token, "old-1").await;
    assert_eq!(replayed, first);

    // Past it: the key is new again, and the sweep deletes the rows past their time.
    app.clock.advance(chrono::TimeDelta::seconds(2));
    let (status, second) = post_with_key(&app, same_form("Old", &photo), &token, "old-1").await;
    assert_eq!(status, 201, "{second}");
    assert_ne!(second["id"], first["id"]);
    assert_eq!(reports_of(&app, subject).await.len(), 2);
    assert_eq!(key_rows(&app).await, 1);
    app.clock.advance(chrono::TimeDelta::hours(hours + 1));
    let swept =
        citizen_api::app::idempotency::sweep(app.stores.idempotency.as_ref(), ttl, app.clock.now());
    assert_eq!(swept.await.unwrap(), 1);
    assert_eq!(key_rows(&app).await, 0);
}
