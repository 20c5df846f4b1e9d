//! `GET /reports/{reportId}/status`: the public timeline of reports with several issues.

use domain::issues::Transition;
use serde_json::Value;
use test_support::on_both_backends;

use crate::helpers::{each, string, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    an_open_report_has_no_step,
    steps_of_moved_accepted_resolved_and_duplicate_issues,
);

async fn an_open_report_has_no_step(app: TestApp) {
    let a = app.file(Filing::new("A", 1)).await;
    let body = app.get_ok(&format!("/reports/{}/status", a.report)).await;
    assert_eq!(body, serde_json::json!({"statuses": []}));
}

fn steps(body: &Value) -> Vec<(String, String, Vec<String>)> {
    each(&body["statuses"], |s| {
        (
            string(&s["status"]),
            string(&s["categoryName"]),
            each(&s["statements"], |t| string(&t["text"])),
        )
    })
}

async fn steps_of_moved_accepted_resolved_and_duplicate_issues(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let light = app.category("Lighting", None).await;
    // The original: moved to roads, a statement while open, accepted, one more, resolved.
    let original = app.file(Filing::new("Pothole", 1)).await;
    let p = app
        .desk()
        .move_to(original.issue, roads.id, app.time(2))
        .await;
    app.add_statement(p.id, "Seen it", app.time(3)).await;
    app.accept(p.id, app.time(4)).await;
    app.add_statement(p.id, "Crew sent", app.time(5)).await;
    app.desk()
        .status(p.id, Transition::Resolve, app.time(6))
        .await;
    app.desk().statement(p.id, "Fixed", true, app.time(7)).await;
    let body = app
        .get_ok(&format!("/reports/{}/status", original.report))
        .await;
    assert_eq!(
        steps(&body),
        [
            (
                "accepted".into(),
                "Roads".into(),
                vec!["Crew sent".into(), "Seen it".into()]
            ),
            ("resolved".into(), "Roads".into(), vec!["Fixed".into()]),
        ]
    );
    let first = &body["statuses"][0];
    assert_eq!(first["issue_id"], p.id.to_string());
    assert_eq!(
        first["date"],
        app.time(4)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    let statement = &first["statements"][0];
    assert_eq!(statement["final"], false);
    assert_eq!(statement["media"], serde_json::json!([]));
    assert!(
        statement.get("author").is_none(),
        "public view: {statement}"
    );
    assert!(statement["statement_id"].is_string() && statement["inserted_at"].is_string());

    // The duplicate: moved to lighting, then marked a duplicate of the pothole's issue; its own
    // statement never shows, the parent's do.
    let dup = app.file(Filing::new("Same pothole", 8)).await;
    let d = app.desk().move_to(dup.issue, light.id, app.time(9)).await;
    app.add_statement(d.id, "Internal note", app.time(10)).await;
    app.desk().duplicate_of(d.id, p.id, app.time(11)).await;
    let body = app.get_ok(&format!("/reports/{}/status", dup.report)).await;
    assert_eq!(
        steps(&body),
        [(
            "duplicate".into(),
            "Lighting".into(),
            vec!["Fixed".into(), "Crew sent".into(), "Seen it".into()]
        )]
    );
    assert_eq!(
        app.get_ok(&format!("/reports/{}", dup.report)).await["status"],
        "duplicate"
    );
}
