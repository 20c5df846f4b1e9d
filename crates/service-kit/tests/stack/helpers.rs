//! A small service with one route per behaviour, served through the whole stack on port 0.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};
use service_kit::extract::{BodyLimit, Json, Path, Query};
use service_kit::http::AppParts;
use service_kit::settings::HttpSettings;
use service_kit::startup::HttpApp;
use std::sync::Arc;
use utoipa::OpenApi;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    pub name: String,
    pub count: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub limit: Option<u32>,
}

async fn echo(Json(sample): Json<Sample>) -> Json<Value> {
    Json(json!({"name": sample.name, "count": sample.count}))
}

async fn query(Query(params): Query<Params>) -> Json<Value> {
    Json(json!({"limit": params.limit}))
}

async fn item(id: Path<u32>) -> Json<Value> {
    Json(json!({"id": id.into_inner()}))
}

async fn never() -> HttpResponse {
    // Never answers: the stack's time-out must.
    std::future::pending::<()>().await;
    HttpResponse::Ok().finish()
}

async fn own_error() -> HttpResponse {
    let mut response = HttpResponse::NotFound()
        .content_type("text/xml; charset=utf-8")
        .body("<errors><error><code>404</code></error></errors>");
    response
        .extensions_mut()
        .insert(service_kit::http::OwnErrorBody);
    response
}

async fn boom() -> HttpResponse {
    panic!("secret internals: password=hunter2");
}

#[derive(OpenApi)]
#[openapi(info(title = "stack-test", version = "1.0.0"))]
struct ApiDoc;

pub struct TestApp {
    pub base: String,
    pub root: String,
    pub client: reqwest::Client,
}

/// Serves the test routes with `http` (port 0 and 1 s time-out unless changed).
pub fn spawn(configure: impl FnOnce(&mut HttpSettings, &mut AppParts)) -> TestApp {
    test_support::init_test_log();
    let api = Arc::new(|cfg: &mut web::ServiceConfig| {
        cfg.service(web::resource("/echo").route(web::post().to(echo)))
            .service(
                web::resource("/small")
                    .app_data(BodyLimit(32))
                    .route(web::post().to(echo)),
            )
            .service(web::resource("/query").route(web::get().to(query)))
            .service(web::resource("/items/{id}").route(web::get().to(item)))
            .service(web::resource("/never").route(web::get().to(never)))
            .service(web::resource("/boom").route(web::get().to(boom)))
            .service(web::resource("/own-error").route(web::get().to(own_error)));
    });
    let openapi = service_kit::docs::finalize(ApiDoc::openapi(), "/api/v1", &[]);
    let mut parts = AppParts::new("stack-test", api, openapi).unwrap();
    let mut http = HttpSettings {
        request_timeout_seconds: 1,
        ..HttpSettings::default()
    };
    configure(&mut http, &mut parts);
    let app = HttpApp::bind(parts, &http).unwrap();
    let root = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until(std::future::pending()));
    TestApp {
        base: format!("{root}/api/v1"),
        root,
        client: reqwest::Client::new(),
    }
}

impl TestApp {
    /// GET a path under the base path.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.get_url(&format!("{}{path}", self.base)).await
    }

    /// GET a path under the root, outside the base path (`/healthz`).
    pub async fn get_root(&self, path: &str) -> reqwest::Response {
        self.get_url(&format!("{}{path}", self.root)).await
    }

    async fn get_url(&self, url: &str) -> reqwest::Response {
        self.client.get(url).send().await.unwrap()
    }

    /// GET a path under the base path with the header `name: value`.
    pub async fn get_with(&self, path: &str, name: &str, value: &str) -> reqwest::Response {
        let url = format!("{}{path}", self.base);
        test_support::http::get_with_header(&self.client, &url, name, value).await
    }
}

pub fn default_app() -> TestApp {
    spawn(|_, _| {})
}

/// Status and body of an error answer, after checking the body's shape.
pub async fn error(response: reqwest::Response, status: u16, name: &str) -> Value {
    assert_eq!(response.status().as_u16(), status);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["statusCode"], status, "{body}");
    assert_eq!(body["name"], name, "{body}");
    assert!(
        body["userinfo"].as_str().is_some_and(|s| !s.is_empty()),
        "{body}"
    );
    body
}
