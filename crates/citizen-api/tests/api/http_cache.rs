//! HTTP caching instead of a copy (service_kit::http::cache): public reads carry a strong
//! `ETag`, `Cache-Control: public, max-age=<http_cache.max_age_seconds>` and `Vary`, and answer
//! `304` to an `If-None-Match` naming the current tag; a change gives a new tag; answers under
//! `/me` and `/admin` and to any request with `Authorization` are `private, no-store` (but the
//! officers' polled reads, `private, no-cache` with their own tag: `admin_status_counts`); writes
//! and errors are not marked public.

use reqwest::header::{CACHE_CONTROL, ETAG, VARY};
use test_support::http::{header, send_if_none_match};
use test_support::on_both_backends;

use crate::helpers::{form, spawn_on, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    public_reads_carry_a_tag_and_a_max_age,
    a_matching_tag_answers_304_until_the_answer_changes,
    answers_that_depend_on_who_asks_are_private,
    writes_and_errors_are_not_public,
);

async fn get(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    tag: Option<&str>,
) -> reqwest::Response {
    let mut request = app.http.get(format!("{}{path}", app.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    send_if_none_match(request, tag).await
}

async fn public_reads_carry_a_tag_and_a_max_age(app: TestApp) {
    let filed = app.file(Filing::new("Lampa", 1).at(14.42, 50.08)).await;
    let paths = [
        "/reports".to_owned(),
        "/reports?location=14.42,50.08&orderBy=location".to_owned(),
        format!("/reports/{}", filed.report),
        format!("/reports/{}/status", filed.report),
        "/news".to_owned(),
        "/news-categories".to_owned(),
        "/projects".to_owned(),
        "/geo/boundary".to_owned(),
    ];
    for path in &paths {
        let response = get(&app, path, None, None).await;
        assert_eq!(response.status(), 200, "{path}");
        let tag = header(&response, ETAG).unwrap_or_else(|| panic!("{path}: no ETag"));
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && tag.len() == 34,
            "{path}: a strong tag, {tag}"
        );
        // The boundary changes only with a deployment: its handler keeps an hour.
        let max_age = if path == "/geo/boundary" { 3600 } else { 5 };
        assert_eq!(
            header(&response, CACHE_CONTROL),
            Some(format!("public, max-age={max_age}")),
            "{path}"
        );
        let vary = header(&response, VARY).unwrap_or_default();
        assert!(
            vary.contains("Accept-Language") && vary.contains("Authorization"),
            "{path}: {vary}"
        );
        // Every replica tags the same answer alike.
        let again = get(&app, path, None, None).await;
        assert_eq!(header(&again, ETAG), Some(tag), "{path}");
    }
    // The setting decides the max-age.
    let other = spawn_on(app.db.clone(), |s| s.http_cache.max_age_seconds = 30).await;
    let response = get(&other, "/reports", None, None).await;
    assert_eq!(
        header(&response, CACHE_CONTROL).as_deref(),
        Some("public, max-age=30")
    );
}

async fn a_matching_tag_answers_304_until_the_answer_changes(app: TestApp) {
    let filed = app.file(Filing::new("Lampa", 1)).await;
    for path in ["/reports".to_owned(), format!("/reports/{}", filed.report)] {
        let first = get(&app, &path, None, None).await;
        let tag = header(&first, ETAG).unwrap();
        let body = first.text().await.unwrap();
        let not_modified = get(&app, &path, None, Some(&tag)).await;
        assert_eq!(not_modified.status(), 304, "{path}");
        assert_eq!(header(&not_modified, ETAG), Some(tag.clone()));
        assert_eq!(
            header(&not_modified, CACHE_CONTROL).as_deref(),
            Some("public, max-age=5")
        );
        assert_eq!(not_modified.text().await.unwrap(), "");
        // Another tag, or a list of them without this one: the whole answer.
        let other = get(&app, &path, None, Some("\"0123\", W/\"4567\"")).await;
        assert_eq!(other.status(), 200);
        assert_eq!(other.text().await.unwrap(), body);
        let listed = get(&app, &path, None, Some(&format!("\"0123\", W/{tag}"))).await;
        assert_eq!(listed.status(), 304);
    }
    // A vote changes the list and the detail: the old tag no longer matches.
    let list_tag = header(&get(&app, "/reports", None, None).await, ETAG).unwrap();
    let (status, body) = app.vote(&app.token("voter", &[]), &filed.report, 1).await;
    assert_eq!(status, 200, "{body}");
    let changed = get(&app, "/reports", None, Some(&list_tag)).await;
    assert_eq!(changed.status(), 200);
    assert_ne!(header(&changed, ETAG), Some(list_tag));
    let page: serde_json::Value = changed.json().await.unwrap();
    assert_eq!(page["reports"][0]["votes_count"], 1);
}

async fn answers_that_depend_on_who_asks_are_private(app: TestApp) {
    let filed = app.file(Filing::new("Lampa", 1).by("citizen-1")).await;
    let citizen = app.token("citizen-1", &[]);
    let boss = app.boss();
    let cases = [
        ("/reports".to_owned(), Some(citizen.as_str()), 200),
        (format!("/reports/{}", filed.report), Some(&citizen), 200),
        ("/me/reports".to_owned(), Some(&citizen), 200),
        ("/me/vote-tokens-summary".to_owned(), Some(&citizen), 200),
        ("/me/notifications".to_owned(), Some(&citizen), 200),
        ("/admin/report-categories".to_owned(), Some(&boss), 200),
        // Without a token: refused, and still never kept.
        ("/me/reports".to_owned(), None, 401),
        ("/admin/reports".to_owned(), None, 401),
    ];
    for (path, token, status) in cases {
        let response = get(&app, &path, token, None).await;
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(
            header(&response, CACHE_CONTROL).as_deref(),
            Some("private, no-store"),
            "{path}"
        );
        assert_eq!(header(&response, ETAG), None, "{path}");
    }
    // The officers' polled reads keep their own: private, asked again each time with their tag.
    for path in ["/admin/reports", "/admin/reports/status-counts"] {
        let response = get(&app, path, Some(&boss), None).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            header(&response, CACHE_CONTROL).as_deref(),
            Some("private, no-cache"),
            "{path}"
        );
        assert!(header(&response, ETAG).is_some(), "{path}");
    }
}

async fn writes_and_errors_are_not_public(app: TestApp) {
    let response = app
        .http
        .post(format!("{}/reports", app.base))
        .multipart(form("Lampa", "Nesvítí"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    assert_eq!(header(&response, ETAG), None);
    assert_eq!(header(&response, CACHE_CONTROL), None);
    for path in [
        "/reports/00000000-0000-7000-8000-000000000000",
        "/reports?limit=0",
    ] {
        let response = get(&app, path, None, None).await;
        assert!(response.status().is_client_error(), "{path}");
        assert_eq!(header(&response, ETAG), None, "{path}");
        assert_eq!(header(&response, CACHE_CONTROL), None, "{path}");
    }
}
