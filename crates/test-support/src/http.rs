//! Plumbing of the services' HTTP tests: reading `/metrics`, conditional requests, headers and
//! the error body every service answers with (`service_kit::ErrorBody`).

use reqwest::header::{HeaderName, IF_NONE_MATCH};
use serde_json::Value;

/// The text of `{root}/metrics`.
pub async fn metrics_text(http: &reqwest::Client, root: &str) -> String {
    http.get(format!("{root}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// Sends `request`, with `If-None-Match: tag` when there is a tag.
pub async fn send_if_none_match(
    mut request: reqwest::RequestBuilder,
    tag: Option<&str>,
) -> reqwest::Response {
    if let Some(tag) = tag {
        request = request.header(IF_NONE_MATCH, tag);
    }
    request.send().await.unwrap()
}

/// The value of the header `name`, if the response has it.
pub fn header(response: &reqwest::Response, name: HeaderName) -> Option<String> {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
}

/// Asserts an error answer: `status`, and a body naming it (`statusCode`), with the error's
/// `name` and a `userinfo` text.
pub fn assert_error(status: u16, body: &Value, expected_status: u16, expected_name: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["statusCode"], expected_status, "{body}");
    assert_eq!(body["name"], expected_name, "{body}");
    assert!(
        body["userinfo"].as_str().is_some_and(|s| !s.is_empty()),
        "{body}"
    );
}
