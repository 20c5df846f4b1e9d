//! Every framework error answers with the error body.

use crate::helpers::{default_app, error, TestApp};
use reqwest::Response;

#[tokio::test]
async fn unknown_route_and_wrong_method() {
    let app = default_app();
    let r = app.get_root("/nowhere").await;
    error(r, 404, "NOT_FOUND").await;
    let r = app.get("/nowhere").await;
    error(r, 404, "NOT_FOUND").await;
    let r = app.get("/echo").await;
    assert_eq!(r.headers()["allow"], "POST");
    error(r, 405, "METHOD_NOT_ALLOWED").await;
}

#[tokio::test]
async fn malformed_query_and_path_name_the_parameter() {
    let app = default_app();
    let r = app.get("/query?limit=ten").await;
    let body = error(r, 400, "VALIDATION_ERROR").await;
    assert!(
        body["userinfo"].as_str().unwrap().contains("limit"),
        "{body}"
    );
    let r = app.get("/query?limti=1").await;
    let body = error(r, 400, "VALIDATION_ERROR").await;
    assert!(
        body["userinfo"].as_str().unwrap().contains("limti"),
        "{body}"
    );
    let r = app.get("/items/abc").await;
    let body = error(r, 400, "VALIDATION_ERROR").await;
    assert!(body["userinfo"].as_str().unwrap().contains("id"), "{body}");
    let ok: serde_json::Value = app.get("/items/7").await.json().await.unwrap();
    assert_eq!(ok["id"], 7);
}

/// A body `/echo` accepts.
const SAMPLE: &str = r#"{"name":"a","count":1}"#;

/// POST `body` to `path` under the base path, with `content_type` when given.
async fn post(app: &TestApp, path: &str, content_type: Option<&str>, body: &str) -> Response {
    let mut req = app
        .client
        .post(format!("{}{path}", app.base))
        .body(body.to_owned());
    if let Some(content_type) = content_type {
        req = req.header("content-type", content_type);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn json_bodies() {
    let app = default_app();
    let json = Some("application/json");
    let r = post(&app, "/echo", json, SAMPLE).await;
    assert_eq!(r.status(), 200);
    let r = post(&app, "/echo", json, r#"{"name":"a","count":"#).await;
    error(r, 400, "INVALID_JSON").await;
    let r = post(&app, "/echo", json, r#"{"name":"a","count":-1}"#).await;
    let body = error(r, 400, "VALIDATION_ERROR").await;
    assert!(
        body["userinfo"].as_str().unwrap().contains("count"),
        "{body}"
    );
    let r = post(
        &app,
        "/echo",
        json,
        r#"{"name":"a","count":1,"extra":true}"#,
    )
    .await;
    let body = error(r, 400, "VALIDATION_ERROR").await;
    assert!(
        body["userinfo"].as_str().unwrap().contains("extra"),
        "{body}"
    );
    let r = post(&app, "/echo", None, SAMPLE).await;
    error(r, 415, "UNSUPPORTED_MEDIA_TYPE").await;
    let r = post(&app, "/echo", Some("text/plain"), SAMPLE).await;
    error(r, 415, "UNSUPPORTED_MEDIA_TYPE").await;
    let r = post(&app, "/echo", Some("application/merge-patch+json"), SAMPLE).await;
    assert_eq!(r.status(), 200, "+json types are JSON");
}

#[tokio::test]
async fn body_limits_differ_per_route() {
    let app = default_app();
    let post = |path: &str, name_len: usize| {
        let body = format!(r#"{{"name":"{}","count":1}}"#, "x".repeat(name_len));
        let len = body.len();
        let request = app
            .client
            .post(format!("{}{path}", app.base))
            .header("content-type", "application/json")
            .body(body)
            .send();
        (len, request)
    };
    // `/small` registers a 32-byte limit: exactly 32 passes, 33 is refused.
    let (len, r) = post("/small", 11);
    assert_eq!(len, 32);
    assert_eq!(r.await.unwrap().status(), 200);
    let (len, r) = post("/small", 12);
    assert_eq!(len, 33);
    error(r.await.unwrap(), 413, "PAYLOAD_TOO_LARGE").await;
    // Elsewhere the application-wide limit (16 KiB) holds, at its edge too.
    let (len, r) = post("/echo", 16 * 1024 - 21);
    assert_eq!(len, 16 * 1024);
    assert_eq!(r.await.unwrap().status(), 200);
    let (_, r) = post("/echo", 16 * 1024 - 20);
    error(r.await.unwrap(), 413, "PAYLOAD_TOO_LARGE").await;
}

#[tokio::test]
async fn time_out_and_panic() {
    let app = default_app();
    let r = app.get("/never").await;
    assert!(r.headers().contains_key("x-request-id"));
    error(r, 408, "REQUEST_TIMEOUT").await;
    let r = app.get("/boom").await;
    let body = error(r, 500, "INTERNAL_ERROR").await;
    assert!(
        !body.to_string().contains("hunter2"),
        "no internals: {body}"
    );
    // The worker survives the panic.
    let r = app.get("/items/1").await;
    assert_eq!(r.status(), 200);
}

/// An error answer marked `OwnErrorBody` (a facade speaking another standard's errors) reaches
/// the client as it was made; one without the mark is the error body.
#[tokio::test]
async fn an_error_with_its_own_body_keeps_it() {
    let app = default_app();
    let r = app.get("/own-error").await;
    assert_eq!(r.status(), 404);
    assert_eq!(r.headers()["content-type"], "text/xml; charset=utf-8");
    assert!(r.headers().contains_key("x-request-id"));
    assert_eq!(
        r.text().await.unwrap(),
        "<errors><error><code>404</code></error></errors>"
    );
}
