//! The public detail keyed from the list index: an anonymous detail whose JSON is kept takes its
//! version and vote count from the index after a feed read (no statement of its own), and is
//! byte for byte the detail of a replica without the index after every kind of change made
//! elsewhere: a step and a move through another replica, votes placed there, `explicit` set by
//! SQL alone. A signed-in request reads its key from the database (it needs the author).

use reqwest::Method;
use serde_json::json;
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::helpers::{spawn_on, Filing, TestApp};
use crate::kept_json::text;
use crate::news_generation::raw_execute;

on_both_backends!(crate::helpers::spawn_app;
    a_kept_detail_keyed_from_the_index_equals_the_databases,
);

/// The body of `GET /reports/{report}`, as sent, anonymously or with `token`.
async fn detail_text(app: &TestApp, report: &str, token: Option<&str>) -> String {
    text(app, &format!("/reports/{report}"), token).await
}

async fn keys(app: &TestApp, source: &str) -> f64 {
    app.metric(&format!("report_detail_keys_total{{source=\"{source}\""))
        .await
}

/// `app`'s detail (read twice: the second is kept) equals `plain`'s; how many keys came from
/// `app`'s index meanwhile.
async fn alike(app: &TestApp, plain: &TestApp, report: &str, what: &str) -> f64 {
    let before = keys(app, "index").await;
    let want = detail_text(plain, report, None).await;
    for _ in 0..2 {
        assert_eq!(detail_text(app, report, None).await, want, "{what}");
    }
    keys(app, "index").await - before
}

async fn a_kept_detail_keyed_from_the_index_equals_the_databases(app: TestApp) {
    let plain = spawn_on(app.db.clone(), |s| s.reports.index_max_items = 0).await;
    let filed = app
        .file(Filing::new("Lampa nesvítí", 1).at(14.42, 50.08))
        .await;
    let report = filed.report.to_string();
    // The first read writes the detail and keeps it; the second is keyed from the index.
    assert_eq!(alike(&app, &plain, &report, "filed").await, 1.0);
    assert_eq!(alike(&app, &plain, &report, "again").await, 2.0);

    let boss = plain.boss();
    let (status, _) = plain.step(filed.issue, "accept", &boss).await;
    assert_eq!(status, 200);
    assert!(detail_text(&app, &report, None)
        .await
        .contains("\"accepted\""));
    assert_eq!(
        alike(&app, &plain, &report, "accepted elsewhere").await,
        2.0
    );
    let roads = plain.admin_category("Silnice", None).await;
    let (status, body) = plain.move_to(filed.issue, roads, &boss).await;
    assert_eq!(status, 200, "{body}");
    let moved = id(&body, "issue_id");
    assert_ne!(moved, filed.issue);
    assert_eq!(alike(&app, &plain, &report, "moved elsewhere").await, 2.0);

    let (status, body) = plain
        .send_json(
            Method::POST,
            "/me/vote-tokens",
            &plain.token("voter", &[]),
            &json!({"target": report, "count": 2}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let shown = app.get_ok(&format!("/reports/{report}")).await;
    assert_eq!(shown["votes_count"], 2, "{shown}");
    assert_eq!(alike(&app, &plain, &report, "votes elsewhere").await, 2.0);

    raw_execute(
        &app,
        &format!("UPDATE reports SET explicit = (1 = 1) WHERE id = '{report}'"),
    )
    .await;
    assert!(detail_text(&app, &report, None)
        .await
        .contains("\"explicit\":true"));
    assert_eq!(alike(&app, &plain, &report, "by SQL alone").await, 2.0);

    // Signed in: the key is read with the author, never from the index.
    let (index, database) = (keys(&app, "index").await, keys(&app, "database").await);
    let citizen = app.token("someone", &[]);
    assert_eq!(
        detail_text(&app, &report, Some(&citizen)).await,
        detail_text(&plain, &report, Some(&citizen)).await
    );
    assert_eq!(keys(&app, "index").await, index);
    assert_eq!(keys(&app, "database").await, database);
    // An unknown report is still a 404 with the error body.
    let (status, body) = app
        .get_as(&format!("/reports/{}", uuid::Uuid::new_v4()), None)
        .await;
    assert_eq!(status, 404, "{body}");
}
