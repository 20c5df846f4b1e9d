//! The public list reads each row from its issue, which carries copies of its report's columns
//! and media (migration 0014, kept by triggers). After every change to a report, each of its
//! list rows must show exactly what its public detail shows.

use reqwest::Method;
use serde_json::Value;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::id;
use crate::helpers::{file, form, TestApp};
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    list_rows_follow_moves_new_issues_media_deletion_and_explicit,
);

/// The fields a list row shares with the report's public detail.
const SHARED: [&str; 9] = [
    "id",
    "title",
    "description",
    "inserted_at",
    "processed_at",
    "media",
    "explicit",
    "votes_count",
    "location",
];

/// The report's rows in the public list (all of its categories), ordered by issue id.
async fn rows_of(app: &TestApp, report: Uuid, query: &str) -> Vec<Value> {
    let list = app.get_ok(&format!("/reports?limit=100{query}")).await;
    let mut rows: Vec<Value> = list["reports"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["id"] == report.to_string())
        .cloned()
        .collect();
    rows.sort_by_key(|r| r["issue_id"].as_str().unwrap_or_default().to_owned());
    rows
}

/// Every list row of `report` shows what the public detail shows; answers the rows'
/// (issue id, category id).
pub(crate) async fn assert_rows_match_detail(
    app: &TestApp,
    report: Uuid,
    step: &str,
) -> Vec<(Uuid, Uuid)> {
    let detail = app.get_ok(&format!("/reports/{report}")).await;
    let rows = rows_of(app, report, "").await;
    assert!(!rows.is_empty(), "{step}: no row");
    for row in &rows {
        for field in SHARED {
            assert_eq!(row.get(field), detail.get(field), "{step}: {field}");
        }
    }
    rows.iter()
        .map(|r| (id(r, "issue_id"), id(r, "category_id")))
        .collect()
}

async fn list_rows_follow_moves_new_issues_media_deletion_and_explicit(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let light = app.admin_category("Lighting", None).await;
    let boss = app.boss();
    let (jpeg, _) = images::jpeg();
    let f = form("Broken lamp on Vinohradská", "Dark since Monday")
        .text("location", "14.4378,50.0755,30")
        .part("media", file(jpeg.clone(), "one.jpg"))
        .part("media", file(jpeg, "two.jpg"));
    let (status, _, body) = app.post_report(f, Some(&app.token("citizen-1", &[]))).await;
    assert_eq!(status, 201, "{body}");
    let report = id(&body, "id");
    let (first, second) = (
        id(&body["media"][0], "media_id"),
        id(&body["media"][1], "media_id"),
    );
    let filed = assert_rows_match_detail(&app, report, "filed").await;
    assert_eq!(filed.len(), 1);
    let row = &rows_of(&app, report, "").await[0];
    assert_eq!(row["media"].as_array().map(Vec::len), Some(2));
    assert!(row["processed_at"].is_null());

    // A move: the new issue's row carries the report's columns and media, and processed_at.
    let (status, moved) = app.move_to(filed[0].0, roads, &boss).await;
    assert_eq!(status, 200, "{moved}");
    let rows = assert_rows_match_detail(&app, report, "moved").await;
    assert_eq!(rows, [(id(&moved, "issue_id"), roads)]);
    assert!(rows_of(&app, report, "").await[0]["processed_at"].is_string());

    // A further category: two rows, both complete; `q` finds the report through either.
    let (status, opened) = app.open_in(report, light, &boss).await;
    assert_eq!(status, 201, "{opened}");
    assert_eq!(
        assert_rows_match_detail(&app, report, "opened").await.len(),
        2
    );
    assert_eq!(rows_of(&app, report, "&q=vinohradska").await.len(), 2);
    assert_eq!(rows_of(&app, report, "&q=monday").await.len(), 2);

    // A deleted photo leaves every row.
    let (status, body) = app
        .request(
            Method::DELETE,
            &format!("/admin/reports/{report}/media/{first}"),
            Some(&boss),
            None,
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert_rows_match_detail(&app, report, "media deleted").await;
    for row in rows_of(&app, report, "").await {
        assert_eq!(row["media"].as_array().map(Vec::len), Some(1));
        assert_eq!(row["media"][0]["media_id"], second.to_string());
    }

    // Marked explicit, then cleared: the rows follow both ways.
    for explicit in [true, false] {
        let (status, body) = app.set_explicit(report, explicit, &boss).await;
        assert_eq!(status, 200, "{body}");
        assert_rows_match_detail(&app, report, &format!("explicit {explicit}")).await;
        for row in rows_of(&app, report, "").await {
            assert_eq!(row["explicit"], explicit);
        }
    }
}
