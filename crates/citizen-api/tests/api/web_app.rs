//! The citizens' web app at `/` (docs/web-app.md): the page with its CSP, `no-cache` and an
//! `ETag` answering `304`; every asset it references at a hashed name, cached immutably with
//! its content type; an unknown or stale asset name 404 with the error body; `web.enabled =
//! false` serves nothing; the API and the ops routes are untouched. Static serving does not
//! depend on the backend: SQLite only.

use reqwest::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG};
use test_support::http::{header, send_if_none_match};
use test_support::Backend;

use crate::helpers::{spawn_app, spawn_on, TestApp};

async fn app() -> TestApp {
    spawn_app(Backend::Sqlite)
        .await
        .expect("SQLite is always available")
}

async fn page(app: &TestApp, path: &str) -> (reqwest::Response, String) {
    let response = app.get_url(&format!("{}{path}", app.root)).await;
    let copy = (response.status(), response.headers().clone());
    let body = response.text().await.unwrap();
    let again = app.get_url(&format!("{}{path}", app.root)).await;
    assert_eq!(again.status(), copy.0);
    (again, body)
}

/// The `/assets/...` paths the page references (`href` and `src`).
fn referenced_assets(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["href=\"", "src=\"", "content=\""] {
        for (at, _) in html.match_indices(attribute) {
            let rest = &html[at + attribute.len()..];
            let value = &rest[..rest.find('"').unwrap()];
            if value.starts_with("/assets/") {
                found.push(value.to_owned());
            }
        }
    }
    found
}

#[tokio::test]
async fn the_page_carries_its_policy_tag_and_short_cache() {
    let app = app().await;
    for path in [
        "/",
        "/reports/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11",
        "/news",
        "/news/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11",
        "/projects",
        "/projects/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11",
        "/notifications",
        "/account",
    ] {
        let (response, body) = page(&app, path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            header(&response, CONTENT_TYPE).as_deref(),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(
            header(&response, CACHE_CONTROL).as_deref(),
            Some("no-cache")
        );
        let csp = header(&response, CONTENT_SECURITY_POLICY).expect("a CSP");
        assert!(csp.contains("default-src 'self'"), "{csp}");
        assert!(csp.contains("script-src 'self';"), "{csp}");
        // Photos may live at the media store's origin (`media.public_base_url`); no CAPTCHA
        // without a site key, so no frame at all.
        assert!(
            csp.contains("img-src 'self' http://localhost:8080;"),
            "{csp}"
        );
        assert!(csp.contains("frame-src 'none';"), "{csp}");
        assert!(
            !csp.contains("unsafe-inline") && !csp.contains('*'),
            "{csp}"
        );
        assert!(
            csp.contains("connect-src 'self' http://localhost:8082 http://localhost:8081;"),
            "the other services' and the broker's WebSocket origins from the settings: {csp}"
        );
        assert!(header(&response, ETAG).is_some_and(|tag| tag.starts_with('"')));
        assert!(body.contains("<main"), "{body}");
        assert!(!body.contains("{{"), "the template is filled in: {body}");
        assert!(
            body.contains(r#"<meta name="app:api-base" content="/api/v1">"#),
            "{body}"
        );
        assert!(!body.contains("<script>"), "no inline script: {body}");
    }
}

#[tokio::test]
async fn a_matching_tag_answers_304() {
    let app = app().await;
    let (response, _) = page(&app, "/").await;
    let tag = header(&response, ETAG).unwrap();
    let url = format!("{}/", app.root);
    let again = send_if_none_match(app.http.get(&url), Some(&tag)).await;
    assert_eq!(again.status(), 304);
    assert_eq!(header(&again, ETAG), Some(tag));
    assert!(again.bytes().await.unwrap().is_empty());
    let other = send_if_none_match(app.http.get(&url), Some("\"other\"")).await;
    assert_eq!(other.status(), 200);
}

#[tokio::test]
async fn every_referenced_asset_is_served_immutably_with_its_type() {
    let app = app().await;
    let (_, body) = page(&app, "/").await;
    let assets = referenced_assets(&body);
    let expected = [
        ("/assets/app.", ".js", "text/javascript; charset=utf-8"),
        ("/assets/app.", ".css", "text/css; charset=utf-8"),
        ("/assets/texts.", ".json", "application/json"),
        (
            "/assets/vendor/leaflet/leaflet.",
            ".js",
            "text/javascript; charset=utf-8",
        ),
        (
            "/assets/vendor/leaflet/leaflet.",
            ".css",
            "text/css; charset=utf-8",
        ),
        (
            "/assets/THIRD-PARTY-NOTICES.",
            ".txt",
            "text/plain; charset=utf-8",
        ),
    ];
    for (prefix, suffix, content_type) in expected {
        let path = assets
            .iter()
            .find(|a| a.starts_with(prefix) && a.ends_with(suffix))
            .unwrap_or_else(|| panic!("{prefix}*{suffix} not referenced: {assets:?}"));
        let hash = &path[prefix.len()..path.len() - suffix.len()];
        assert!(
            hash.len() == 10 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "{path}"
        );
        let response = app.get_url(&format!("{}{path}", app.root)).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            header(&response, CACHE_CONTROL).as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
        assert_eq!(
            header(&response, CONTENT_TYPE).as_deref(),
            Some(content_type),
            "{path}"
        );
        assert!(!response.bytes().await.unwrap().is_empty(), "{path}");
    }
    // The notices name Leaflet with its licence, served beside it.
    let notices = assets.iter().find(|a| a.contains("THIRD-PARTY")).unwrap();
    let text = app.get_url(&format!("{}{notices}", app.root)).await;
    let text = text.text().await.unwrap();
    assert!(
        text.contains("Leaflet 1.9.4") && text.contains("BSD 2-Clause License"),
        "{text}"
    );
}

#[tokio::test]
async fn a_stale_or_unknown_asset_is_404_with_the_error_body() {
    let app = app().await;
    let (_, body) = page(&app, "/").await;
    let script = referenced_assets(&body)
        .into_iter()
        .find(|a| a.starts_with("/assets/app.") && a.ends_with(".js"))
        .unwrap();
    let stale = format!(
        "{}0000000000.js",
        &script[..script.len() - "0000000000.js".len()]
    );
    assert_ne!(stale, script);
    for path in [
        stale.as_str(),
        "/assets/app.js",
        "/assets/nope.0123456789.css",
        "/assets/index.html",
        "/assets/../Cargo.toml",
    ] {
        let response = app.get_url(&format!("{}{path}", app.root)).await;
        assert_eq!(response.status(), 404, "{path}");
        let error: serde_json::Value = response.json().await.unwrap();
        assert_eq!(error["statusCode"], 404, "{path}: {error}");
        assert!(
            error["name"].is_string() && error["userinfo"].is_string(),
            "{error}"
        );
    }
}

#[tokio::test]
async fn the_api_and_the_ops_routes_are_untouched() {
    let app = app().await;
    let (status, list) = app.get("/reports?limit=20").await;
    assert_eq!(status, 200, "{list}");
    assert!(list["reports"].is_array());
    // The API's own answers under its base path, not the page (which has a route of this shape).
    for path in [
        "/reports/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11",
        "/nope",
        "/",
    ] {
        let response = app.get_response(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(
            header(&response, CONTENT_SECURITY_POLICY).is_none(),
            "{path}"
        );
        let error: serde_json::Value = response.json().await.unwrap();
        assert_eq!(error["statusCode"], 404, "{path}: {error}");
    }
    for path in ["/healthz", "/readyz", "/metrics"] {
        let response = app.get_url(&format!("{}{path}", app.root)).await;
        assert_eq!(response.status(), 200, "{path}");
        assert!(
            header(&response, CONTENT_SECURITY_POLICY).is_none(),
            "{path}"
        );
    }
}

#[tokio::test]
async fn off_the_app_is_not_served() {
    let db = app().await.db;
    let app = spawn_on(db, |s| s.web.enabled = false).await;
    for path in ["/", "/reports/0b7a3c8e-8d5b-4a43-9e5c-3a3c2f0e4b11"] {
        let response = app.get_url(&format!("{}{path}", app.root)).await;
        assert_eq!(response.status(), 404, "{path}");
        let error: serde_json::Value = response.json().await.unwrap();
        assert_eq!(error["statusCode"], 404);
    }
    let (status, _) = app.get("/reports").await;
    assert_eq!(status, 200);
}

/// The `content` of `<meta name="{name}" …>` in `html`.
fn meta(html: &str, name: &str) -> String {
    let tag = format!("<meta name=\"{name}\" content=\"");
    let at = html
        .find(&tag)
        .unwrap_or_else(|| panic!("no {name} in {html}"));
    let rest = &html[at + tag.len()..];
    rest[..rest.find('"').unwrap()].to_owned()
}

#[tokio::test]
async fn the_page_is_told_the_web_settings_in_meta_elements() {
    let app = app().await;
    let (_, body) = page(&app, "/").await;
    for (name, value) in [
        ("app:mqtt-url", ""),
        ("app:client-id", "citizen-web"),
        ("app:oidc-issuer", ""),
        ("app:oidc-client-id", ""),
        ("app:captcha-site-key", ""),
        // The embedded default with auth.dev_secret set (the test settings): available.
        ("app:dev-sign-in", "on"),
        // No http.public_url: the page takes its own origin.
        ("app:public-url", ""),
    ] {
        assert_eq!(meta(&body, name), value, "{name}");
    }
}

#[tokio::test]
async fn configured_the_meta_elements_and_the_policy_follow_the_settings() {
    let db = app().await.db;
    let app = spawn_on(db, |s| {
        s.web.mqtt_websocket_url = "wss://city.example/mqtt".into();
        s.web.client_id = "city-web.prod".into();
        s.web.oidc_issuer = "https://login.city.example/realms/city".into();
        s.web.oidc_client_id = "citizen-web".into();
        s.web.captcha_site_key = "6Lc-site\"key".into();
        s.web.streets_api_url = "https://city.example/api/v1".into();
        s.web.platform_messages_url = "https://city.example/api/v1".into();
        s.web.dev_sign_in = false;
        s.http.public_url = "https://city.example/api/v1".into();
        s.media.public_base_url = "https://media.city.example/photos".into();
    })
    .await;
    let (response, body) = page(&app, "/").await;
    for (name, value) in [
        ("app:mqtt-url", "wss://city.example/mqtt"),
        ("app:client-id", "city-web.prod"),
        ("app:oidc-issuer", "https://login.city.example/realms/city"),
        ("app:oidc-client-id", "citizen-web"),
        ("app:captcha-site-key", "6Lc-site&quot;key"),
        ("app:dev-sign-in", ""),
        ("app:public-url", "https://city.example"),
        (
            "app:captcha-script",
            "https://www.google.com/recaptcha/api.js",
        ),
        ("app:media-origin", "https://media.city.example"),
    ] {
        assert_eq!(meta(&body, name), value, "{name}");
    }
    let csp = header(&response, CONTENT_SECURITY_POLICY).unwrap();
    assert!(
        csp.contains(
            "connect-src 'self' https://city.example wss://city.example \
             https://login.city.example https://www.google.com https://www.gstatic.com;"
        ),
        "each origin once, nothing else: {csp}"
    );
    // The CAPTCHA's script and frame, with a site key only.
    let captcha = "https://www.google.com https://www.gstatic.com";
    assert!(
        csp.contains(&format!("script-src 'self' {captcha};")),
        "{csp}"
    );
    assert!(csp.contains(&format!("frame-src {captcha};")), "{csp}");
    assert!(
        csp.contains("img-src 'self' https://media.city.example;"),
        "{csp}"
    );
}

#[tokio::test]
async fn without_the_dev_secret_dev_sign_in_is_not_offered() {
    let db = app().await.db;
    let app = spawn_on(db, |s| s.auth.dev_secret = None).await;
    let (_, body) = page(&app, "/").await;
    assert_eq!(meta(&body, "app:dev-sign-in"), "");
}

async fn sign_in(app: &TestApp, body: &str) -> (u16, serde_json::Value) {
    let response = app
        .http
        .post(format!("{}/dev/sign-in", app.root))
        .header("Content-Type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn dev_sign_in_mints_a_token_the_api_accepts() {
    let app = app().await;
    let (status, token) = sign_in(&app, r#"{"sub": "citizen-1"}"#).await;
    assert_eq!(status, 200, "{token}");
    assert_eq!(token["token_type"], "Bearer");
    assert_eq!(token["expires_in"], 8 * 3600);
    let bearer = token["access_token"].as_str().unwrap();
    let mine = app
        .http
        .get(format!("{}/me/reports", app.base))
        .bearer_auth(bearer)
        .send()
        .await
        .unwrap();
    assert_eq!(mine.status(), 200);
    let without = app.get_response("/me/reports").await;
    assert_eq!(without.status(), 401, "the token is what signs in");

    let (status, token) = sign_in(
        &app,
        r#"{"sub": "officer-1", "scopes": ["cityuser:reports:read"], "email": "a@city.example", "locale": "uk"}"#,
    )
    .await;
    assert_eq!(status, 200, "{token}");
}

#[tokio::test]
async fn dev_sign_in_refuses_bad_input_with_the_error_body() {
    let app = app().await;
    let long_sub = format!(r#"{{"sub": "{}"}}"#, "s".repeat(256));
    let edge_sub = format!(r#"{{"sub": "{}"}}"#, "s".repeat(255));
    assert_eq!(sign_in(&app, &edge_sub).await.0, 200, "255 characters pass");
    let many = format!(r#"{{"sub": "x", "scopes": [{}]}}"#, ["\"s\""; 33].join(","));
    let edge = format!(r#"{{"sub": "x", "scopes": [{}]}}"#, ["\"s\""; 32].join(","));
    assert_eq!(sign_in(&app, &edge).await.0, 200, "32 scopes pass");
    for body in [
        r#"{"sub": ""}"#,
        r#"{"sub": "   "}"#,
        long_sub.as_str(),
        r#"{"sub": "x", "scopes": ["two words"]}"#,
        r#"{"sub": "x", "scopes": [""]}"#,
        many.as_str(),
        r#"{"sub": "x", "email": "nope"}"#,
        r#"{"sub": "x", "locale": "de"}"#,
        r#"{"sub": "x", "roles": ["admin"]}"#,
        r#"{"scopes": []}"#,
        r#"{"sub": 5}"#,
        "not json",
    ] {
        let (status, error) = sign_in(&app, body).await;
        assert_eq!(status, 400, "{body}: {error}");
        assert_eq!(error["statusCode"], 400, "{body}: {error}");
        assert!(
            error["name"].is_string() && error["userinfo"].is_string(),
            "{error}"
        );
    }
    let response = app
        .http
        .post(format!("{}/dev/sign-in", app.root))
        .body(r#"{"sub": "x"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415, "JSON only");
}

#[tokio::test]
async fn dev_sign_in_is_a_404_unless_on_with_a_dev_secret() {
    let db = app().await.db;
    for off in [
        spawn_on(db.clone(), |s| s.web.dev_sign_in = false).await,
        spawn_on(db.clone(), |s| s.auth.dev_secret = None).await,
    ] {
        let (status, error) = sign_in(&off, r#"{"sub": "x"}"#).await;
        assert_eq!(status, 404, "{error}");
        assert_eq!(error["statusCode"], 404);
        assert!(error["userinfo"].is_string(), "{error}");
    }
}

/// The service worker (web push) at `/sw.js`: its own unhashed name (a worker's scope is its
/// script's folder and its URL must stay), `no-cache`, JavaScript; not among the assets.
#[tokio::test]
async fn the_service_worker_is_served_at_the_root() {
    let app = app().await;
    let response = app.get_url(&format!("{}/sw.js", app.root)).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        header(&response, CONTENT_TYPE).as_deref(),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(
        header(&response, CACHE_CONTROL).as_deref(),
        Some("no-cache")
    );
    let body = response.text().await.unwrap();
    assert!(
        body.contains("addEventListener(\"push\"") && body.contains("notificationclick"),
        "{body}"
    );
    let (_, page) = page(&app, "/").await;
    assert!(
        !referenced_assets(&page).iter().any(|a| a.contains("/sw.")),
        "{page}"
    );
}
