//! Erasing a subject's data (`DELETE /me`, and the operator's `citizen-api erase` through
//! `app::erasure`): afterwards no column of any table holds the subject's identifiers, its
//! reports still answer with their timelines, and every other account's data and vote pool are
//! as they were.

use std::collections::BTreeSet;

use citizen_api::app::erasure::{Erasure, Photos};
use citizen_api::media::MediaStore;
use citizen_api::store;
use reqwest::Method;
use serde_json::{json, Value};
use service_kit::clock::Clock;
use service_kit::db::{Database, DatabaseSettings};
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::delivery_helpers::stand_in;
use crate::helpers::{assert_error, TestApp};
use crate::privacy_helpers::{file_with_photo, start_export, two_citizens};

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    a_citizen_erased_leaves_no_trace_and_others_keep_theirs,
    an_erasure_needs_its_confirmation_and_no_staff_scope,
    an_operator_erases_an_officer_whose_audit_trail_names_a_pseudonym,
    the_photos_named_go_and_the_others_stay,
);

const CITIZEN: &str = "citizen-erase-a1";
const CITIZEN_EMAIL: &str = "erase-a1@example.org";
const OTHER: &str = "citizen-keep-b2";
const OTHER_EMAIL: &str = "keep-b2@example.org";

/// Every `table.column` whose value, as text, contains `needle`.
pub async fn columns_holding(app: &TestApp, needle: &str) -> BTreeSet<String> {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    let db = Database::connect(&settings, store::SCHEMA).await.unwrap();
    let pattern = format!("%{needle}%");
    let columns: Vec<(String, String)> = match &db {
        Database::Postgres(pool) => sqlx::query_as(
            "SELECT table_name::text, column_name::text FROM information_schema.columns \
             WHERE table_schema = $1",
        )
        .bind(store::SCHEMA)
        .fetch_all(pool)
        .await
        .unwrap(),
        Database::Sqlite(pool) => sqlx::query_as(
            "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c \
             WHERE m.type = 'table'",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
    };
    assert!(columns.len() > 50, "{columns:?}");
    let mut found = BTreeSet::new();
    for (table, column) in columns {
        let sql =
            format!(r#"SELECT count(*) FROM "{table}" WHERE CAST("{column}" AS TEXT) LIKE $1"#);
        let n: Result<i64, _> = match &db {
            Database::Postgres(pool) => {
                sqlx::query_scalar(&sql)
                    .bind(&pattern)
                    .fetch_one(pool)
                    .await
            }
            Database::Sqlite(pool) => {
                sqlx::query_scalar(&sql)
                    .bind(&pattern)
                    .fetch_one(pool)
                    .await
            }
        };
        if n.unwrap() > 0 {
            found.insert(format!("{table}.{column}"));
        }
    }
    db.close().await;
    found
}

fn set(columns: &[&str]) -> BTreeSet<String> {
    columns.iter().map(|c| (*c).to_owned()).collect()
}

/// What `citizen-api erase --subject <subject>` runs, keeping the photos.
async fn erase_as_operator(app: &TestApp, subject: &str) -> Erasure {
    let media = MediaStore::new(&app.settings.media).unwrap();
    citizen_api::app::erasure::erase(app.stores.privacy.as_ref(), &media, subject, &Photos::Keep)
        .await
        .unwrap()
}

async fn erase_me(app: &TestApp, token: &str, body: &Value) -> (u16, Value) {
    app.send_json(Method::DELETE, "/me", token, body).await
}

async fn get_own(app: &TestApp, path: &str, subject: &str) -> Value {
    let (status, body) = app.get_as(path, Some(&app.token(subject, &[]))).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

async fn summary(app: &TestApp, subject: &str) -> Value {
    get_own(app, "/me/vote-tokens-summary", subject).await
}

async fn a_citizen_erased_leaves_no_trace_and_others_keep_theirs(app: TestApp) {
    let push = stand_in(201).await;
    let (me, them, _) = two_citizens(
        &app,
        &push,
        (CITIZEN, CITIZEN_EMAIL, "Pothole"),
        (OTHER, OTHER_EMAIL, "Broken bench"),
    )
    .await;
    let (mine, my_photo, endpoint) = (me.report, me.photo, me.endpoint);
    let (theirs, their_photo, their_endpoint) = (them.report, them.photo, them.endpoint);
    start_export(&app, CITIZEN).await;
    let before = columns_holding(&app, CITIZEN).await;
    for column in [
        "reports.author",
        "issues.author",
        "issue_changes.actor",
        "vote_tokens.subject",
        "vote_accounts.subject",
        "email_subscriptions.subject",
        "webpush_subscriptions.subject",
        "notification_settings.subject",
        "notifications.subject",
        "news_subscriptions.subject",
        "notification_deliveries.target",
        "data_exports.subject",
    ] {
        assert!(before.contains(column), "{column} not in {before:?}");
    }
    assert!(!columns_holding(&app, CITIZEN_EMAIL).await.is_empty());
    assert!(!columns_holding(&app, &endpoint).await.is_empty());
    let their_before = (
        columns_holding(&app, OTHER).await,
        columns_holding(&app, OTHER_EMAIL).await,
        columns_holding(&app, &their_endpoint).await,
    );
    let (_, their_report_before) = app.get(&format!("/reports/{theirs}")).await;

    let token = app.token(CITIZEN, &[]);
    let confirmed = json!({"confirm": "ERASE", "remove_photos": true});
    let (status, body) = erase_me(&app, &token, &confirmed).await;
    assert_eq!((status, body), (204, Value::Null));

    for needle in [CITIZEN, CITIZEN_EMAIL, endpoint.as_str()] {
        assert_eq!(
            columns_holding(&app, needle).await,
            BTreeSet::new(),
            "{needle}"
        );
    }
    // The report stays public, without its photo, with its timeline.
    let (status, report) = app.get(&format!("/reports/{mine}")).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["media"], json!([]));
    assert_eq!(report["votes_count"], 1, "the other citizen's vote counts");
    let (status, timeline) = app.get(&format!("/reports/{mine}/status")).await;
    assert_eq!(status, 200, "{timeline}");
    assert!(timeline.to_string().contains("accepted"), "{timeline}");
    let files = app.stored_files();
    assert!(!files
        .iter()
        .any(|f| f.to_string_lossy().contains(&my_photo.to_string())));
    assert!(files
        .iter()
        .any(|f| f.to_string_lossy().contains(&their_photo.to_string())));
    // The erased votes no longer count; the other account and its report are as they were.
    let (_, their_report) = app.get(&format!("/reports/{theirs}")).await;
    assert_eq!(their_report["votes_count"], 0);
    assert_eq!(their_report_before["votes_count"], 2);
    assert_eq!(their_report["media"], their_report_before["media"]);
    let their_after = (
        columns_holding(&app, OTHER).await,
        columns_holding(&app, OTHER_EMAIL).await,
        columns_holding(&app, &their_endpoint).await,
    );
    assert_eq!(their_after, their_before);
    assert_eq!(
        summary(&app, OTHER).await["active_tokens"],
        1,
        "the other pool"
    );
    // Signing in again: an empty account with a whole pool, no reports of its own.
    let mine_now = summary(&app, CITIZEN).await;
    assert_eq!(mine_now["active_tokens"], 0);
    assert_eq!(mine_now["available_tokens"], mine_now["max_count"]);
    let own = get_own(&app, "/me/reports", CITIZEN).await;
    assert_eq!(own["reports"], json!([]), "{own}");
    // Erasing again answers the same.
    let (status, body) = erase_me(&app, &token, &confirmed).await;
    assert_eq!((status, body), (204, Value::Null));
}

async fn an_erasure_needs_its_confirmation_and_no_staff_scope(app: TestApp) {
    let (mine, _) = file_with_photo(&app, CITIZEN, "Pothole").await;
    let token = app.token(CITIZEN, &[]);
    for wrong in [
        json!({"confirm": "erase"}),
        json!({"confirm": ""}),
        json!({"remove_photos": true}),
        json!({"confirm": "ERASE", "x": 1}),
        json!({"confirm": "ERASE", "remove_photos": "yes"}),
    ] {
        let (status, body) = erase_me(&app, &token, &wrong).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    let response = app
        .http
        .delete(format!("{}/me", app.base))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{\"confirm\": ")
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert_error(status, &response.json().await.unwrap(), 400, "INVALID_JSON");
    let (status, body) = app
        .request(
            Method::DELETE,
            "/me",
            None,
            Some(&json!({"confirm": "ERASE"})),
        )
        .await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
    let staff = app.token(CITIZEN, &["cityuser:news:manage"]);
    let (status, body) = erase_me(&app, &staff, &json!({"confirm": "ERASE"})).await;
    assert_error(status, &body, 403, "FORBIDDEN");
    // Nothing was erased by the refused requests.
    let own = get_own(&app, "/me/reports", CITIZEN).await;
    assert_eq!(own["reports"][0]["id"], mine.to_string(), "{own}");
    assert_eq!(app.stored_files().len(), 1);
}

async fn an_operator_erases_an_officer_whose_audit_trail_names_a_pseudonym(app: TestApp) {
    let officer = "officer-erase-o7";
    let roads = app.admin_category("Roads", None).await;
    app.assign(officer, roads).await;
    let (report, _) = file_with_photo(&app, CITIZEN, "Pothole").await;
    let issues = app.admin_issues(report, &app.boss()).await;
    let (_, moved) = app
        .move_to(id(&issues["issues"][0], "issue_id"), roads, &app.boss())
        .await;
    let issue = id(&moved, "issue_id");
    let o = app.officer(officer);
    let (status, body) = app.step(issue, "accept", &o).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .statement(
            issue,
            reqwest::multipart::Form::new().text("text", "Crew sent"),
            &o,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let before = columns_holding(&app, officer).await;
    assert_eq!(
        before,
        set(&[
            "admin_events.detail",
            "category_officers.subject",
            "issue_changes.actor",
            "statements.author"
        ])
    );

    let held = citizen_api::app::export::subject_report(&app.stores, officer, app.clock.now())
        .await
        .unwrap()
        .to_string();
    assert!(
        held.contains("report categories assigned: Roads\n"),
        "{held}"
    );
    assert!(
        held.contains("audit rows naming the subject: 3\n"),
        "{held}"
    );
    let erased = erase_as_operator(&app, officer).await;
    assert_eq!(
        (erased.assignments, erased.audit_rows),
        (1, 3),
        "{erased:?}"
    );
    assert_eq!(columns_holding(&app, officer).await, BTreeSet::new());
    // The audit trail keeps every action, by one pseudonym; the citizen's filing is untouched.
    let (status, audit) = app
        .get_as(&format!("/admin/reports/{report}/audit"), Some(&app.boss()))
        .await;
    assert_eq!(status, 200, "{audit}");
    let actors: Vec<(&str, &str)> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["actor"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let p = erased.pseudonym.as_str();
    assert!(p.starts_with("erased-"), "{p}");
    assert!(actors.contains(&("status:accepted", p)), "{actors:?}");
    assert!(actors.contains(&("statement", p)), "{actors:?}");
    assert!(actors.contains(&("status:open", CITIZEN)), "{actors:?}");
    let assigned = columns_holding(&app, p).await;
    assert_eq!(
        assigned,
        set(&[
            "admin_events.detail",
            "issue_changes.actor",
            "statements.author"
        ])
    );
    // Erasing again finds nothing.
    let again = erase_as_operator(&app, officer).await;
    assert_eq!(
        (
            again.assignments,
            again.audit_rows,
            again.reports,
            again.vote_tokens
        ),
        (0, 0, 0, 0)
    );
}

async fn the_photos_named_go_and_the_others_stay(app: TestApp) {
    let (first, gone) = file_with_photo(&app, CITIZEN, "Pothole").await;
    let (second, kept) = file_with_photo(&app, CITIZEN, "Bench").await;
    let (_, theirs) = file_with_photo(&app, OTHER, "Graffiti").await;
    let token = app.token(CITIZEN, &[]);
    let body = json!({"confirm": "ERASE", "remove_photos": [gone, theirs]});
    let (status, body) = erase_me(&app, &token, &body).await;
    assert_eq!((status, body), (204, Value::Null));
    let photos = |report: &Value| report["media"].as_array().unwrap().len();
    assert_eq!(photos(&app.get_ok(&format!("/reports/{first}")).await), 0);
    assert_eq!(photos(&app.get_ok(&format!("/reports/{second}")).await), 1);
    let files: Vec<String> = app
        .stored_files()
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    for (id, stored) in [(gone, false), (kept, true), (theirs, true)] {
        let found = files.iter().any(|f| f.contains(&id.to_string()));
        assert_eq!(found, stored, "{id}: {files:?}");
    }
}
