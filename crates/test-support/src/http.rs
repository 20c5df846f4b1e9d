//! Plumbing of the services' HTTP tests: requests with an optional token and JSON body, reading
//! `/metrics`, conditional requests, headers and the error body every service answers with
//! (`service_kit::ErrorBody`).

use reqwest::header::{HeaderName, IF_NONE_MATCH};
use serde_json::Value;

/// Sends `method url`, with `token` as bearer and `body` as JSON when given.
pub async fn send(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> reqwest::Response {
    let mut request = http.request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    request.send().await.unwrap()
}

/// The status of `response` and its JSON body (`Null` when it has none).
pub async fn status_and_json(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// GET `url` and its JSON body (the test fails when there is no JSON body).
pub async fn get_json(http: &reqwest::Client, url: &str) -> Value {
    http.get(url).send().await.unwrap().json().await.unwrap()
}

/// GET `url` with the header `name: value`.
pub async fn get_with_header(
    http: &reqwest::Client,
    url: &str,
    name: &str,
    value: &str,
) -> reqwest::Response {
    http.get(url).header(name, value).send().await.unwrap()
}

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
