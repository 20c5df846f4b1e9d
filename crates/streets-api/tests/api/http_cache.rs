//! HTTP caching of the open street data (service_kit::http::cache): every read of the seed's
//! routes and of the features API carries a strong `ETag`, `Cache-Control: public,
//! max-age=<http_cache.max_age_seconds>` (60 by default) and `Vary` naming `Accept` (the
//! features API negotiates its media type), answers `304` to an `If-None-Match` naming the
//! current tag, and gives a new tag once an import changed the answer; errors are not public.

use reqwest::header::{CACHE_CONTROL, ETAG, VARY};
use test_support::http::{header, send_if_none_match};
use test_support::on_both_backends;

use crate::helpers::{short_street, spawn_with, test_settings, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    every_read_is_public_with_a_tag,
    a_matching_tag_answers_304_until_an_import_changes_the_answer,
    errors_are_not_public,
);

/// Every public read of the API, under the base path.
const READS: &[&str] = &[
    "/streets?q=Vino",
    "/streets/1",
    "",
    "/",
    "/conformance",
    "/collections",
    "/collections/streets",
    "/collections/streets/items?limit=1",
    "/collections/streets/items/1",
];

async fn get(app: &TestApp, path: &str, tag: Option<&str>) -> reqwest::Response {
    send_if_none_match(app.client.get(app.url(path)), tag).await
}

async fn every_read_is_public_with_a_tag(app: TestApp) {
    app.seed(&[short_street(1, "Vinohradská", 14.4410, 50.0770)])
        .await;
    for path in READS {
        let response = get(&app, path, None).await;
        assert_eq!(response.status(), 200, "{path}");
        let tag = header(&response, ETAG).unwrap_or_else(|| panic!("{path}: no ETag"));
        assert!(
            tag.len() == 34 && tag.starts_with('"') && tag.ends_with('"'),
            "{path}: {tag}"
        );
        assert_eq!(
            header(&response, CACHE_CONTROL).as_deref(),
            Some("public, max-age=60"),
            "{path}"
        );
        // CORS (any origin may read open data) adds its own request headers after these.
        let vary = header(&response, VARY).unwrap_or_default();
        assert!(
            vary.starts_with("Accept, Accept-Language, Authorization"),
            "{path}: {vary}"
        );
    }
    // The setting is the max-age.
    let dir = tempfile::tempdir().unwrap();
    let mut settings = test_settings(&app.database_url);
    settings.http_cache.max_age_seconds = 7;
    let other = spawn_with(settings, dir).await;
    let response = get(&other, "/streets/1", None).await;
    assert_eq!(
        header(&response, CACHE_CONTROL).as_deref(),
        Some("public, max-age=7")
    );
}

async fn a_matching_tag_answers_304_until_an_import_changes_the_answer(app: TestApp) {
    app.seed(&[short_street(1, "Vinohradská", 14.4410, 50.0770)])
        .await;
    for path in ["/streets/1", "/collections/streets/items/1"] {
        let first = get(&app, path, None).await;
        let tag = header(&first, ETAG).unwrap();
        let body = first.bytes().await.unwrap();
        assert!(!body.is_empty());

        let again = get(&app, path, Some(&tag)).await;
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(header(&again, ETAG).as_deref(), Some(tag.as_str()));
        assert_eq!(
            header(&again, CACHE_CONTROL).as_deref(),
            Some("public, max-age=60")
        );
        assert!(
            again.bytes().await.unwrap().is_empty(),
            "{path}: a 304 has no body"
        );

        let other = get(&app, path, Some("\"0123456789abcdef0123456789abcdef\"")).await;
        assert_eq!(other.status(), 200, "{path}: another tag");
    }
    // An import that renames the street: the old tag no longer matches.
    let before = header(&get(&app, "/streets/1", None).await, ETAG).unwrap();
    app.seed(&[short_street(1, "Vinohradská třída", 14.4410, 50.0770)])
        .await;
    let changed = get(&app, "/streets/1", Some(&before)).await;
    assert_eq!(changed.status(), 200);
    let after = header(&changed, ETAG).unwrap();
    assert_ne!(after, before);
    let body: serde_json::Value = changed.json().await.unwrap();
    assert_eq!(body["properties"]["N_GM_U"], "Vinohradská třída");
}

async fn errors_are_not_public(app: TestApp) {
    for path in [
        "/streets/999",
        "/streets?limit=0",
        "/collections/other",
        "/collections/streets/items/999",
    ] {
        let response = get(&app, path, None).await;
        assert!(response.status().is_client_error(), "{path}");
        assert_eq!(header(&response, ETAG), None, "{path}");
        assert_ne!(
            header(&response, CACHE_CONTROL).as_deref(),
            Some("public, max-age=60"),
            "{path}"
        );
    }
}
