//! Report categories and officer assignments through the admin API.

use reqwest::Method;
use serde_json::{json, Value};
use service_kit::db::{Database, DatabaseSettings};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, MANAGE, READ};
use crate::helpers::{assert_error, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    categories_are_created_changed_and_deleted,
    the_default_moves_but_never_disappears,
    officers_are_assigned_and_taken_off,
    every_category_change_is_in_the_audit_trail,
    the_description_groups_the_admin_routes,
);

fn names(body: &Value) -> Vec<(String, bool, Value)> {
    body["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                c["is_default"].as_bool().unwrap(),
                c["statement_deadline_days"].clone(),
            )
        })
        .collect()
}

async fn categories_are_created_changed_and_deleted(app: TestApp) {
    let boss = app.boss();
    let roads = app.admin_category("Roads", Some(5)).await;
    let (status, body) = app
        .get_as("/admin/report-categories", Some(&app.officer("o")))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        names(&body),
        [
            ("Roads".into(), false, json!(5)),
            (
                app.settings.reports.default_category_name.clone(),
                true,
                Value::Null
            )
        ]
    );
    // Validation and conflicts.
    for (body, name) in [
        (json!({"name": "  "}), "VALIDATION_ERROR"),
        (json!({"name": "x".repeat(101)}), "VALIDATION_ERROR"),
        (
            json!({"name": "Parks", "statement_deadline_days": 0}),
            "VALIDATION_ERROR",
        ),
        (
            json!({"name": "Parks", "statement_deadline_days": 3651}),
            "VALIDATION_ERROR",
        ),
        (json!({"name": "Parks", "color": "red"}), "VALIDATION_ERROR"),
    ] {
        let (status, answer) = app
            .send_json(Method::POST, "/admin/report-categories", &boss, &body)
            .await;
        assert_error(status, &answer, 400, name);
    }
    let (status, body) = app
        .send_json(
            Method::POST,
            "/admin/report-categories",
            &boss,
            &json!({"name": " Roads "}),
        )
        .await;
    assert_error(status, &body, 409, "CONFLICT");
    let (status, body) = app
        .send_json(
            Method::POST,
            "/admin/report-categories",
            &app.officer("o"),
            &json!({"name": "Parks"}),
        )
        .await;
    assert_error(status, &body, 403, "FORBIDDEN");
    // Changes: name, deadline, deadline removed; absent fields stay.
    let path = format!("/admin/report-categories/{roads}");
    let (status, body) = app
        .send_json(Method::PATCH, &path, &boss, &json!({"name": "Streets"}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (
            body["name"].as_str(),
            body["statement_deadline_days"].as_u64()
        ),
        (Some("Streets"), Some(5))
    );
    let (_, body) = app
        .send_json(
            Method::PATCH,
            &path,
            &boss,
            &json!({"statement_deadline_days": null}),
        )
        .await;
    assert_eq!(body["statement_deadline_days"], Value::Null);
    assert_eq!(body["name"], "Streets");
    let (status, body) = app
        .patch_category(Uuid::now_v7(), &boss, &json!({"name": "X"}))
        .await;
    assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
    // A body that is no object is refused, though serde would read a struct from an array.
    let (status, body) = app
        .send_json(Method::PATCH, &path, &boss, &json!([null, null]))
        .await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    // Deleting: an unused one goes; one that ever had an issue stays.
    let parks = app.admin_category("Parks", None).await;
    let (status, _) = app.delete_category(parks, &boss).await;
    assert_eq!(status, 204);
    let filed = app.file(Filing::new("Hole", 1)).await;
    let (_, moved) = app.move_to(filed.issue, roads, &boss).await;
    let greenery = app.admin_category("Greenery", None).await;
    app.move_to(id(&moved, "issue_id"), greenery, &boss).await;
    let (status, body) = app.request(Method::DELETE, &path, Some(&boss), None).await;
    assert_error(status, &body, 409, "CATEGORY_IN_USE");
    let (status, body) = app.delete_category(parks, &boss).await;
    assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
}

async fn the_default_moves_but_never_disappears(app: TestApp) {
    let boss = app.boss();
    let (_, body) = app.get_as("/admin/report-categories", Some(&boss)).await;
    let old_default = id(&body["categories"][0], "category_id");
    let (status, body) = app
        .patch_category(old_default, &boss, &json!({"is_default": false}))
        .await;
    assert_error(status, &body, 409, "CONFLICT");
    let (status, body) = app.delete_category(old_default, &boss).await;
    assert_error(status, &body, 409, "CONFLICT");
    // A new default: the former one stops being one, and new reports are placed there.
    let (status, body) = app
        .send_json(
            Method::POST,
            "/admin/report-categories",
            &boss,
            &json!({"name": "Inbox", "is_default": true}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["is_default"], true);
    let (_, body) = app.get_as("/admin/report-categories", Some(&boss)).await;
    let defaults: Vec<_> = names(&body).into_iter().filter(|c| c.1).collect();
    assert_eq!(defaults.len(), 1);
    assert_eq!(defaults[0].0, "Inbox");
    let filed = app.file(Filing::new("Hole", 1)).await;
    let issues = app.admin_issues(filed.report, &boss).await;
    assert_eq!(issues["issues"][0]["category_name"], "Inbox");
    // And back.
    let (status, body) = app
        .patch_category(old_default, &boss, &json!({"is_default": true}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = app.get_as("/admin/report-categories", Some(&boss)).await;
    assert_eq!(names(&body).iter().filter(|c| c.1).count(), 1);
}

async fn officers_are_assigned_and_taken_off(app: TestApp) {
    let boss = app.boss();
    let roads = app.admin_category("Roads", None).await;
    let path = format!("/admin/report-categories/{roads}/officers");
    app.assign("o-2", roads).await;
    app.assign("o-1", roads).await;
    app.assign("o-1", roads).await;
    let (status, body) = app.get_as(&path, Some(&boss)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["officers"], json!(["o-1", "o-2"]));
    let (_, mine) = app
        .get_as(
            "/me/reports-categories",
            Some(&app.token("o-1", &[READ, MANAGE])),
        )
        .await;
    assert_eq!(mine["categories"][0]["name"], "Roads");
    let (status, _) = app
        .request(Method::DELETE, &format!("{path}/o-1"), Some(&boss), None)
        .await;
    assert_eq!(status, 204);
    let (status, _) = app
        .request(Method::DELETE, &format!("{path}/o-1"), Some(&boss), None)
        .await;
    assert_eq!(status, 204, "idempotent");
    let (_, body) = app.get_as(&path, Some(&boss)).await;
    assert_eq!(body["officers"], json!(["o-2"]));
    // Unknown category, missing scope.
    let unknown = format!("/admin/report-categories/{}/officers", Uuid::now_v7());
    let (status, body) = app.get_as(&unknown, Some(&boss)).await;
    assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
    let (status, body) = app
        .request(Method::PUT, &format!("{unknown}/o-1"), Some(&boss), None)
        .await;
    assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
    let (status, body) = app.get_as(&path, Some(&app.officer("o-2"))).await;
    assert_error(status, &body, 403, "FORBIDDEN");
}

/// The actions of the audit entries without a report (categories and assignments), by actor.
async fn category_actions(app: &TestApp) -> Vec<(String, String)> {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    let sql = "SELECT actor, action FROM admin_events WHERE report_id IS NULL ORDER BY id";
    match Database::connect(&settings, citizen_api::store::SCHEMA)
        .await
        .unwrap()
    {
        Database::Postgres(pool) => sqlx::query_as(sql).fetch_all(&pool).await.unwrap(),
        Database::Sqlite(pool) => sqlx::query_as(sql).fetch_all(&pool).await.unwrap(),
    }
}

/// Each change of a category or an assignment is recorded with its actor, in the change's own
/// transaction; a refused change and a removal of nobody record nothing.
async fn every_category_change_is_in_the_audit_trail(app: TestApp) {
    let boss = app.boss();
    let roads = app.admin_category("Roads", None).await;
    let (status, body) = app
        .patch_category(roads, &boss, &json!({"is_default": true}))
        .await;
    assert_eq!(status, 200, "{body}");
    let officers = format!("/admin/report-categories/{roads}/officers");
    // Assigning twice is one assignment, recorded once.
    app.assign("o-1", roads).await;
    app.assign("o-1", roads).await;
    for expected in [204, 204] {
        let (status, _) = app
            .request(
                Method::DELETE,
                &format!("{officers}/o-1"),
                Some(&boss),
                None,
            )
            .await;
        assert_eq!(status, expected);
    }
    // Refused: the default cannot be deleted.
    let (status, body) = app.delete_category(roads, &boss).await;
    assert_error(status, &body, 409, "CONFLICT");
    let parks = app.admin_category("Parks", None).await;
    let (status, _) = app.delete_category(parks, &boss).await;
    assert_eq!(status, 204);
    let actions: Vec<String> = category_actions(&app)
        .await
        .into_iter()
        .map(|(actor, action)| {
            assert_eq!(actor, "boss");
            action
        })
        .collect();
    assert_eq!(
        actions,
        [
            "category_created",
            "category_updated",
            "officer_assigned",
            "officer_removed",
            "category_created",
            "category_deleted",
        ]
    );
}

async fn the_description_groups_the_admin_routes(app: TestApp) {
    let doc = app.get_ok("/docs/openapi.json").await;
    for (path, method) in [
        ("/admin/reports", "get"),
        ("/admin/reports/{reportId}/issues", "get"),
        ("/admin/reports/{reportId}/issues", "post"),
        ("/admin/reports/{reportId}/audit", "get"),
        ("/admin/reports/{reportId}/explicit", "put"),
        ("/admin/reports/{reportId}/media/{mediaId}", "delete"),
        ("/admin/issues/{issueId}/accept", "post"),
        ("/admin/issues/{issueId}/resolve", "post"),
        ("/admin/issues/{issueId}/move", "post"),
        ("/admin/issues/{issueId}/duplicate-of", "post"),
        ("/admin/issues/{issueId}/duplicate-suggestions", "get"),
        ("/admin/issues/{issueId}/duplicate-suggestions", "delete"),
        ("/admin/issues/{issueId}/statements", "post"),
        ("/admin/report-categories", "get"),
        ("/admin/report-categories", "post"),
        ("/admin/report-categories/{categoryId}", "patch"),
        ("/admin/report-categories/{categoryId}", "delete"),
        ("/admin/report-categories/{categoryId}/officers", "get"),
        (
            "/admin/report-categories/{categoryId}/officers/{subject}",
            "put",
        ),
        (
            "/admin/report-categories/{categoryId}/officers/{subject}",
            "delete",
        ),
    ] {
        let op = &doc["paths"][path][method];
        assert_eq!(op["tags"], json!(["admin"]), "{method} {path}");
    }
    let text = doc.to_string();
    for name in [
        "ISSUE_NOT_FOUND",
        "ISSUE_TRANSITION_NOT_ALLOWED",
        "MEDIA_NOT_FOUND",
        "CATEGORY_NOT_FOUND",
        "CATEGORY_IN_USE",
        "CONFLICT",
    ] {
        assert!(text.contains(name), "{name} missing");
    }
}
