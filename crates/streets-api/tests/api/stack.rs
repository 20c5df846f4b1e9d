//! The shared HTTP stack as streets-api serves it: error bodies for framework errors, request
//! ids, health, metrics, CORS, docs, graceful shutdown.

use crate::helpers::{assert_error, spawn_app, Backend};
use serde_json::Value;

#[tokio::test]
async fn framework_errors_use_the_error_body() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let r = app.get_root("/nowhere").await;
    assert_eq!(r.headers()["content-type"], "application/json");
    let (s, b) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert_error(s, &b, 404, "NOT_FOUND");

    let r = app.client.delete(app.url("/streets")).send().await.unwrap();
    assert!(r.headers().contains_key("allow"));
    let (s, b) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert_error(s, &b, 405, "METHOD_NOT_ALLOWED");

    let r = app
        .client
        .get(app.url("/streets?limit=%ZZ"))
        .send()
        .await
        .unwrap();
    let (s, b) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert_eq!(s, 400, "{b}");
    assert_eq!(b["statusCode"], 400);

    let big = "x".repeat(64 * 1024);
    let r = app
        .client
        .post(app.url("/streets"))
        .body(big)
        .send()
        .await
        .unwrap();
    let (s, b) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert!(s == 405 || s == 413, "{s} {b}");
    assert_eq!(b["statusCode"], s);
}

#[tokio::test]
async fn request_id_is_returned_or_created() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let r = app
        .client
        .get(app.url("/streets"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "abc-123");
    let r = app.client.get(app.url("/streets")).send().await.unwrap();
    let created = r.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(created.len(), 36, "a UUID: {created}");
}

#[tokio::test]
async fn health_readiness_and_metrics() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let r = app.get_root("/healthz").await;
    assert_eq!(r.status(), 200);
    let r = app.get_root("/readyz").await;
    assert_eq!(r.status(), 200);
    app.get("/streets?limit=5").await;
    app.get("/streets/12345").await;
    let text = app.metrics().await;
    assert!(text.contains(r#"http_requests_total{method="GET",route="/api/v1/streets",status="200",service="streets-api"} 1"#), "{text}");
    assert!(
        text.contains(r#"route="/api/v1/streets/{street_id}",status="404",service="streets-api""#),
        "{text}"
    );
    assert!(
        text.contains("http_request_duration_seconds_bucket"),
        "{text}"
    );
    assert!(text.contains("db_pool_connections"), "{text}");
}

#[tokio::test]
async fn readiness_fails_when_the_database_is_unreachable() {
    // PostgreSQL pools connect lazily, so the service starts and /readyz tells the truth.
    let dir = tempfile::tempdir().unwrap();
    let mut settings = crate::helpers::test_settings("postgres://nobody@127.0.0.1:9/nowhere");
    settings.database.migrate_on_start = false;
    settings.database.acquire_timeout_seconds = 1;
    let app = crate::helpers::spawn_with(settings, dir).await;
    let r = app.get_root("/healthz").await;
    assert_eq!(r.status(), 200, "the process is alive");
    let r = app.get_root("/readyz").await;
    let (s, b) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert_error(s, &b, 503, "SERVICE_UNAVAILABLE");
    // The database is named first. The streets model's first build fails on the same 1 s
    // acquire timeout, so whether it has ended yet when /readyz answers is a race: it may be named
    // too, and nothing else may.
    let info = b["userinfo"].as_str().unwrap();
    assert!(
        ["not ready: database", "not ready: database, streets"].contains(&info),
        "{info}"
    );
    let (s, b) = app.get("/streets/1").await;
    assert_error(s, &b, 503, "SERVICE_UNAVAILABLE");
    assert!(
        !b.to_string().contains("127.0.0.1"),
        "no internals in the body: {b}"
    );
}

#[tokio::test]
async fn cors_allows_any_origin_for_public_data() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let r = app
        .client
        .get(app.url("/streets"))
        .header("origin", "https://mapa.mesto.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
}

#[tokio::test]
async fn docs_page_and_openapi_description() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let page = app.client.get(app.url("/docs/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("swagger"), "{html}");
    assert!(
        !html.contains("https://"),
        "the page loads nothing from the internet"
    );

    let (status, api) = app.get("/docs/openapi.json").await;
    assert_eq!(status, 200);
    assert_eq!(api["openapi"], "3.1.0");
    assert_eq!(api["servers"][0]["url"], "/api/v1");
    let list = &api["paths"]["/streets"]["get"];
    let params: Vec<&str> = list["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        params,
        ["limit", "offset", "q", "longitude", "latitude", "radius"]
    );
    let limit = &list["parameters"][0]["schema"];
    assert_eq!(
        (limit["minimum"].as_i64(), limit["maximum"].as_i64()),
        (Some(1), Some(100))
    );
    assert!(api["info"]["description"]
        .as_str()
        .unwrap()
        .contains("STREET_NOT_FOUND"));
    assert_every_ref_resolves(&api, &api);
}

fn assert_every_ref_resolves(node: &Value, root: &Value) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                let pointer = r.strip_prefix('#').expect("local ref");
                assert!(root.pointer(pointer).is_some(), "dangling $ref {r}");
            }
            map.values()
                .for_each(|v| assert_every_ref_resolves(v, root));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| assert_every_ref_resolves(v, root)),
        _ => {}
    }
}

#[tokio::test]
async fn shutdown_stops_the_server() {
    let mut app = spawn_app(Backend::Sqlite).await.unwrap();
    app.get("/streets").await;
    app.shutdown.take().unwrap().send(()).unwrap();
    let result = tokio::time::timeout(std::time::Duration::from_secs(10), &mut app.server).await;
    assert!(
        matches!(result, Ok(Ok(Ok(())))),
        "server ends cleanly after the signal"
    );
    assert!(
        app.client.get(app.url("/streets")).send().await.is_err(),
        "no longer accepting"
    );
}
