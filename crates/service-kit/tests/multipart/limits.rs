//! Each limit of [`LIMITS`]: a body exactly at it is read, one byte (or file) more is refused.

use crate::helpers::*;
use futures::stream;
use reqwest::Body as ReqwestBody;

#[tokio::test]
async fn text_field_at_limit_is_read_one_byte_more_is_413() {
    let base = serve(LIMITS);
    let at = "x".repeat(16);
    let summary = summary_of(post(&base, "/reports", Body::new().text("title", &at)).await).await;
    assert_eq!(summary["texts"]["title"], at.as_str());

    let over = Body::new().text("title", "x".repeat(17));
    let body = error_body(post(&base, "/reports", over).await, 413).await;
    assert_eq!(body.name, "PAYLOAD_TOO_LARGE");
    assert_eq!(
        body.userinfo,
        "the form field \"title\" is too large (at most 16 bytes)"
    );
}

#[tokio::test]
async fn file_at_limit_is_read_one_byte_more_is_413() {
    let base = serve(LIMITS);
    let at = Body::new()
        .text("title", "t")
        .file("media", "a.jpg", "image/jpeg", &bytes(100));
    let summary = summary_of(post(&base, "/reports", at).await).await;
    assert_eq!(summary["files"][0]["size"], 100);

    let over = Body::new()
        .text("title", "t")
        .file("media", "a.jpg", "image/jpeg", &bytes(101));
    let body = error_body(post(&base, "/reports", over).await, 413).await;
    assert_eq!(body.name, "PAYLOAD_TOO_LARGE");
    assert_eq!(
        body.userinfo,
        "the file in the form field \"media\" is too large (at most 100 bytes)"
    );
}

#[tokio::test]
async fn file_count_at_limit_is_read_one_more_is_400() {
    let base = serve(LIMITS);
    let files = |n: usize| {
        (0..n).fold(Body::new().text("title", "t"), |body, i| {
            body.file("media", &format!("{i}.png"), "image/png", &bytes(10))
        })
    };
    let summary = summary_of(post(&base, "/reports", files(3)).await).await;
    assert_eq!(summary["files"].as_array().unwrap().len(), 3);

    let body = error_body(post(&base, "/reports", files(4)).await, 400).await;
    assert_eq!(body.name, "VALIDATION_ERROR");
    assert_eq!(body.userinfo, "too many files (at most 3)");
}

/// Texts count too: 1 + 100 + 100 + 49 = 250 bytes.
#[tokio::test]
async fn total_at_limit_is_read_one_byte_more_is_413() {
    let base = serve(LIMITS);
    let form = |last: usize| {
        Body::new()
            .text("title", "t")
            .file("media", "1.jpg", "image/jpeg", &bytes(100))
            .file("media", "2.jpg", "image/jpeg", &bytes(100))
            .file("media", "3.jpg", "image/jpeg", &bytes(last))
    };
    let summary = summary_of(post(&base, "/reports", form(49)).await).await;
    assert_eq!(summary["files"][2]["size"], 49);

    let body = error_body(post(&base, "/reports", form(50)).await, 413).await;
    assert_eq!(body.name, "PAYLOAD_TOO_LARGE");
    assert_eq!(
        body.userinfo,
        "the form data are too large in total (at most 250 bytes)"
    );

    // The caller may answer its own code instead (citizen-api's media total).
    let body = error_body(post(&base, "/media", form(50)).await, 400).await;
    assert_eq!(body.name, "TOTAL_MEDIA_SIZE_TOO_LARGE");
    assert!(body.userinfo.contains("250 bytes"), "{}", body.userinfo);
}

/// Limits count every chunk, however the body is cut: here one byte per chunk.
#[tokio::test]
async fn limits_hold_when_the_body_arrives_byte_by_byte() {
    let base = serve(LIMITS);
    let send = |body: Vec<u8>| {
        let chunks = body.into_iter().map(|b| Ok::<_, std::io::Error>(vec![b]));
        reqwest::Client::new()
            .post(format!("{base}/reports"))
            .header("content-type", content_type())
            .body(ReqwestBody::wrap_stream(stream::iter(chunks)))
            .send()
    };
    let at = Body::new().text("title", "x".repeat(16)).file(
        "media",
        "a.bin",
        "application/octet-stream",
        &bytes(100),
    );
    let summary = summary_of(send(at.finish()).await.unwrap()).await;
    assert_eq!(summary["files"][0]["size"], 100);
    assert_eq!(summary["files"][0]["sum"], 100 * u64::from(b'a'));

    let over = Body::new().text("title", "t").file(
        "media",
        "a.bin",
        "application/octet-stream",
        &bytes(101),
    );
    let body = error_body(send(over.finish()).await.unwrap(), 413).await;
    assert!(body.userinfo.contains("\"media\""), "{}", body.userinfo);
}
