//! The refusals actix-http writes itself, over a raw socket: a head over its buffer or with too
//! many headers (431), a request line it cannot parse (400). They carry no body (the framework
//! answers before any service code runs, docs/operations.md) and must not log at ERROR, or any
//! client could fill the error log: the services' own subscriber ([`telemetry::try_init`]) is
//! installed here, its lines kept.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use actix_web::{web, HttpResponse};
use service_kit::http::AppParts;
use service_kit::settings::{HttpSettings, LogFormat};
use service_kit::startup::HttpApp;
use service_kit::telemetry;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tracing_subscriber::EnvFilter;

/// Every log line written, shared by the writers the subscriber makes.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Writes `request` (from a task of its own: the server may stop reading) and reads the answer
/// until the server closes the connection.
async fn exchange(port: u16, request: Vec<u8>) -> String {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let writer = tokio::spawn(async move {
        let _ = write.write_all(&request).await;
        write
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match read.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    drop(writer.await);
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn framework_refusals_answer_without_an_error_line() {
    let lines = Lines::default();
    let writer = lines.clone();
    assert!(telemetry::try_init(
        EnvFilter::new("info"),
        LogFormat::Json,
        move || writer.clone()
    ));
    let api = Arc::new(|cfg: &mut web::ServiceConfig| {
        cfg.route(
            "/ok",
            web::get().to(|| async { HttpResponse::Ok().body("ok") }),
        );
    });
    let parts = AppParts::new("refusals-test", api, utoipa::openapi::OpenApi::default()).unwrap();
    let app = HttpApp::bind(parts, &HttpSettings::default()).unwrap();
    let port = app.port();
    tokio::spawn(app.run_until(std::future::pending()));

    let head = |line: &str, headers: &str| {
        format!("{line}\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n").into_bytes()
    };
    let big_header = format!("X-Big: {}\r\n", "a".repeat(200 * 1024));
    let many_headers: String = (0..2000).map(|i| format!("X-H{i}: v\r\n")).collect();
    let long_line = format!("GET /api/v1/ok?{} HTTP/1.1", "a".repeat(100 * 1024));
    for (name, request, status) in [
        (
            "a 200 KB header",
            head("GET /api/v1/ok HTTP/1.1", &big_header),
            431,
        ),
        (
            "2 000 headers",
            head("GET /api/v1/ok HTTP/1.1", &many_headers),
            431,
        ),
        ("a 100 KB request line", head(&long_line, ""), 400),
    ] {
        let answer = exchange(port, request).await;
        let status_line = answer.lines().next().unwrap_or_default();
        assert!(
            status_line.starts_with(&format!("HTTP/1.1 {status} ")),
            "{name}: {answer:?}"
        );
        // The framework writes these answers itself: no body (docs/operations.md).
        assert!(answer.ends_with("\r\n\r\n"), "{name}: {answer:?}");
    }
    // A request as usual still works on the same server.
    let answer = exchange(port, head("GET /api/v1/ok HTTP/1.1", "")).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer:?}");

    // actix-http logs a connection's error before it closes the socket, so each line is written
    // by the time its answer has been read to the end.
    let refused = "connection refused by the HTTP framework";
    let log = lines.text();
    assert_eq!(log.matches(refused).count(), 3, "{log}");
    for line in log.lines() {
        assert!(
            !line.contains("\"level\":\"ERROR\""),
            "an ERROR line: {line}"
        );
        if line.contains(refused) {
            assert!(line.contains("\"level\":\"INFO\""), "{line}");
        }
    }
}
