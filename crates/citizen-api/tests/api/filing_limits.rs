//! The media limits of `POST /reports` at and past their edges (small limits so the edge is
//! cheap: 64 KiB per file, 2 files, 100 KiB in total).

use std::sync::Arc;

use test_support::{on_both_backends, Backend};

use crate::helpers::{assert_error, file, form, spawn_on, TestApp};
use crate::media_images::images;

const FILE: u64 = 64 * 1024;
const TOTAL: u64 = 100 * 1024;

pub async fn spawn_small(backend: Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "limits").await?);
    Some(
        spawn_on(db, |s| {
            s.media.max_file_bytes = FILE;
            s.media.max_files = 2;
            s.media.max_total_bytes = TOTAL;
        })
        .await,
    )
}

on_both_backends!(crate::filing_limits::spawn_small;
    each_media_limit_at_and_past_its_edge,
    a_client_that_writes_its_whole_upload_first_gets_the_refusal,
);

/// A valid JPEG of exactly `size` bytes: the test photo with comment segments (which are
/// stripped) inserted after its start marker.
fn jpeg_of(size: usize) -> Vec<u8> {
    let (photo, _) = images::jpeg();
    let mut out = photo[..2].to_vec();
    let mut missing = size - photo.len();
    while missing > 0 {
        // A segment is its 2-byte marker plus length (2 bytes, counting itself) plus data.
        let segment = missing.min(65_535 + 2);
        let segment = if missing - segment < 4 && missing != segment {
            segment - 4
        } else {
            segment
        };
        let length = segment - 2;
        out.extend_from_slice(&[0xFF, 0xFE, (length >> 8) as u8, length as u8]);
        out.resize(out.len() + length - 2, b'x');
        missing -= segment;
    }
    out.extend_from_slice(&photo[2..]);
    assert_eq!(out.len(), size);
    out
}

async fn each_media_limit_at_and_past_its_edge(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    let file_limit = FILE as usize;
    // One file exactly at the per-file limit: stored.
    let (status, _, body) = app
        .post_report(
            form("t", "d").part("media", file(jpeg_of(file_limit), "a.jpg")),
            Some(&token),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    // One byte over: 413.
    let (status, _, body) = app
        .post_report(
            form("t", "d").part("media", file(jpeg_of(file_limit + 1), "a.jpg")),
            Some(&token),
        )
        .await;
    assert_error(status, &body, 413, "PAYLOAD_TOO_LARGE");
    // Two files at the total (50 KiB each): stored; a third file is one too many.
    let half = (TOTAL / 2) as usize;
    let two = form("t", "d")
        .part("media", file(jpeg_of(half), "a.jpg"))
        .part("media", file(jpeg_of(half), "b.jpg"));
    let (status, _, body) = app.post_report(two, Some(&token)).await;
    assert_eq!(status, 201, "{body}");
    let three = form("t", "d")
        .part("media", file(jpeg_of(1000), "a.jpg"))
        .part("media", file(jpeg_of(1000), "b.jpg"))
        .part("media", file(jpeg_of(1000), "c.jpg"));
    let (status, _, body) = app.post_report(three, Some(&token)).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    // Two files each under the per-file limit but together over the total.
    let over = form("t", "d")
        .part("media", file(jpeg_of(half), "a.jpg"))
        .part("media", file(jpeg_of(half + 1), "b.jpg"));
    let (status, _, body) = app.post_report(over, Some(&token)).await;
    assert_error(status, &body, 400, "TOTAL_MEDIA_SIZE_TOO_LARGE");
    // Only the two good filings' three files are kept.
    assert_eq!(app.stored_files().len(), 3, "{:?}", app.stored_files());
    assert_eq!(app.listed_reports().await, 2);
}

/// How a client that sends its whole body before it reads the answer (Python's `requests` and
/// `httpx`, many mobile stacks) fares with an upload refused at the file limit: it may finish
/// writing (the server reads and discards what it will not keep) and then reads the 413, marked
/// `Connection: close`, after which the server closes the connection. Before issue 32's fix
/// the server stopped reading after its answer and such a client waited for its own time-out.
/// Both ways of sending a body: chunked, and with a `Content-Length` over the limits.
async fn a_client_that_writes_its_whole_upload_first_gets_the_refusal(app: TestApp) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::time::{timeout, Duration};

    let rest = app.base.trim_start_matches("http://");
    let (authority, base_path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = format!("{base_path}/reports");
    let boundary = "writes-first-boundary";
    let head_part = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nt\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\nd\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"media\"; filename=\"a.jpg\"\r\n\
         Content-Type: image/jpeg\r\n\r\n"
    );
    let (photo, _) = images::jpeg();
    // 8 MiB: far past the 64 KiB file limit, and more than the kernel's socket buffers hold,
    // so a server that stops reading blocks the client's writes.
    let total = 8 * 1024 * 1024;
    for chunked in [true, false] {
        let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
        let framing = if chunked {
            "Transfer-Encoding: chunked".to_owned()
        } else {
            format!("Content-Length: {}", head_part.len() + total)
        };
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {authority}\r\n\
             Content-Type: multipart/form-data; boundary={boundary}\r\n{framing}\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        let mut body = head_part.clone().into_bytes();
        body.extend_from_slice(&photo);
        body.resize(head_part.len() + total, b'x');
        let mut written = 0;
        let mut write_error = None;
        for piece in body.chunks(64 * 1024) {
            let framed = if chunked {
                let mut framed = format!("{:x}\r\n", piece.len()).into_bytes();
                framed.extend_from_slice(piece);
                framed.extend_from_slice(b"\r\n");
                framed
            } else {
                piece.to_vec()
            };
            match timeout(Duration::from_secs(10), stream.write_all(&framed)).await {
                Ok(Ok(())) => written += piece.len(),
                Ok(Err(err)) => {
                    write_error = Some(err);
                    break;
                }
                Err(_) => {
                    let mut answer = vec![0u8; 4096];
                    let got = timeout(Duration::from_secs(2), stream.read(&mut answer)).await;
                    let got = match got {
                        Ok(Ok(n)) => String::from_utf8_lossy(&answer[..n]).into_owned(),
                        other => format!("{other:?}"),
                    };
                    panic!(
                        "chunked={chunked}: the server stopped reading after {written} bytes; a \
                         client that writes first would wait for its own time-out; it answered: \
                         {got}"
                    )
                }
            }
        }
        if chunked && write_error.is_none() {
            let _ = stream.write_all(b"0\r\n\r\n").await;
        }
        let mut answer = Vec::new();
        let read = timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
        let text = String::from_utf8_lossy(&answer);
        assert!(
            read.is_ok(),
            "chunked={chunked}: the connection was not closed after the answer: {text}"
        );
        // The file limit (413 PAYLOAD_TOO_LARGE) when the body streams in; the declared length
        // over the form's total is refused before reading (400 TOTAL_MEDIA_SIZE_TOO_LARGE).
        let refused = if chunked {
            "HTTP/1.1 413"
        } else {
            "HTTP/1.1 400"
        };
        assert!(
            text.starts_with(refused),
            "chunked={chunked}: wrote {written} bytes ({write_error:?}), answer: {text:?}"
        );
        assert!(write_error.is_none(), "chunked={chunked}: {write_error:?}");
        assert!(
            text.to_ascii_lowercase()
                .contains("\r\nconnection: close\r\n"),
            "chunked={chunked}: {text}"
        );
        let name = if chunked {
            "PAYLOAD_TOO_LARGE"
        } else {
            "TOTAL_MEDIA_SIZE_TOO_LARGE"
        };
        assert!(text.contains(name), "{text}");
    }
}
