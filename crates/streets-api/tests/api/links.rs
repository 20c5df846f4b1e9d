//! Absolute links (the features API's) start with `http.public_url`, else the listener's own
//! address, whatever `Forwarded` / `X-Forwarded-*` a client sends: the answers are public and
//! cacheable, so a client's header must not choose the links everyone is handed. Only with
//! `http.trust_forwarded_headers` do the proxy's headers choose them, and the answers then name
//! those headers in `Vary`.

use crate::helpers::{database_url, short_street, spawn_with, test_settings, TestApp};
use reqwest::header::{ETAG, VARY};
use serde_json::Value;
use test_support::Backend;

test_support::on_both_backends!(
    crate::links::spawn_public;
    links_name_the_public_url_whatever_the_client_sends,
);

/// Without `http.public_url` (`make run`, the tests' default settings).
mod listener {
    use super::*;

    test_support::on_both_backends!(
        crate::helpers::spawn_app;
        without_a_public_url_links_name_the_listener_not_the_client,
    );
}

/// With `http.trust_forwarded_headers`.
mod trusting {
    use super::*;

    test_support::on_both_backends!(
        crate::links::spawn_trusting;
        trusted_forwarded_headers_choose_the_links_and_the_answers_vary_by_them,
    );
}

const PUBLIC: &str = "https://streets.city.example/api/v1";

/// What a client may send to poison the links: RFC 7239 first (actix prefers it), then the
/// de-facto headers (what deploy/proxy/nginx.conf sets, here sent by the client).
const HOSTILE: &[(&str, &str)] = &[
    ("Forwarded", "host=evil.example;proto=https"),
    ("X-Forwarded-Host", "evil2.example"),
    ("X-Forwarded-Proto", "https"),
];

/// Every resource of the features API with links: the landing page, the collections, the
/// collection, pages with `next` and `prev`, one feature.
const WITH_LINKS: &[&str] = &[
    "",
    "/",
    "/collections",
    "/collections/streets",
    "/collections/streets/items?limit=1",
    "/collections/streets/items?limit=1&offset=1",
    "/collections/streets/items/1",
];

async fn spawn_public(backend: Backend) -> Option<TestApp> {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = database_url(backend, &dir).await?;
    let mut settings = test_settings(&url);
    settings.http.public_url = PUBLIC.into();
    Some(spawn_with(settings, dir).await)
}

async fn spawn_trusting(backend: Backend) -> Option<TestApp> {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = database_url(backend, &dir).await?;
    let mut settings = test_settings(&url);
    settings.http.trust_forwarded_headers = true;
    Some(spawn_with(settings, dir).await)
}

async fn seed(app: &TestApp) {
    app.seed(&[
        short_street(1, "Vinohradská", 14.4410, 50.0770),
        short_street(2, "Korunní", 14.4420, 50.0760),
        short_street(3, "Slezská", 14.4430, 50.0750),
    ])
    .await;
}

/// GET `path` with `headers`: the body's every `href`, the `Vary` and `ETag`, the body.
async fn hrefs(
    app: &TestApp,
    path: &str,
    headers: &[(&str, &str)],
) -> (Vec<String>, String, String, Value) {
    let mut request = app.client.get(app.url(path));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (vary, etag) = (header(VARY), header(ETAG));
    let body: Value = response.json().await.unwrap();
    let mut found = Vec::new();
    collect_hrefs(&body, &mut found);
    assert!(!found.is_empty(), "{path}: no links in {body}");
    (found, vary, etag, body)
}

fn collect_hrefs(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(href)) = map.get("href") {
                found.push(href.clone());
            }
            map.values().for_each(|v| collect_hrefs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_hrefs(v, found)),
        _ => {}
    }
}

/// Every link under `base`, and the answer the same (body and tag) as without the headers.
async fn assert_links_under(app: &TestApp, base: &str) {
    for path in WITH_LINKS {
        let (links, vary, etag, body) = hrefs(app, path, HOSTILE).await;
        for href in &links {
            assert!(href.starts_with(&format!("{base}/")), "{path}: {href}");
        }
        assert!(!body.to_string().contains("evil"), "{path}: {body}");
        assert!(!vary.contains("Forwarded"), "{path}: {vary}");
        let (_, _, plain_etag, plain_body) = hrefs(app, path, &[]).await;
        assert_eq!((etag, body), (plain_etag, plain_body), "{path}");
    }
}

async fn links_name_the_public_url_whatever_the_client_sends(app: TestApp) {
    seed(&app).await;
    assert_links_under(&app, PUBLIC).await;
    // The landing page's API description, which GIS clients follow, and a page's `next`.
    let (links, ..) = hrefs(&app, "", HOSTILE).await;
    assert!(
        links.contains(&format!("{PUBLIC}/docs/openapi-3.0.json")),
        "{links:?}"
    );
    let (links, ..) = hrefs(&app, "/collections/streets/items?limit=1", HOSTILE).await;
    assert!(
        links.contains(&format!(
            "{PUBLIC}/collections/streets/items?limit=1&offset=1"
        )),
        "{links:?}"
    );
}

async fn without_a_public_url_links_name_the_listener_not_the_client(app: TestApp) {
    seed(&app).await;
    let base = app.url("");
    assert_links_under(&app, &base).await;
}

async fn trusted_forwarded_headers_choose_the_links_and_the_answers_vary_by_them(app: TestApp) {
    seed(&app).await;
    let proxy = [
        ("X-Forwarded-Host", "streets.city.example"),
        ("X-Forwarded-Proto", "https"),
    ];
    for path in WITH_LINKS {
        let (links, vary, ..) = hrefs(&app, path, &proxy).await;
        for href in &links {
            assert!(href.starts_with(&format!("{PUBLIC}/")), "{path}: {href}");
        }
        for name in ["Forwarded", "X-Forwarded-Host", "X-Forwarded-Proto"] {
            assert!(vary.contains(name), "{path}: {vary}");
        }
    }
}
