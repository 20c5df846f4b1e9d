//! `GET /admin/reports/status-counts` against the list itself: for several callers and filter
//! combinations, each count must be what paging through `GET /admin/reports` with the same
//! filters and that `status` lists, and `total` what it lists without one. And both reads are
//! conditional for the console's polling: 304 while nothing changed, 200 with a new tag after
//! an officer's step.

use chrono::{SecondsFormat, TimeDelta};
use reqwest::header::{CACHE_CONTROL, ETAG};
use serde_json::{json, Value};
use test_support::http::{header, send_if_none_match};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, READ};
use crate::admin_list::city;
use crate::helpers::{assert_error, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    each_count_is_what_the_list_pages_through,
    the_list_and_the_counts_answer_304_until_a_step_changes_them,
);

const STATUSES: [&str; 4] = ["open", "accepted", "resolved", "duplicate"];

/// How many reports `GET /admin/reports?{query}` lists in all its pages (two rows a page).
async fn listed(app: &TestApp, query: &str, token: &str) -> u64 {
    let mut offset = 0;
    loop {
        let body = app
            .admin_list(&format!("{query}&limit=2&offset={offset}"), token)
            .await;
        let rows = body["reports"].as_array().unwrap().len() as u64;
        if body["hasNextOffset"] != true {
            return offset + rows;
        }
        assert_eq!(rows, 2, "{query}");
        offset += 2;
    }
}

/// `GET /admin/reports/status-counts?{query}`, answering 200.
async fn counts(app: &TestApp, query: &str, token: &str) -> Value {
    let path = format!("/admin/reports/status-counts?{query}");
    let (status, body) = app.get_as(&path, Some(token)).await;
    assert_eq!(status, 200, "{query}: {body}");
    body
}

/// The counts of `query` equal the list's.
async fn check(app: &TestApp, query: &str, token: &str) -> Value {
    let answer = counts(app, query, token).await;
    for status in STATUSES {
        let n = listed(app, &format!("{query}&status={status}"), token).await;
        assert_eq!(answer["counts"][status], n, "{status} of {query}: {answer}");
    }
    assert_eq!(answer["total"], listed(app, query, token).await, "{query}");
    answer
}

/// The city of `admin_list` (A open in Roads, B in Roads and Lighting, C in Lighting, D in the
/// default category) and: B accepted in Roads, C resolved, E a duplicate of A in Roads, F
/// resolved in Roads and accepted in Lighting; then four days on, past Roads' 3-day deadline.
async fn worked_city(app: &TestApp) -> (crate::admin_list::City, Uuid) {
    let c = city(app).await;
    let boss = app.boss();
    let e = app
        .file(Filing::new("Echo hole again", 5).at(14.421, 50.081))
        .await;
    let f = app.file(Filing::new("Foxtrot lamp and road", 6)).await;
    app.clock.set(app.time(20));
    let step = |issue: Uuid, action: &'static str| {
        let boss = boss.clone();
        async move {
            let (status, body) = app.step(issue, action, &boss).await;
            assert_eq!(status, 200, "{action}: {body}");
        }
    };
    step(c.b_roads, "accept").await;
    let c_light = id(&app.admin_issues(c.c, &boss).await["issues"][0], "issue_id");
    step(c_light, "accept").await;
    step(c_light, "resolve").await;
    let (_, moved) = app.move_to(e.issue, c.roads, &boss).await;
    let (status, body) = app
        .mark_duplicate(id(&moved, "issue_id"), c.a_roads, &boss)
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, moved) = app.move_to(f.issue, c.roads, &boss).await;
    let f_roads = id(&moved, "issue_id");
    step(f_roads, "accept").await;
    step(f_roads, "resolve").await;
    let (_, opened) = app.open_in(f.report, c.light, &boss).await;
    step(id(&opened, "issue_id"), "accept").await;
    app.clock.set(app.time(20) + TimeDelta::days(4));
    (c, f.report)
}

async fn each_count_is_what_the_list_pages_through(app: TestApp) {
    let (c, _) = worked_city(&app).await;
    let boss = app.boss();
    let everything = check(&app, "", &boss).await;
    assert_eq!(
        everything,
        json!({"counts": {"open": 3, "accepted": 2, "resolved": 2, "duplicate": 1}, "total": 6})
    );
    let (roads, light) = (c.roads, c.light);
    let from = app.time(3).to_rfc3339_opts(SecondsFormat::Secs, true);
    let to = app.time(5).to_rfc3339_opts(SecondsFormat::Secs, true);
    let queries = [
        format!("category={roads}"),
        format!("category={light}"),
        format!("category={roads}&category={light}"),
        "overdue=true".to_owned(),
        "overdue=false".to_owned(),
        format!("overdue=true&category={roads}"),
        format!("overdue=false&category={light}"),
        "q=lamp".to_owned(),
        format!("q=hole&category={light}"),
        "location=14.42,50.08,2000".to_owned(),
        "location=14.42,50.08".to_owned(),
        format!("dateFrom={from}"),
        format!("dateTo={to}"),
        format!("dateFrom={from}&dateTo={to}&category={roads}"),
        "hasPhoto=false".to_owned(),
        "hasPhoto=true".to_owned(),
    ];
    let callers = [
        boss.clone(),
        app.officer("o-roads"),
        app.officer("o-light"),
        app.token("o-light", &[READ]),
        app.officer("nobody"),
    ];
    for token in &callers {
        check(&app, "", token).await;
        for query in &queries {
            check(&app, query, token).await;
        }
    }
    let roads_officer = check(&app, "", &callers[1]).await;
    assert_eq!(
        roads_officer,
        json!({"counts": {"open": 1, "accepted": 1, "resolved": 1, "duplicate": 1}, "total": 4})
    );
    let overdue = check(&app, "overdue=true", &boss).await;
    assert_eq!(
        overdue,
        json!({"counts": {"open": 1, "accepted": 1, "resolved": 0, "duplicate": 0}, "total": 2})
    );
    assert_eq!(check(&app, "", &callers[4]).await["total"], 0);

    // The list's status, page and order are checked, then ignored.
    for query in ["", "overdue=true", &format!("category={light}")] {
        let plain = counts(&app, query, &boss).await;
        let with_list_parameters = format!(
            "{query}&status=resolved&status=open&limit=1&offset=1000&orderBy=votes&orderDirection=asc"
        );
        assert_eq!(counts(&app, &with_list_parameters, &boss).await, plain);
        let by_location = format!("{query}&location=14.42,50.08&orderBy=location");
        assert_eq!(
            counts(&app, &by_location, &boss).await,
            counts(&app, &format!("{query}&location=14.42,50.08"), &boss).await
        );
    }
    for bad in [
        "status=bogus",
        "limit=0",
        "offset=1001",
        "orderBy=location",
        "orderDirection=up",
        "overdue=maybe",
        "category=abc",
        "q=",
        "limit=1&limit=2",
    ] {
        let path = format!("/admin/reports/status-counts?{bad}");
        let (status, body) = app.get_as(&path, Some(&boss)).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    let (status, body) = app.get("/admin/reports/status-counts").await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
    let citizen = app.token("citizen-1", &[]);
    let (status, body) = app
        .get_as("/admin/reports/status-counts", Some(&citizen))
        .await;
    assert_error(status, &body, 403, "FORBIDDEN");
}

/// GET `path` as `token`, with `If-None-Match: tag` when given.
async fn get(app: &TestApp, path: &str, token: &str, tag: Option<&str>) -> reqwest::Response {
    let request = app
        .http
        .get(format!("{}{path}", app.base))
        .bearer_auth(token);
    send_if_none_match(request, tag).await
}

async fn the_list_and_the_counts_answer_304_until_a_step_changes_them(app: TestApp) {
    let c = city(&app).await;
    let boss = app.boss();
    let roads = app.officer("o-roads");
    let paths = [
        format!("/admin/reports?category={}", c.roads),
        format!("/admin/reports/status-counts?category={}", c.roads),
        "/admin/reports".to_owned(),
        "/admin/reports/status-counts".to_owned(),
    ];
    let mut tags = Vec::new();
    for path in &paths {
        let first = get(&app, path, &boss, None).await;
        assert_eq!(first.status(), 200, "{path}");
        let tag = header(&first, ETAG).unwrap_or_else(|| panic!("{path}: no ETag"));
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && tag.len() == 34,
            "{tag}"
        );
        assert_eq!(
            header(&first, CACHE_CONTROL).as_deref(),
            Some("private, no-cache"),
            "{path}"
        );
        let body = first.text().await.unwrap();
        // The same request with the tag: 304 without a body, the same tag.
        let again = get(&app, path, &boss, Some(&tag)).await;
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(header(&again, ETAG), Some(tag.clone()), "{path}");
        assert_eq!(
            header(&again, CACHE_CONTROL).as_deref(),
            Some("private, no-cache")
        );
        assert_eq!(again.text().await.unwrap(), "");
        // Another tag, or one in a list: as RFC 9110 reads If-None-Match.
        let other = get(&app, path, &boss, Some("\"0123\"")).await;
        assert_eq!(other.status(), 200, "{path}");
        assert_eq!(other.text().await.unwrap(), body);
        let listed = get(&app, path, &boss, Some(&format!("\"0123\", W/{tag}"))).await;
        assert_eq!(listed.status(), 304, "{path}");
        // Another officer sees another answer: the tag is of the body, not of the request.
        let theirs = get(&app, path, &app.officer("o-light"), Some(&tag)).await;
        assert_eq!(theirs.status(), 200, "{path}");
        tags.push(tag);
    }
    // The same answer keeps its tag for another caller who sees the same.
    let same = get(
        &app,
        &paths[0],
        &app.token("o-other", &[READ, crate::helpers::ACCESS_ALL]),
        Some(&tags[0]),
    )
    .await;
    assert_eq!(same.status(), 304);

    // Another officer accepts an issue of the listed reports: every answer changes.
    let (status, body) = app.step(c.a_roads, "accept", &roads).await;
    assert_eq!(status, 200, "{body}");
    for (path, tag) in paths.iter().zip(&tags) {
        let changed = get(&app, path, &boss, Some(tag)).await;
        assert_eq!(changed.status(), 200, "{path}");
        let new_tag = header(&changed, ETAG).unwrap();
        assert_ne!(&new_tag, tag, "{path}");
        let unchanged = get(&app, path, &boss, Some(&new_tag)).await;
        assert_eq!(unchanged.status(), 304, "{path}");
    }
    let counts: Value = get(&app, &paths[1], &boss, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(counts["counts"]["accepted"], 1);
    // A refusal carries no tag and is not kept.
    let refused = get(&app, "/admin/reports?limit=0", &boss, None).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(header(&refused, ETAG), None);
    assert_eq!(
        header(&refused, CACHE_CONTROL).as_deref(),
        Some("private, no-store")
    );
}
