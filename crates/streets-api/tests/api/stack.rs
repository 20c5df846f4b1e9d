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
    let r = app.get_with("/streets", "x-request-id", "abc-123").await;
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
        .get_with("/streets", "origin", "https://mapa.mesto.example")
        .await;
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

/// The OpenAPI 3.0 rendition the landing page's `service-desc` names (OGC API – Features,
/// OpenAPI 3.0 class): 3.0.3, with no 3.1 construct left, the same paths, operations,
/// parameters, responses and schemas as the 3.1 description, and the nullable, exclusive and
/// `$ref` schemas said the 3.0 way. openapi-spec-validator checks it too (clients.rs).
#[tokio::test]
async fn openapi_3_0_rendition_is_the_service_desc() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let (_, landing) = app.get("/").await;
    let desc = landing["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["rel"] == "service-desc")
        .unwrap_or_else(|| panic!("no service-desc in {landing}"));
    assert_eq!(desc["type"], "application/vnd.oai.openapi+json;version=3.0");
    assert_eq!(desc["href"], app.url("/docs/openapi-3.0.json"));
    let r = app
        .client
        .get(desc["href"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["content-type"],
        "application/vnd.oai.openapi+json;version=3.0"
    );
    let v30: Value = r.json().await.unwrap();
    let (_, v31) = app.get("/docs/openapi.json").await;

    assert_eq!(v31["openapi"], "3.1.0");
    assert_eq!(v30["openapi"], "3.0.3");
    let mut before = Vec::new();
    constructs_3_1(&v31, "", &mut before);
    for known in [
        "/components/schemas/Link/properties/title/type",
        "/components/schemas/Collection/properties/extent/oneOf/0/type",
        "/info/license/identifier",
    ] {
        assert!(before.iter().any(|f| f == known), "{known} in {before:?}");
    }
    assert!(
        before.iter().any(|f| f.ends_with("/exclusiveMinimum")),
        "{before:?}"
    );
    let mut after = Vec::new();
    constructs_3_1(&v30, "", &mut after);
    assert_eq!(after, Vec::<String>::new(), "3.1 constructs left");
    assert_every_ref_resolves(&v30, &v30);

    assert_eq!(outline(&v30), outline(&v31));
    let operations = outline(&v31)
        .into_iter()
        .filter(|o| o.starts_with("get /"))
        .count();
    assert!(operations >= 8, "the seed's 2 and the features API's 6");
    assert_eq!(
        v30["info"]["license"],
        serde_json::json!({"name": "EUPL-1.2"})
    );
    assert_eq!(v30["servers"], v31["servers"]);
    let schemas = &v30["components"]["schemas"];
    assert_eq!(
        schemas["Link"]["properties"]["title"],
        serde_json::json!({"type": "string", "nullable": true})
    );
    assert_eq!(
        schemas["Collection"]["properties"]["extent"],
        serde_json::json!({
            "allOf": [{"$ref": "#/components/schemas/Extent"}],
            "description": "Absent while there is no street.",
            "nullable": true
        })
    );
    let radius = v30["paths"]["/streets"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "radius")
        .unwrap();
    assert_eq!(radius["schema"]["minimum"].as_f64(), Some(0.0));
    assert_eq!(radius["schema"]["exclusiveMinimum"], true);
    assert_eq!(radius["schema"]["maximum"].as_f64(), Some(5000.0));
}

/// JSON pointers to what OpenAPI 3.1 has and 3.0 has not, found by key and value shape (not
/// by the converter's own rules). Example values are data and are not looked into.
fn constructs_3_1(node: &Value, at: &str, found: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            for (key, value) in map {
                let here = format!("{at}/{key}");
                let only_3_1 = match (key.as_str(), value) {
                    ("type", Value::Array(_)) => true,
                    ("type", Value::String(t)) => t == "null",
                    ("examples", Value::Array(_)) => true,
                    ("exclusiveMinimum" | "exclusiveMaximum", Value::Number(_)) => true,
                    ("items", Value::Bool(_)) => true,
                    ("identifier", _) => at == "/info/license",
                    ("summary", _) => at == "/info",
                    // 3.0 ignores what stands beside a $ref.
                    ("$ref", _) => map.len() > 1,
                    (
                        "const"
                        | "prefixItems"
                        | "$schema"
                        | "$id"
                        | "$defs"
                        | "$anchor"
                        | "$dynamicRef"
                        | "contentMediaType"
                        | "contentEncoding"
                        | "unevaluatedProperties"
                        | "unevaluatedItems"
                        | "patternProperties"
                        | "webhooks"
                        | "jsonSchemaDialect"
                        | "pathItems",
                        _,
                    ) => true,
                    _ => false,
                };
                if only_3_1 {
                    found.push(here.clone());
                }
                if key != "example" {
                    constructs_3_1(value, &here, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                constructs_3_1(item, &format!("{at}/{i}"), found);
            }
        }
        _ => {}
    }
}

/// Every path with its operations (id, parameter names, response codes), and every schema
/// name: what a rendition must keep.
fn outline(api: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (path, item) in api["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let params: Vec<&str> = op["parameters"]
                .as_array()
                .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
                .unwrap_or_default();
            let codes: Vec<&String> = op["responses"].as_object().unwrap().keys().collect();
            out.push(format!(
                "{method} {path} {} {params:?} {codes:?}",
                op["operationId"]
            ));
        }
    }
    for name in api["components"]["schemas"].as_object().unwrap().keys() {
        out.push(format!("schema {name}"));
    }
    out.sort();
    out
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
