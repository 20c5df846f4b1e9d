//! Bodies that break the schema or the framing, and bodies that are not multipart at all.

use crate::helpers::*;

#[tokio::test]
async fn unknown_field_is_400() {
    let base = serve(LIMITS);
    for body in [
        Body::new().text("title", "t").text("admin", "1"),
        Body::new().file("attachment", "a.txt", "text/plain", b"hi"),
    ] {
        let body = error_body(post(&base, "/reports", body).await, 400).await;
        assert_eq!(body.name, "VALIDATION_ERROR");
        assert!(
            body.userinfo.starts_with("unknown form field \""),
            "{}",
            body.userinfo
        );
    }
}

#[tokio::test]
async fn text_that_is_not_utf8_is_400() {
    let base = serve(LIMITS);
    let body = Body::new().text("title", b"caf\xe9");
    let body = error_body(post(&base, "/reports", body).await, 400).await;
    assert_eq!(body.name, "VALIDATION_ERROR");
    assert_eq!(
        body.userinfo,
        "the form field \"title\" is not valid UTF-8 text"
    );
}

#[tokio::test]
async fn repeated_text_field_is_400() {
    let base = serve(LIMITS);
    let body = Body::new().text("title", "a").text("title", "b");
    let body = error_body(post(&base, "/reports", body).await, 400).await;
    assert_eq!(body.name, "VALIDATION_ERROR");
    assert!(body.userinfo.contains("repeated"), "{}", body.userinfo);
}

#[tokio::test]
async fn missing_required_field_is_400() {
    let base = serve(LIMITS);
    let body = Body::new().text("description", "no title");
    let body = error_body(post(&base, "/reports", body).await, 400).await;
    assert_eq!(body.userinfo, "the form field \"title\" is required");
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let base = serve(LIMITS);
    let http = reqwest::Client::new();
    let form = Body::new().text("title", "t").finish();
    for path in ["/reports", "/extracted", "/collected"] {
        for content_type in [Some("application/json"), Some("text/plain"), None] {
            let mut request = http.post(format!("{base}{path}")).body(form.clone());
            if let Some(content_type) = content_type {
                request = request.header("content-type", content_type);
            }
            let response = request.send().await.unwrap();
            let body = error_body(response, 415).await;
            assert_eq!(body.name, "UNSUPPORTED_MEDIA_TYPE");
            assert_eq!(
                body.userinfo,
                "expected a body with Content-Type: multipart/form-data"
            );
        }
    }
    // from_request also wants form-data, not any multipart type.
    let response = http
        .post(format!("{base}/reports"))
        .header(
            "content-type",
            format!("multipart/mixed; boundary={BOUNDARY}"),
        )
        .body(form)
        .send()
        .await
        .unwrap();
    error_body(response, 415).await;
}

#[tokio::test]
async fn broken_framing_is_400() {
    let base = serve(LIMITS);
    let http = reqwest::Client::new();
    // Cut off inside a part: no closing boundary.
    let truncated = Body::new()
        .text("title", "t")
        .file("media", "a.jpg", "image/jpeg", b"abc")
        .unfinished();
    // A part without a name.
    let nameless = Body::new()
        .part("Content-Disposition: form-data", b"x")
        .finish();
    for body in [truncated, nameless] {
        let response = http
            .post(format!("{base}/reports"))
            .header("content-type", content_type())
            .body(body)
            .send()
            .await
            .unwrap();
        let body = error_body(response, 400).await;
        assert_eq!(body.name, "VALIDATION_ERROR");
        assert!(
            body.userinfo.starts_with("malformed multipart form data: "),
            "{}",
            body.userinfo
        );
    }
}
