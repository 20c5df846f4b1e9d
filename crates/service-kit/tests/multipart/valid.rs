//! Valid forms: the handler answers exactly what was sent.

use crate::helpers::*;
use serde_json::json;

fn report() -> Body {
    Body::new()
        .text("title", "Schlagloch")
        .text("description", "tiefes Loch ✓")
        .text("location", "50.08,14.42")
        .text("captchaToken", "tok-123")
        .file("media", "hole.jpg", "image/jpeg", b"\xff\xd8\xff\x00jpeg")
        .file("media", "plan.pdf", "application/pdf", b"%PDF-1.7")
}

#[tokio::test]
async fn valid_report_returns_what_was_read() {
    let base = serve(LIMITS);
    for path in ["/reports", "/extracted"] {
        let summary = summary_of(post(&base, path, report()).await).await;
        assert_eq!(
            summary,
            json!({
                "texts": {
                    "title": "Schlagloch",
                    "description": "tiefes Loch ✓",
                    "location": "50.08,14.42",
                    "captchaToken": "tok-123",
                },
                "files": [
                    {
                        "field": "media",
                        "filename": "hole.jpg",
                        "contentType": "image/jpeg",
                        "size": 8,
                        "sum": 0xff + 0xd8 + 0xff + u64::from(b'j') + 101 + 112 + 103,
                    },
                    {
                        "field": "media",
                        "filename": "plan.pdf",
                        "contentType": "application/pdf",
                        "size": 8,
                        "sum": b"%PDF-1.7".iter().map(|b| u64::from(*b)).sum::<u64>(),
                    },
                ],
            }),
            "{path}"
        );
    }
}

/// Empty text and an empty file without a content type are parts like any other.
#[tokio::test]
async fn empty_parts_and_no_files_are_read() {
    let base = serve(LIMITS);
    let summary = summary_of(post(&base, "/reports", Body::new().text("title", "")).await).await;
    assert_eq!(summary, json!({ "texts": { "title": "" }, "files": [] }));

    let body = Body::new().text("title", "t").part(
        "Content-Disposition: form-data; name=\"media\"; filename=\"empty\"",
        b"",
    );
    let summary = summary_of(post(&base, "/reports", body).await).await;
    assert_eq!(
        summary["files"],
        json!([{ "field": "media", "filename": "empty", "contentType": null, "size": 0, "sum": 0 }])
    );
}

/// A form encoded by a real client (reqwest's `multipart`), read with `collect`.
#[tokio::test]
async fn form_from_a_client_library_is_collected() {
    let base = serve(LIMITS);
    let form = reqwest::multipart::Form::new()
        .text("title", "Laterne defekt")
        .text("location", "50.1,14.4")
        .part(
            "media",
            reqwest::multipart::Part::bytes(b"photo".to_vec())
                .file_name("lamp.png")
                .mime_str("image/png")
                .unwrap(),
        );
    let response = reqwest::Client::new()
        .post(format!("{base}/collected"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        summary_of(response).await,
        json!({
            "texts": { "location": "50.1,14.4", "title": "Laterne defekt" },
            "files": [
                { "field": "media", "filename": "lamp.png", "contentType": "image/png", "text": "photo" }
            ],
        })
    );
}
