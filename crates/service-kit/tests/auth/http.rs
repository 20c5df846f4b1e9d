//! The `Auth` and `MaybeAuth` extractors over real HTTP, through the whole shared stack.

use crate::helpers::*;
use actix_web::web;
use serde_json::{json, Value};
use service_kit::auth::{mint_dev_token, Auth, AuthSettings, Authenticator, MaybeAuth};
use service_kit::extract::Json;
use service_kit::http::AppParts;
use service_kit::settings::HttpSettings;
use service_kit::startup::HttpApp;
use service_kit::{ApiError, ErrorBody};
use std::sync::Arc;

async fn me(Auth(principal): Auth) -> Json<Value> {
    Json(json!({ "sub": principal.subject }))
}

async fn maybe(MaybeAuth(principal): MaybeAuth) -> String {
    principal.map_or_else(|| "anonymous".to_owned(), |p| p.subject)
}

async fn admin(
    greeting: web::Data<&'static str>,
    Auth(principal): Auth,
) -> Result<String, ApiError> {
    principal.require_scope("admin")?;
    Ok(format!("{} {}", greeting.get_ref(), principal.subject))
}

/// Serves the three routes under `/api/v1` on a free port; returns the base URL.
fn serve(auth: Authenticator) -> String {
    let api = Arc::new(move |cfg: &mut web::ServiceConfig| {
        cfg.app_data(auth.clone())
            .app_data(web::Data::new("hello"))
            .route("/me", web::get().to(me))
            .route("/maybe", web::get().to(maybe))
            .route("/admin", web::get().to(admin));
    });
    let parts = AppParts::new("auth-test", api, utoipa::openapi::OpenApi::default()).unwrap();
    let app = HttpApp::bind(parts, &HttpSettings::default()).unwrap();
    let base = format!("http://127.0.0.1:{}/api/v1", app.port());
    tokio::spawn(app.run_until(std::future::pending()));
    base
}

async fn error_body(response: reqwest::Response, status: u16) -> ErrorBody {
    assert_eq!(response.status().as_u16(), status);
    let raw: Value = response.json().await.unwrap();
    for key in ["statusCode", "name", "userinfo"] {
        assert!(raw.get(key).is_some(), "{key} missing in {raw}");
    }
    serde_json::from_value(raw).unwrap()
}

/// GET `url`, with the header `Authorization: {authorization}` when given.
async fn get(http: &reqwest::Client, url: &str, authorization: Option<&str>) -> reqwest::Response {
    let mut request = http.get(url);
    if let Some(authorization) = authorization {
        request = request.header("authorization", authorization);
    }
    request.send().await.unwrap()
}

/// The `Authorization` value of a bearer token.
fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

#[tokio::test]
async fn extractors_over_http() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let base = serve(Authenticator::new(&settings(&server)).unwrap());
    let http = reqwest::Client::new();
    let token = rs256(&claims());
    let admin_token = rs256(&with(claims(), "scope", json!("admin")));
    let expired = rs256(&with(claims(), "exp", json!(now() - 3600)));

    let me_url = format!("{base}/me");
    let maybe_url = format!("{base}/maybe");
    let admin_url = format!("{base}/admin");

    // Auth: no header.
    let response = get(&http, &me_url, None).await;
    assert_eq!(
        response.headers().get("www-authenticate").unwrap(),
        "Bearer"
    );
    let body = error_body(response, 401).await;
    assert_eq!(body.status_code, 401);
    assert_eq!(body.name, "UNAUTHORIZED");
    assert_eq!(body.userinfo, "missing bearer token");

    // Auth: wrong scheme.
    let response = get(&http, &me_url, Some("Basic dXNlcjpwYXNz")).await;
    let body = error_body(response, 401).await;
    assert_eq!(body.name, "UNAUTHORIZED");
    assert!(body.userinfo.contains("Bearer"), "{}", body.userinfo);

    // Auth: expired; the token is never echoed.
    let response = get(&http, &me_url, Some(&bearer(&expired))).await;
    let body = error_body(response, 401).await;
    assert_eq!(body.userinfo, "token expired");

    // Auth: tampered signature.
    let response = get(&http, &me_url, Some(&bearer(&format!("{token}x")))).await;
    let body = error_body(response, 401).await;
    assert_eq!(body.name, "UNAUTHORIZED");
    assert!(!body.userinfo.contains(&token[..20]));

    // Auth: valid (scheme is case-insensitive).
    let response = get(&http, &me_url, Some(&format!("bearer {token}"))).await;
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({"sub": "citizen-42"}));

    // MaybeAuth: anonymous, valid, invalid.
    let response = get(&http, &maybe_url, None).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.text().await.unwrap(), "anonymous");
    let response = get(&http, &maybe_url, Some(&bearer(&token))).await;
    assert_eq!(response.text().await.unwrap(), "citizen-42");
    let response = get(&http, &maybe_url, Some(&bearer(&expired))).await;
    assert_eq!(error_body(response, 401).await.userinfo, "token expired");
    let response = get(&http, &maybe_url, Some("Basic dXNlcjpwYXNz")).await;
    assert_eq!(error_body(response, 401).await.name, "UNAUTHORIZED");

    // require_scope: 403 FORBIDDEN without the scope, 200 with it.
    let response = get(&http, &admin_url, Some(&bearer(&token))).await;
    assert!(response.headers().get("www-authenticate").is_none());
    let body = error_body(response, 403).await;
    assert_eq!(body.status_code, 403);
    assert_eq!(body.name, "FORBIDDEN");
    assert!(body.userinfo.contains("admin"), "{}", body.userinfo);
    let response = get(&http, &admin_url, Some(&bearer(&admin_token))).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.text().await.unwrap(), "hello citizen-42");
}

#[tokio::test]
async fn dev_tokens_work_over_http() {
    let settings = AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        ..AuthSettings::default()
    };
    let base = serve(Authenticator::new(&settings).unwrap());
    let token = mint_dev_token(&settings, &dev_request()).unwrap();
    let url = format!("{base}/me");
    let response = get(&reqwest::Client::new(), &url, Some(&bearer(&token))).await;
    assert_eq!(response.status().as_u16(), 200);
}
