//! Duplicate suggestions: found on filing and on move (same category, near, recent, worded
//! alike), read by officers, cleared by dismissing or by marking the issue a duplicate.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::Value;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::id;
use crate::helpers::{each, form, string, strs, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    a_near_recent_alike_report_is_suggested_on_filing,
    dismissing_or_marking_a_duplicate_clears_the_flag,
    a_move_looks_in_the_new_category,
);

/// Files through the API (signed in) at `north_m` metres north of a fixed point; `None`: no
/// location. Answers (report, its issue as the boss sees it).
async fn file(
    app: &TestApp,
    title: &str,
    description: &str,
    north_m: Option<f64>,
) -> (Uuid, Value) {
    let mut f = form(title, description);
    if let Some(m) = north_m {
        f = f.text("location", format!("14.4213,{}", 50.0875 + m / 111_200.0));
    }
    let citizen = app.token("citizen-1", &[]);
    let (status, _, body) = app.post_report(f, Some(&citizen)).await;
    assert_eq!(status, 201, "{body}");
    let report = id(&body, "id");
    let issues = app.admin_issues(report, &app.boss()).await;
    (report, issues["issues"][0].clone())
}

/// GET the duplicate suggestions of `issue` (an issue row) as `token`: (status, body).
async fn suggestions_as(app: &TestApp, issue: &Value, token: &str) -> (u16, Value) {
    let path = format!(
        "/admin/issues/{}/duplicate-suggestions",
        issue["issue_id"].as_str().unwrap()
    );
    app.get_as(&path, Some(token)).await
}

async fn suggestions(app: &TestApp, issue: &Value) -> Vec<String> {
    let (status, body) = suggestions_as(app, issue, &app.boss()).await;
    assert_eq!(status, 200, "{body}");
    each(&body["suggestions"], |s| string(&s["report_title"]))
}

const TEXT: &str = "A deep pothole in front of the bakery on Žitná street";

async fn a_near_recent_alike_report_is_suggested_on_filing(app: TestApp) {
    let (_, first) = file(&app, "Pothole Žitná", TEXT, Some(0.0)).await;
    assert_eq!(
        first["has_possible_duplicates"], false,
        "nothing to compare with yet"
    );
    // 50 m away, same words without diacritics.
    let (_, near) = file(
        &app,
        "pothole zitna",
        "deep pothole in front of bakery, Zitna street",
        Some(50.0),
    )
    .await;
    assert_eq!(near["has_possible_duplicates"], true);
    let (status, body) = suggestions_as(&app, &near, &app.officer("nobody")).await;
    assert_eq!(status, 404, "not the caller's category: {body}");
    let (_, body) = suggestions_as(&app, &near, &app.boss()).await;
    let s = &body["suggestions"][0];
    assert_eq!(s["report_title"], "Pothole Žitná");
    assert_eq!(s["issue"]["issue_id"], first["issue_id"]);
    assert_eq!(s["issue"]["status"], "open");
    let distance = s["distance_m"].as_f64().unwrap();
    assert!((49.0..51.0).contains(&distance), "{distance}");
    assert!(s["similarity"].as_f64().unwrap() >= 0.3, "{s}");
    // The older report is not flagged by the newer one.
    assert!(suggestions(&app, &first).await.is_empty());
    // Too far, worded otherwise, or without a location: no suggestion.
    let (_, far) = file(&app, "Pothole Žitná", TEXT, Some(500.0)).await;
    assert_eq!(far["has_possible_duplicates"], false);
    let (_, other) = file(
        &app,
        "Broken bench",
        "The bench in the park is broken",
        Some(10.0),
    )
    .await;
    assert_eq!(other["has_possible_duplicates"], false);
    let (_, nowhere) = file(&app, "Pothole Žitná", TEXT, None).await;
    assert_eq!(nowhere["has_possible_duplicates"], false);
    // Resolved issues are no candidates; accepted ones are.
    let boss = app.boss();
    let issue = |v: &Value| v["issue_id"].as_str().unwrap().parse::<Uuid>().unwrap();
    app.step(issue(&first), "accept", &boss).await;
    let (_, again) = file(&app, "Pothole Žitná again", TEXT, Some(5.0)).await;
    assert_eq!(
        suggestions(&app, &again).await.len(),
        2,
        "first (accepted) and near"
    );
    app.step(issue(&first), "resolve", &boss).await;
    let (_, later) = file(&app, "Pothole Žitná later", TEXT, Some(5.0)).await;
    let found = suggestions(&app, &later).await;
    assert!(!found.contains(&"Pothole Žitná".to_owned()), "{found:?}");
    // Outside the window (30 days): none.
    app.clock.advance(TimeDelta::days(31));
    let (_, old) = file(&app, "Pothole Žitná", TEXT, Some(0.0)).await;
    assert_eq!(old["has_possible_duplicates"], false);
}

async fn dismissing_or_marking_a_duplicate_clears_the_flag(app: TestApp) {
    let (_, first) = file(&app, "Pothole Žitná", TEXT, Some(0.0)).await;
    let (report, second) = file(&app, "Pothole Žitná", TEXT, Some(20.0)).await;
    let (_, third) = file(&app, "Pothole Žitná", TEXT, Some(30.0)).await;
    assert_eq!(second["has_possible_duplicates"], true);
    assert_eq!(third["has_possible_duplicates"], true);
    let boss = app.boss();
    let path = format!(
        "/admin/issues/{}/duplicate-suggestions",
        second["issue_id"].as_str().unwrap()
    );
    let reader = app.token(
        "boss",
        &[crate::admin_helpers::READ, crate::helpers::ACCESS_ALL],
    );
    let (status, _) = app
        .request(Method::DELETE, &path, Some(&reader), None)
        .await;
    assert_eq!(status, 403, "dismissing needs the manage scope");
    let (status, body) = app.request(Method::DELETE, &path, Some(&boss), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["has_possible_duplicates"], false);
    assert!(suggestions(&app, &second).await.is_empty());
    let list = app.admin_list("", &boss).await;
    let row = list["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == report.to_string())
        .unwrap();
    assert_eq!(row["issues"][0]["has_possible_duplicates"], false);
    // Recorded in the audit trail.
    let (_, audit) = app
        .get_as(&format!("/admin/reports/{report}/audit"), Some(&boss))
        .await;
    let actions = strs(&audit["entries"], "action");
    assert_eq!(actions, ["status:open", "duplicates_dismissed"]);
    assert_eq!(audit["entries"][1]["actor"], "boss");
    // Marking a duplicate clears the flag too.
    let issue = |v: &Value| v["issue_id"].as_str().unwrap().parse::<Uuid>().unwrap();
    let (status, body) = app
        .mark_duplicate(issue(&third), issue(&first), &boss)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["has_possible_duplicates"], false);
}

async fn a_move_looks_in_the_new_category(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let boss = app.boss();
    let issue = |v: &Value| v["issue_id"].as_str().unwrap().parse::<Uuid>().unwrap();
    let (_, first) = file(&app, "Pothole Žitná", TEXT, Some(0.0)).await;
    let (status, _) = app.move_to(issue(&first), roads, &boss).await;
    assert_eq!(status, 200);
    // Filed into the default category: the Roads issue is no candidate.
    let (_, second) = file(&app, "Pothole Žitná", TEXT, Some(10.0)).await;
    assert_eq!(second["has_possible_duplicates"], false);
    // Moved into Roads: found there.
    let (status, body) = app.move_to(issue(&second), roads, &boss).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["has_possible_duplicates"], true);
    assert_eq!(suggestions(&app, &body).await, ["Pothole Žitná"]);
}
