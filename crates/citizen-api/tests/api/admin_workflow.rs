//! The workflow on issues through the admin API: every transition with the citizen's timeline
//! and the derived status after it, every refused transition, and category access.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, ids, READ};
use crate::helpers::{assert_error, each, form, string, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    accept_and_resolve_are_timeline_steps_and_change_the_status,
    move_hands_the_report_to_the_other_category,
    duplicate_takes_over_the_parents_statements,
    refused_transitions_are_409_and_change_nothing,
    another_categorys_issue_is_never_seen_or_changed,
    a_caller_without_the_scope_learns_nothing_from_the_body,
);

struct Setup {
    roads: Uuid,
    light: Uuid,
    officer: String,
}

/// Roads worked by `o-roads`, Lighting by `o-light`.
async fn setup(app: &TestApp) -> Setup {
    let roads = app.admin_category("Roads", None).await;
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-roads", roads).await;
    app.assign("o-light", light).await;
    Setup {
        roads,
        light,
        officer: app.officer("o-roads"),
    }
}

/// Files a report and moves its issue into `category`: (report, issue there).
async fn filed_in(app: &TestApp, title: &str, second: i64, category: Uuid) -> (Uuid, Uuid) {
    let filed = app.file(Filing::new(title, second)).await;
    let (status, body) = app.move_to(filed.issue, category, &app.boss()).await;
    assert_eq!(status, 200, "{body}");
    (filed.report, id(&body, "issue_id"))
}

fn steps(body: &Value) -> Vec<(String, String, String)> {
    each(&body["statuses"], |s| {
        (
            string(&s["status"]),
            string(&s["categoryName"]),
            string(&s["date"]),
        )
    })
}

fn at(app: &TestApp, second: i64) -> String {
    app.time(second)
        .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

async fn accept_and_resolve_are_timeline_steps_and_change_the_status(app: TestApp) {
    let s = setup(&app).await;
    app.clock.set(app.time(5));
    let (report, issue) = filed_in(&app, "Pothole", 1, s.roads).await;
    let detail = format!("/reports/{report}");
    let timeline = format!("/reports/{report}/status");
    assert_eq!(app.get_ok(&detail).await["status"], "open");
    assert!(
        steps(&app.get_ok(&timeline).await).is_empty(),
        "a move is no step"
    );

    app.clock.set(app.time(20));
    let (status, body) = app.step(issue, "accept", &s.officer).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "accepted");
    assert_eq!(body["category_name"], "Roads");
    assert_eq!(body["issue_id"], issue.to_string());
    assert_eq!(app.get_ok(&detail).await["status"], "accepted");
    assert_eq!(
        steps(&app.get_ok(&timeline).await),
        [("accepted".into(), "Roads".into(), at(&app, 20))]
    );
    let processed = app.get_ok(&detail).await["processed_at"].clone();
    assert_eq!(
        processed,
        at(&app, 5),
        "the move was the first officer's act"
    );

    app.clock.set(app.time(30));
    let (status, body) = app.step(issue, "resolve", &s.officer).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "resolved");
    assert_eq!(app.get_ok(&detail).await["status"], "resolved");
    assert_eq!(
        steps(&app.get_ok(&timeline).await),
        [
            ("accepted".into(), "Roads".into(), at(&app, 20)),
            ("resolved".into(), "Roads".into(), at(&app, 30))
        ]
    );
    // The officers' view agrees.
    let issues = app.admin_issues(report, &s.officer).await;
    assert_eq!(issues["issues"][0]["status"], "resolved");
    let _ = s.light;
}

async fn move_hands_the_report_to_the_other_category(app: TestApp) {
    let s = setup(&app).await;
    let (report, issue) = filed_in(&app, "Dark street", 1, s.roads).await;
    let (status, body) = app.move_to(issue, s.light, &s.officer).await;
    assert_eq!(status, 200, "{body}");
    let opened = id(&body, "issue_id");
    assert_ne!(opened, issue);
    assert_eq!(
        (body["status"].as_str(), body["category_name"].as_str()),
        (Some("open"), Some("Lighting"))
    );
    // The Roads officer lost it, the Lighting officer has it.
    assert!(ids(&app.admin_list("", &s.officer).await).is_empty());
    let (status, body) = app
        .get_as(&format!("/admin/reports/{report}/issues"), Some(&s.officer))
        .await;
    assert_error(status, &body, 404, "REPORT_NOT_FOUND");
    let light = app.officer("o-light");
    let body = app.admin_issues(report, &light).await;
    assert_eq!(body["issues"].as_array().unwrap().len(), 1);
    assert_eq!(body["issues"][0]["issue_id"], opened.to_string());
    assert_eq!(
        app.get_ok(&format!("/reports/{report}")).await["status"],
        "open"
    );
    assert!(steps(&app.get_ok(&format!("/reports/{report}/status")).await).is_empty());
    // The moved issue answers 409 to every step, for the boss too.
    for action in ["accept", "resolve"] {
        let (status, body) = app.step(issue, action, &app.boss()).await;
        assert_error(status, &body, 409, "ISSUE_TRANSITION_NOT_ALLOWED");
    }
    let (status, body) = app.move_to(issue, s.roads, &app.boss()).await;
    assert_error(status, &body, 409, "ISSUE_TRANSITION_NOT_ALLOWED");
    // An accepted issue may move on; the new one starts open.
    assert_eq!(app.step(opened, "accept", &light).await.0, 200);
    let (status, body) = app.move_to(opened, s.roads, &light).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        app.get_ok(&format!("/reports/{report}")).await["status"],
        "open"
    );
    // The accepted step of the issue moved on stays in the timeline.
    assert_eq!(
        steps(&app.get_ok(&format!("/reports/{report}/status")).await).len(),
        1
    );
}

async fn duplicate_takes_over_the_parents_statements(app: TestApp) {
    let s = setup(&app).await;
    let (_, parent) = filed_in(&app, "Pothole", 1, s.roads).await;
    let (dup_report, dup) = filed_in(&app, "Same pothole", 2, s.roads).await;
    let (status, body) = app
        .statement(
            parent,
            form("ignored", "x").text("text", "Crew sent"),
            &s.officer,
        )
        .await;
    assert_eq!(status, 400, "title is no field of a statement: {body}");
    let (status, body) = app
        .statement(
            parent,
            reqwest::multipart::Form::new().text("text", "Crew sent"),
            &s.officer,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    app.clock.set(app.time(40));
    let (status, body) = app.mark_duplicate(dup, parent, &s.officer).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "duplicate");
    assert_eq!(body["parent_id"], parent.to_string());
    assert_eq!(body["has_possible_duplicates"], false);
    let timeline = app.get_ok(&format!("/reports/{dup_report}/status")).await;
    assert_eq!(
        steps(&timeline),
        [("duplicate".into(), "Roads".into(), at(&app, 40))]
    );
    assert_eq!(
        timeline["statuses"][0]["statements"][0]["text"],
        "Crew sent"
    );
    assert_eq!(
        app.get_ok(&format!("/reports/{dup_report}")).await["status"],
        "duplicate"
    );
    // A duplicate can be moved on; a duplicate cannot be a parent.
    let (_, third) = filed_in(&app, "Third", 3, s.roads).await;
    let (status, body) = app.mark_duplicate(third, dup, &s.officer).await;
    assert_error(status, &body, 409, "ISSUE_TRANSITION_NOT_ALLOWED");
}

async fn refused_transitions_are_409_and_change_nothing(app: TestApp) {
    let s = setup(&app).await;
    let (report, issue) = filed_in(&app, "Pothole", 1, s.roads).await;
    let o = &s.officer;
    let refused = |(status, body): (u16, Value)| {
        assert_error(status, &body, 409, "ISSUE_TRANSITION_NOT_ALLOWED");
    };
    // open: resolve refused; accepted: accept refused; resolved: accept, resolve, move refused.
    refused(app.step(issue, "resolve", o).await);
    app.step(issue, "accept", o).await;
    refused(app.step(issue, "accept", o).await);
    app.step(issue, "resolve", o).await;
    refused(app.step(issue, "accept", o).await);
    refused(app.step(issue, "resolve", o).await);
    refused(app.move_to(issue, s.light, o).await);
    refused(app.mark_duplicate(issue, issue, o).await);
    let body = app.admin_issues(report, o).await;
    assert_eq!(body["issues"][0]["status"], "resolved");
    assert_eq!(body["issues"].as_array().unwrap().len(), 1);
    // A resolved issue may still be a parent; a moved one may not be one or become a duplicate.
    let (_, other) = filed_in(&app, "Other", 2, s.roads).await;
    let (status, _) = app.mark_duplicate(other, issue, o).await;
    assert_eq!(status, 200);
    let (moved_report, moved) = filed_in(&app, "Moved", 3, s.roads).await;
    let (_, fresh) = app.move_to(moved, s.roads, o).await;
    let fresh = id(&fresh, "issue_id");
    refused(app.mark_duplicate(fresh, moved, o).await);
    refused(app.mark_duplicate(moved, issue, o).await);
    // Nothing changed: one open issue.
    let body = app.admin_issues(moved_report, o).await;
    assert_eq!(body["issues"].as_array().unwrap().len(), 1);
    assert_eq!(body["issues"][0]["status"], "open");
    let timeline = app.get_ok(&format!("/reports/{moved_report}/status")).await;
    assert!(steps(&timeline).is_empty());
    // The userinfo tells why, in the caller's language.
    let response = app
        .http
        .post(format!("{}/admin/issues/{issue}/accept", app.base))
        .bearer_auth(o)
        .header("Accept-Language", "cs")
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert!(
        body["userinfo"].as_str().unwrap().contains("přijmout"),
        "{body}"
    );
    let _ = TimeDelta::zero();
}

async fn another_categorys_issue_is_never_seen_or_changed(app: TestApp) {
    let s = setup(&app).await;
    let (report, issue) = filed_in(&app, "Pothole", 1, s.roads).await;
    let (_, light_issue) = filed_in(&app, "Lamp", 2, s.light).await;
    let light = app.officer("o-light");
    let not_found = |(status, body): (u16, Value)| {
        assert_error(status, &body, 404, "ISSUE_NOT_FOUND");
    };
    not_found(app.step(issue, "accept", &light).await);
    not_found(app.move_to(issue, s.light, &light).await);
    not_found(app.mark_duplicate(issue, light_issue, &light).await);
    // The parent must be in the caller's categories too.
    not_found(app.mark_duplicate(light_issue, issue, &light).await);
    not_found(
        app.statement(
            issue,
            reqwest::multipart::Form::new().text("text", "x"),
            &light,
        )
        .await,
    );
    not_found(
        app.request(
            Method::DELETE,
            &format!("/admin/issues/{issue}/duplicate-suggestions"),
            Some(&light),
            None,
        )
        .await,
    );
    not_found(
        app.get_as(
            &format!("/admin/issues/{issue}/duplicate-suggestions"),
            Some(&light),
        )
        .await,
    );
    let (status, body) = app
        .get_as(&format!("/admin/reports/{report}/issues"), Some(&light))
        .await;
    assert_error(status, &body, 404, "REPORT_NOT_FOUND");
    // Unknown and malformed ids answer the same.
    not_found(app.step(Uuid::now_v7(), "accept", &light).await);
    not_found(
        app.request(
            Method::POST,
            "/admin/issues/not-a-uuid/accept",
            Some(&light),
            None,
        )
        .await,
    );
    // Nothing changed.
    let body = app.admin_issues(report, &s.officer).await;
    assert_eq!(body["issues"][0]["status"], "open");
    // The boss works every category; a target category that does not exist is 404.
    assert_eq!(app.step(issue, "accept", &app.boss()).await.0, 200);
    let (status, body) = app.move_to(issue, Uuid::now_v7(), &app.boss()).await;
    assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
    // Scopes: read only cannot act; no token is 401; a bad body is 400.
    let reader = app.token("o-roads", &[READ]);
    let (status, body) = app.step(issue, "resolve", &reader).await;
    assert_error(status, &body, 403, "FORBIDDEN");
    let (status, body) = app
        .request(
            Method::POST,
            &format!("/admin/issues/{issue}/resolve"),
            None,
            None,
        )
        .await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
    let (status, body) = app
        .send_json(
            Method::POST,
            &format!("/admin/issues/{issue}/move"),
            &s.officer,
            &json!({"category": "x"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

/// The scope is checked before the body is read, as on the editors' routes: a caller without it
/// gets 403 whatever the body (not JSON, malformed, or of the wrong shape), never a validation
/// answer about it.
async fn a_caller_without_the_scope_learns_nothing_from_the_body(app: TestApp) {
    let s = setup(&app).await;
    let (report, issue) = filed_in(&app, "Pothole", 1, s.roads).await;
    let reader = app.token("o-roads", &[READ]);
    let bodies = [
        ("text/plain", "accept this".to_string()),
        ("application/json", "{\"category_id\":".to_string()),
        ("application/json", json!({"category": "x"}).to_string()),
        (
            "application/json",
            json!({"category_id": s.light}).to_string(),
        ),
    ];
    let routes = [
        (Method::POST, format!("/admin/issues/{issue}/move"), &reader),
        (
            Method::POST,
            format!("/admin/issues/{issue}/duplicate-of"),
            &reader,
        ),
        (
            Method::POST,
            format!("/admin/reports/{report}/issues"),
            &reader,
        ),
        (
            Method::PUT,
            format!("/admin/reports/{report}/explicit"),
            &reader,
        ),
        // The officer works Roads but may not manage categories.
        (
            Method::POST,
            "/admin/report-categories".to_string(),
            &s.officer,
        ),
        (
            Method::PATCH,
            format!("/admin/report-categories/{}", s.roads),
            &s.officer,
        ),
    ];
    for (method, path, token) in &routes {
        for (content_type, body) in &bodies {
            let response = app
                .http
                .request(method.clone(), format!("{}{path}", app.base))
                .bearer_auth(token)
                .header("content-type", *content_type)
                .body(body.clone())
                .send()
                .await
                .expect("request");
            let status = response.status().as_u16();
            let answer: Value = response.json().await.expect("error body");
            assert_error(status, &answer, 403, "FORBIDDEN");
        }
    }
    // Nothing changed: the issue is still open in Roads, the report not explicit.
    let body = app.admin_issues(report, &s.officer).await;
    assert_eq!(body["issues"].as_array().map(Vec::len), Some(1), "{body}");
    assert_eq!(body["issues"][0]["status"], "open", "{body}");
}
