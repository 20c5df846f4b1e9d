//! Request ids, health, metrics, docs and CORS.

use crate::helpers::{error, spawn};
use serde_json::Value;

#[tokio::test]
async fn request_id_is_kept_or_created_even_on_errors() {
    let app = spawn(|_, _| {});
    let r = app.get_with("/nowhere", "x-request-id", "abc-123").await;
    assert_eq!(r.headers()["x-request-id"], "abc-123");
    let r = app.get("/items/1").await;
    assert_eq!(r.headers()["x-request-id"].len(), 36);
    let r = app.get_with("/items/1", "x-request-id", "has space").await;
    assert_eq!(
        r.headers()["x-request-id"].len(),
        36,
        "unusable ids are replaced"
    );
}

#[tokio::test]
async fn metrics_count_by_route_pattern_and_status() {
    let app = spawn(|_, _| {});
    for path in ["/items/1", "/items/2", "/items/x", "/nowhere"] {
        app.get(path).await;
    }
    app.get("/never").await;
    let text = test_support::http::metrics_text(&app.client, &app.root).await;
    for line in [
        r#"http_requests_total{method="GET",route="/api/v1/items/{id}",status="200",service="stack-test"} 2"#,
        r#"http_requests_total{method="GET",route="/api/v1/items/{id}",status="400",service="stack-test"} 1"#,
        r#"http_requests_total{method="GET",route="unmatched",status="404",service="stack-test"} 1"#,
        r#"http_requests_total{method="GET",route="/api/v1/never",status="408",service="stack-test"} 1"#,
    ] {
        assert!(text.contains(line), "{line} missing in\n{text}");
    }
    let r = app.get_root("/healthz").await;
    assert_eq!(r.status(), 200);
    let r = app.get_root("/readyz").await;
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn docs_answer_html_or_json_at_docs_itself() {
    let app = spawn(|_, _| {});
    let r = app.get("/docs").await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = r.text().await.unwrap();
    assert!(
        html.contains("swagger") && html.contains(r#"<base href="/api/v1/docs/">"#),
        "{html}"
    );
    assert!(!html.contains("https://"), "nothing from the internet");
    let r = app.get_with("/docs", "accept", "application/json").await;
    let api: Value = r.json().await.unwrap();
    assert_eq!(api["openapi"], "3.1.0");
    let r = app.get("/docs/openapi.json").await;
    assert_eq!(r.json::<Value>().await.unwrap(), api);
    let r = app.get("/docs/swagger-ui.css").await;
    assert_eq!(r.status(), 200, "the page's files are served");
    let r = app
        .client
        .post(format!("{}/docs", app.base))
        .send()
        .await
        .unwrap();
    error(r, 405, "METHOD_NOT_ALLOWED").await;
}

#[tokio::test]
async fn cors_for_listed_origins_only() {
    let app = spawn(|http, _| http.cors_allowed_origins = vec!["https://app.city.example".into()]);
    let r = app
        .get_with("/items/1", "origin", "https://app.city.example")
        .await;
    assert_eq!(
        r.headers()["access-control-allow-origin"],
        "https://app.city.example"
    );
    let r = app
        .get_with("/nowhere", "origin", "https://app.city.example")
        .await;
    assert!(
        r.headers().contains_key("access-control-allow-origin"),
        "errors keep CORS headers"
    );
    error(r, 404, "NOT_FOUND").await;
    let r = app
        .get_with("/items/1", "origin", "https://evil.example")
        .await;
    assert!(!r.headers().contains_key("access-control-allow-origin"));
}
