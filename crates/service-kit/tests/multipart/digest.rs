//! The content digest (`MultipartReader::with_content_digest`): the same parts hash alike
//! whatever the boundary, the chunking or a left-out field; any other part, name, file name or
//! byte changes it.

use crate::helpers::*;

fn form(title: &str, captcha: &str, filename: &str, data: &[u8]) -> Body {
    Body::new()
        .text("title", title)
        .text("captchaToken", captcha)
        .file("media", filename, "image/jpeg", data)
}

async fn digest_of(base: &str, body: Vec<u8>, boundary: &str) -> String {
    let response = reqwest::Client::new()
        .post(format!("{base}/digest"))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    let answer = summary_of(response).await;
    answer["digest"].as_str().unwrap().to_owned()
}

/// `body` with another boundary.
fn rebound(body: Vec<u8>, boundary: &str) -> Vec<u8> {
    String::from_utf8(body)
        .unwrap()
        .replace(BOUNDARY, boundary)
        .into_bytes()
}

#[tokio::test]
async fn the_same_parts_hash_alike_and_any_change_shows() {
    let base = serve(LIMITS);
    let first = digest_of(
        &base,
        form("Hole", "tok-1", "a.jpg", b"jpeg").finish(),
        BOUNDARY,
    )
    .await;
    assert_eq!(first.len(), 64);
    // Another boundary, another CAPTCHA token (left out): the same digest.
    let other = "----another-boundary-42";
    let same = rebound(form("Hole", "tok-2", "a.jpg", b"jpeg").finish(), other);
    assert_eq!(digest_of(&base, same, other).await, first);
    // Another title, file name or file byte, or bytes moved between name and content: another.
    for changed in [
        form("Hole!", "tok-1", "a.jpg", b"jpeg"),
        form("Hole", "tok-1", "b.jpg", b"jpeg"),
        form("Hole", "tok-1", "a.jpg", b"jpeG"),
        form("Hole", "tok-1", "a.jpgj", b"peg"),
    ] {
        assert_ne!(digest_of(&base, changed.finish(), BOUNDARY).await, first);
    }
}
