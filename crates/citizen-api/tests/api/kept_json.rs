//! Kept JSON (routes/reports/kept.rs, migration 0021): a replica writes a public list row or a
//! public detail from what it kept only while its version in the database is unchanged, so a
//! change made through another replica, or by SQL alone, shows in the very next answer, and an
//! answer written from what was kept is byte for byte the answer written afresh.

use serde_json::{json, Value};
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::helpers::{spawn_on, Filing, TestApp};
use crate::news_generation::raw_execute;

on_both_backends!(crate::helpers::spawn_app;
    a_change_through_another_replica_shows_in_the_next_page,
    a_change_by_sql_alone_shows_in_the_next_page,
    pages_from_the_cache_equal_pages_written_afresh,
    a_detail_follows_changes_through_another_replica_and_by_sql,
    details_from_the_cache_equal_details_written_afresh,
);

/// Another replica of `app`'s database; `entries` 0: nothing kept.
async fn replica(app: &TestApp, entries: usize) -> TestApp {
    spawn_on(app.db.clone(), |s| {
        s.reports.row_cache_entries = entries;
        s.reports.detail_cache_entries = entries;
    })
    .await
}

/// The body of `GET /reports{query}`, as sent.
async fn page_text(app: &TestApp, query: &str) -> String {
    text(app, &format!("/reports{query}"), None).await
}

/// The body of `GET {path}`, as sent (shared with `detail_index`).
pub(crate) async fn text(app: &TestApp, path: &str, token: Option<&str>) -> String {
    let mut request = app.http.get(format!("{}{path}", app.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.text().await.unwrap()
}

async fn counted(app: &TestApp, metric: &str, source: &str) -> f64 {
    app.metric(&format!("{metric}{{source=\"{source}\"")).await
}

/// `report_list_rows_total{source}`: list rows by where their content was read from.
pub(crate) async fn rows_from(app: &TestApp, source: &str) -> f64 {
    counted(app, "report_list_rows_total", source).await
}

/// The row of `issue` in the first page of the list.
async fn row(app: &TestApp, issue: uuid::Uuid) -> Value {
    let page = app.get_ok("/reports").await;
    page["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["issue_id"] == issue.to_string())
        .cloned()
        .unwrap_or_else(|| panic!("no row of {issue} in {page}"))
}

async fn a_change_through_another_replica_shows_in_the_next_page(app: TestApp) {
    let filed = app.file(Filing::new("Pothole", 1).at(14.43, 50.07)).await;
    app.file(Filing::new("Graffiti", 2)).await;
    let other = replica(&app, 20_000).await;
    // The second page read comes from the cache.
    let first = page_text(&app, "").await;
    let (hits, misses) = (
        rows_from(&app, "cache").await,
        rows_from(&app, "database").await,
    );
    assert_eq!(page_text(&app, "").await, first);
    assert_eq!(rows_from(&app, "cache").await, hits + 2.0);
    assert_eq!(rows_from(&app, "database").await, misses);
    assert_eq!(row(&app, filed.issue).await["status"], "open");

    // An officer accepts the issue and marks the report explicit through the other replica.
    let boss = other.boss();
    let (status, body) = other.step(filed.issue, "accept", &boss).await;
    assert_eq!(status, 200, "{body}");
    let changed = row(&app, filed.issue).await;
    assert_eq!(changed["status"], "accepted");
    assert!(changed["processed_at"].is_string(), "{changed}");
    let (status, body) = other
        .send_json(
            reqwest::Method::PUT,
            &format!("/admin/reports/{}/explicit", filed.report),
            &boss,
            &json!({ "explicit": true }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(row(&app, filed.issue).await["explicit"], true);
    // Both replicas now write the same page.
    assert_eq!(page_text(&app, "").await, page_text(&other, "").await);
}

async fn a_change_by_sql_alone_shows_in_the_next_page(app: TestApp) {
    let filed = app.file(Filing::new("Broken bench", 1)).await;
    assert_eq!(row(&app, filed.issue).await["title"], "Broken bench");
    assert_eq!(row(&app, filed.issue).await["title"], "Broken bench");
    raw_execute(
        &app,
        &format!(
            "UPDATE issues SET title = 'Bench, repaired by SQL' WHERE id = '{}'",
            filed.issue
        ),
    )
    .await;
    assert_eq!(
        row(&app, filed.issue).await["title"],
        "Bench, repaired by SQL"
    );
}

async fn pages_from_the_cache_equal_pages_written_afresh(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let boss = app.boss();
    for (i, (lon, lat)) in [(14.42, 50.08), (14.43, 50.07), (14.44, 50.09)]
        .into_iter()
        .enumerate()
    {
        let second = i64::try_from(i).unwrap();
        let title = format!("Report \"{i}\" – ščř\nline");
        let filed = app.file(Filing::new(&title, second).at(lon, lat)).await;
        if i == 1 {
            let (status, body) = app.move_to(filed.issue, roads, &boss).await;
            assert_eq!(status, 200, "{body}");
            let moved = id(&body, "issue_id");
            let (status, body) = app.step(moved, "accept", &boss).await;
            assert_eq!(status, 200, "{body}");
        }
    }
    app.file(Filing::new("No location", 9)).await;
    let fresh = replica(&app, 0).await;
    let queries = [
        "",
        "?limit=2&offset=1",
        "?location=14.43,50.08",
        "?location=14.43,50.08&orderBy=location",
        "?location=14.43,50.08,2000&orderBy=location&orderDirection=desc",
        "?q=report",
        "?status=accepted",
        &format!("?category={roads}"),
        "?orderBy=votes&orderDirection=asc",
    ];
    for query in queries {
        let want = page_text(&fresh, query).await;
        // Once to fill the cache, once from it.
        assert_eq!(page_text(&app, query).await, want, "{query}");
        assert_eq!(page_text(&app, query).await, want, "{query}");
    }
    assert!(rows_from(&app, "cache").await > 0.0);
    assert_eq!(rows_from(&fresh, "cache").await, 0.0);
}

/// A report by `citizen-1` with a photo and a location (filed through the API).
async fn photo_report(app: &TestApp) -> (uuid::Uuid, uuid::Uuid) {
    let (jpeg, _) = crate::media_images::images::jpeg();
    let f = crate::helpers::form("Broken lamp", "Dark \"since\" Monday\n– ščř")
        .text("location", "14.4378,50.0755,30")
        .part("media", crate::helpers::file(jpeg, "lamp.jpg"));
    let (status, _, body) = app.post_report(f, Some(&app.token("citizen-1", &[]))).await;
    assert_eq!(status, 201, "{body}");
    let report = id(&body, "id");
    let found = app.stores.reports.report(report).await.unwrap().unwrap();
    (report, found.issues[0].id)
}

async fn a_detail_follows_changes_through_another_replica_and_by_sql(app: TestApp) {
    let (report, issue) = photo_report(&app).await;
    let path = format!("/reports/{report}");
    let first = text(&app, &path, None).await;
    let kept = counted(&app, "report_details_total", "cache").await;
    assert_eq!(text(&app, &path, None).await, first);
    assert_eq!(
        counted(&app, "report_details_total", "cache").await,
        kept + 1.0
    );

    let other = replica(&app, 20_000).await;
    let boss = other.boss();
    let (status, body) = other.step(issue, "accept", &boss).await;
    assert_eq!(status, 200, "{body}");
    let detail = app.get_ok(&path).await;
    assert_eq!(detail["status"], "accepted");
    assert!(detail["processed_at"].is_string(), "{detail}");
    let (status, body) = other
        .send_json(
            reqwest::Method::PUT,
            &format!("/admin/reports/{report}/explicit"),
            &boss,
            &json!({ "explicit": true }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let detail = app.get_ok(&path).await;
    assert_eq!(detail["explicit"], true);
    assert_eq!(detail["media"], json!([]));
    // The author still sees the photo: their view is never the kept public one.
    let author = app.token("citizen-1", &[]);
    let own: Value = serde_json::from_str(&text(&app, &path, Some(&author)).await).unwrap();
    assert_eq!(own["media"].as_array().map(Vec::len), Some(1));

    raw_execute(
        &app,
        &format!("UPDATE issues SET status = 'resolved' WHERE id = '{issue}'"),
    )
    .await;
    assert_eq!(app.get_ok(&path).await["status"], "resolved");
    assert_eq!(
        text(&app, &path, None).await,
        text(&other, &path, None).await
    );
}

async fn details_from_the_cache_equal_details_written_afresh(app: TestApp) {
    let (report, issue) = photo_report(&app).await;
    let plain = app.file(Filing::new("No location", 3)).await;
    let boss = app.boss();
    let roads = app.admin_category("Roads", None).await;
    let (status, body) = app.move_to(issue, roads, &boss).await;
    assert_eq!(status, 200, "{body}");
    let fresh = replica(&app, 0).await;
    let author = app.token("citizen-1", &[]);
    for path in [
        format!("/reports/{report}"),
        format!("/reports/{}", plain.report),
    ] {
        for token in [None, Some(author.as_str())] {
            let want = text(&fresh, &path, token).await;
            assert_eq!(text(&app, &path, token).await, want, "{path}");
            assert_eq!(text(&app, &path, token).await, want, "{path}");
        }
    }
    assert!(counted(&app, "report_details_total", "cache").await > 0.0);
    assert_eq!(counted(&fresh, "report_details_total", "cache").await, 0.0);
}
