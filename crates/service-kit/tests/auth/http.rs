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

service_kit::scoped!(
    /// Holds `admin` or `root`.
    Admin, AdminRule: "admin", "root"
);

/// The scope is checked by the extractor, before the body is read.
async fn scoped(admin: Admin, body: Json<Value>) -> Json<Value> {
    Json(json!({ "sub": admin.0.subject, "body": body.0 }))
}

/// Serves the four routes under `/api/v1` on a free port; returns the base URL.
fn serve(auth: Authenticator) -> String {
    let api = Arc::new(move |cfg: &mut web::ServiceConfig| {
        cfg.app_data(web::Data::new("hello"))
            .route("/me", web::get().to(me))
            .route("/maybe", web::get().to(maybe))
            .route("/admin", web::get().to(admin))
            .route("/scoped", web::post().to(scoped));
    });
    let mut parts = AppParts::new("auth-test", api, utoipa::openapi::OpenApi::default()).unwrap();
    parts.authenticator = Some(auth);
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

/// POST `url` with `body` as `content_type`, and the bearer `token` when given.
async fn post(url: &str, token: Option<&str>, content_type: &str, body: &str) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", content_type)
        .body(body.to_owned());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn scoped_callers_are_checked_before_the_body_is_read() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let base = serve(Authenticator::new(&settings(&server)).unwrap());
    let url = format!("{base}/scoped");
    let citizen = rs256(&claims());
    let root = rs256(&with(claims(), "scope", json!("other root")));
    for (content_type, body) in [("text/plain", "hi"), ("application/json", "{\"a\":")] {
        // No token: 401 with the challenge, whatever the body.
        let response = post(&url, None, content_type, body).await;
        assert_eq!(
            response.headers().get("www-authenticate").unwrap(),
            "Bearer"
        );
        assert_eq!(error_body(response, 401).await.name, "UNAUTHORIZED");
        // Neither scope: 403 naming both, never a word about the body.
        let forbidden = error_body(post(&url, Some(&citizen), content_type, body).await, 403).await;
        assert_eq!(forbidden.name, "FORBIDDEN");
        assert!(
            forbidden.userinfo.contains("admin or root"),
            "{}",
            forbidden.userinfo
        );
    }
    // With one of them, the body is read and judged.
    let response = post(&url, Some(&root), "text/plain", "hi").await;
    assert_eq!(
        error_body(response, 415).await.name,
        "UNSUPPORTED_MEDIA_TYPE"
    );
    let response = post(&url, Some(&root), "application/json", "{\"a\":1}").await;
    assert_eq!(response.status().as_u16(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer, json!({"sub": "citizen-42", "body": {"a": 1}}));
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

#[tokio::test]
async fn tokens_the_rfcs_refuse_are_401_over_http() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let jwks = serve(Authenticator::new(&settings(&server)).unwrap());
    let dev_settings = AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        ..AuthSettings::default()
    };
    let dev = serve(Authenticator::new(&dev_settings).unwrap());
    let http = reqwest::Client::new();
    let two_issuers = with(claims(), "iss", json!(["https://evil.example/", ISSUER]));
    let critical = |alg, key: &str| {
        let mut header = jsonwebtoken::Header::new(alg);
        header.kid = Some("rsa-1".into());
        header.crit = Some(vec!["acc-ext".into()]);
        jsonwebtoken::encode(&header, &claims(), &encoding_key(alg, key)).unwrap()
    };
    use jsonwebtoken::Algorithm::{HS256, RS256};
    for (base, token, userinfo) in [
        (&jwks, rs256(&two_issuers), "token claim `iss` is malformed"),
        (
            &dev,
            sign(HS256, "local-dev-secret", None, &two_issuers),
            "token claim `iss` is malformed",
        ),
        (
            &jwks,
            critical(RS256, RSA1_KEY),
            "token requires extensions (crit) that are not understood",
        ),
        (
            &dev,
            critical(HS256, "local-dev-secret"),
            "token requires extensions (crit) that are not understood",
        ),
    ] {
        let response = get(&http, &format!("{base}/me"), Some(&bearer(&token))).await;
        assert_eq!(
            response.headers().get("www-authenticate").unwrap(),
            "Bearer"
        );
        let body = error_body(response, 401).await;
        assert_eq!(body.name, "UNAUTHORIZED");
        assert_eq!(body.userinfo, userinfo);
    }
}
