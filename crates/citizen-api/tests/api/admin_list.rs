//! `GET /admin/reports`: one row per report with the issues the officer may see, every filter
//! selecting reports by an accessible matching issue, access by category and scope.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::json;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, ids, row_issues, titles, READ};
use crate::helpers::{assert_error, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    rows_hold_the_accessible_issues_and_their_derived_status,
    scopes_and_categories_decide_what_is_listed,
    status_and_category_filters_select_reports_not_issues,
    q_dates_location_and_paging,
    overdue_is_past_the_category_deadline_and_unresolved,
);

/// Roads (deadline 3 days, officer `o-roads`) and Lighting (no deadline, `o-light`); reports
/// A (in Roads), B (Roads and Lighting), C (Lighting), D (still in the default category), filed
/// at seconds 1–4; the workflow at second 10.
pub struct City {
    pub roads: Uuid,
    pub light: Uuid,
    pub a: Uuid,
    pub b: Uuid,
    pub c: Uuid,
    pub d: Uuid,
    pub a_roads: Uuid,
    pub b_roads: Uuid,
    pub b_light: Uuid,
}

pub async fn city(app: &TestApp) -> City {
    let roads = app.admin_category("Roads", Some(3)).await;
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-roads", roads).await;
    app.assign("o-light", light).await;
    let a = app
        .file(Filing::new("Alpha pothole", 1).at(14.42, 50.08))
        .await;
    let b = app
        .file(Filing::new("Bravo lamp and hole", 2).at(14.43, 50.09))
        .await;
    let c = app.file(Filing::new("Charlie lamp", 3)).await;
    let d = app
        .file(Filing::new("Delta bench", 4).at(14.60, 50.20))
        .await;
    app.clock.set(app.time(10));
    let boss = app.boss();
    let (_, moved) = app.move_to(a.issue, roads, &boss).await;
    let a_roads = id(&moved, "issue_id");
    let (_, moved) = app.move_to(b.issue, roads, &boss).await;
    let b_roads = id(&moved, "issue_id");
    let (status, opened) = app
        .send_json(
            Method::POST,
            &format!("/admin/reports/{}/issues", b.report),
            &boss,
            &json!({ "category_id": light }),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let b_light = id(&opened, "issue_id");
    app.move_to(c.issue, light, &boss).await;
    City {
        roads,
        light,
        a: a.report,
        b: b.report,
        c: c.report,
        d: d.report,
        a_roads,
        b_roads,
        b_light,
    }
}

pub fn s(v: &[Uuid]) -> Vec<String> {
    v.iter().map(Uuid::to_string).collect()
}

async fn rows_hold_the_accessible_issues_and_their_derived_status(app: TestApp) {
    let c = city(&app).await;
    let boss = app.boss();
    let body = app.admin_list("", &boss).await;
    assert_eq!(ids(&body), s(&[c.d, c.c, c.b, c.a]));
    assert_eq!(
        row_issues(&body, c.b),
        [
            ("Roads".into(), "open".into()),
            ("Lighting".into(), "open".into())
        ]
    );
    // The moved issue of A is never shown.
    assert_eq!(
        row_issues(&body, c.a),
        [("Roads".into(), "open".to_string())]
    );
    let row = &body["reports"][2];
    assert!(
        row.get("issue_id").is_none() && row.get("category_id").is_none(),
        "{row}"
    );
    assert_eq!(row["status"], "open");
    assert_eq!(row["votes_count"], 0);
    let issue = &row["issues"][0];
    assert_eq!(issue["issue_id"], c.b_roads.to_string());
    assert_eq!(issue["category_id"], c.roads.to_string());
    assert_eq!(issue["has_possible_duplicates"], false);
    assert_eq!(
        issue["inserted_at"],
        app.time(10)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    assert_eq!(
        (body["limit"].as_u64(), body["offset"].as_u64()),
        (Some(100), Some(0))
    );
    assert_eq!(body["hasNextOffset"], false);

    // The status is derived from the issues shown: accepted in Roads, open in Lighting.
    let o_roads = app.officer("o-roads");
    assert_eq!(app.step(c.b_roads, "accept", &o_roads).await.0, 200);
    let body = app.admin_list("", &boss).await;
    assert_eq!(body["reports"][2]["status"], "open");
    let body = app.admin_list("", &o_roads).await;
    assert_eq!(ids(&body), s(&[c.b, c.a]));
    assert_eq!(body["reports"][0]["status"], "accepted");
    assert_eq!(
        row_issues(&body, c.b),
        [("Roads".into(), "accepted".to_string())]
    );
    // Resolved only when every shown issue is.
    assert_eq!(app.step(c.b_roads, "resolve", &o_roads).await.0, 200);
    let body = app.admin_list("", &o_roads).await;
    assert_eq!(body["reports"][0]["status"], "resolved");
    let body = app.admin_list("", &boss).await;
    assert_eq!(body["reports"][2]["status"], "open");
    let o_light = app.officer("o-light");
    assert_eq!(app.step(c.b_light, "accept", &o_light).await.0, 200);
    let body = app.admin_list("", &boss).await;
    assert_eq!(body["reports"][2]["status"], "accepted");
}

async fn scopes_and_categories_decide_what_is_listed(app: TestApp) {
    let c = city(&app).await;
    let body = app.admin_list("", &app.officer("o-light")).await;
    assert_eq!(ids(&body), s(&[c.c, c.b]));
    assert_eq!(
        row_issues(&body, c.b),
        [("Lighting".into(), "open".to_string())]
    );
    // Read scope alone is enough to list.
    let reader = app.token("o-roads", &[READ]);
    assert_eq!(ids(&app.admin_list("", &reader).await), s(&[c.b, c.a]));
    // An officer of no category sees nothing; a category they are taken off is gone.
    assert_eq!(
        ids(&app.admin_list("", &app.officer("nobody")).await),
        Vec::<String>::new()
    );
    let (status, _) = app
        .request(
            Method::DELETE,
            &format!("/admin/report-categories/{}/officers/o-light", c.light),
            Some(&app.boss()),
            None,
        )
        .await;
    assert_eq!(status, 204);
    assert!(ids(&app.admin_list("", &app.officer("o-light")).await).is_empty());
    // The manage scope alone lists too (it is "everything read allows, plus the workflow");
    // with neither scope: 403; without a token: 401.
    let manager = app.token("o-roads", &["cityuser:reports:manage"]);
    assert_eq!(ids(&app.admin_list("", &manager).await), s(&[c.b, c.a]));
    let (status, body) = app
        .get_as(
            "/admin/reports",
            Some(&app.token("o-roads", &["cityuser:news:manage"])),
        )
        .await;
    assert_error(status, &body, 403, "FORBIDDEN");
    let (status, body) = app.get("/admin/reports").await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
    let _ = (c.d, c.roads);
}

async fn status_and_category_filters_select_reports_not_issues(app: TestApp) {
    let c = city(&app).await;
    let boss = app.boss();
    let o_roads = app.officer("o-roads");
    assert_eq!(app.step(c.b_roads, "accept", &o_roads).await.0, 200);
    let body = app.admin_list("status=accepted", &boss).await;
    assert_eq!(ids(&body), s(&[c.b]));
    // The filter selects the report; its issues array still holds every accessible issue.
    assert_eq!(
        row_issues(&body, c.b),
        [
            ("Roads".into(), "accepted".into()),
            ("Lighting".into(), "open".into())
        ]
    );
    assert_eq!(
        ids(&app.admin_list("status=open", &boss).await),
        s(&[c.d, c.c, c.b, c.a])
    );
    // An officer's filter only matches their own issues.
    assert_eq!(
        ids(&app.admin_list("status=open", &o_roads).await),
        s(&[c.a])
    );
    assert_eq!(
        ids(&app
            .admin_list("status=open&status=accepted", &o_roads)
            .await),
        s(&[c.b, c.a])
    );
    // Moved issues never match.
    assert!(ids(&app.admin_list("status=moved", &boss).await).is_empty());
    let body = app
        .admin_list(&format!("category={}", c.light), &boss)
        .await;
    assert_eq!(ids(&body), s(&[c.c, c.b]));
    assert_eq!(row_issues(&body, c.b).len(), 2);
    // Another category than the officer's own: nothing.
    assert!(ids(&app
        .admin_list(&format!("category={}", c.light), &o_roads)
        .await)
    .is_empty());
    // Category and status together must hold for one and the same issue.
    assert!(ids(&app
        .admin_list(&format!("category={}&status=accepted", c.light), &boss)
        .await)
    .is_empty());
    assert_eq!(
        ids(&app
            .admin_list(&format!("category={}&category={}", c.light, c.roads), &boss)
            .await),
        s(&[c.c, c.b, c.a])
    );
}

async fn q_dates_location_and_paging(app: TestApp) {
    let c = city(&app).await;
    let boss = app.boss();
    assert_eq!(
        titles(&app.admin_list("q=LAMP", &boss).await),
        ["Charlie lamp", "Bravo lamp and hole"]
    );
    assert!(ids(&app.admin_list("q=lamp", &app.officer("o-roads")).await) == s(&[c.b]));
    // A query that folds to nothing matches nothing, as in the public list and streets-api.
    for q in ["%25", "_", "!!!"] {
        assert!(
            ids(&app.admin_list(&format!("q={q}"), &boss).await).is_empty(),
            "q={q}"
        );
        let one_category = format!("q={q}&category={}", c.roads);
        assert!(
            ids(&app.admin_list(&one_category, &boss).await).is_empty(),
            "q={q}"
        );
    }
    let from = app.time(2).to_rfc3339().replace('+', "%2B");
    let to = app.time(3).to_rfc3339().replace('+', "%2B");
    assert_eq!(
        ids(&app
            .admin_list(&format!("dateFrom={from}&dateTo={to}"), &boss)
            .await),
        s(&[c.c, c.b])
    );
    // Within 2 km of A: A and B (C has no location, D is far).
    let body = app
        .admin_list("location=14.42,50.08,2000&orderBy=location", &boss)
        .await;
    assert_eq!(ids(&body), s(&[c.a, c.b]));
    assert_eq!(body["reports"][0]["distance"], 0.0);
    // Nearest first without a radius: rows without a location last.
    let body = app
        .admin_list("location=14.42,50.08&orderBy=location", &boss)
        .await;
    assert_eq!(ids(&body), s(&[c.a, c.b, c.d, c.c]));
    let body = app.admin_list("limit=2", &boss).await;
    assert_eq!(ids(&body), s(&[c.d, c.c]));
    assert_eq!(body["hasNextOffset"], true);
    let body = app.admin_list("limit=2&offset=2", &boss).await;
    assert_eq!(ids(&body), s(&[c.b, c.a]));
    assert_eq!(body["hasNextOffset"], false);
    assert_eq!(
        ids(&app.admin_list("orderDirection=asc", &boss).await),
        s(&[c.a, c.b, c.c, c.d])
    );
}

async fn overdue_is_past_the_category_deadline_and_unresolved(app: TestApp) {
    let c = city(&app).await;
    let boss = app.boss();
    // Placed into Roads at second 10; the deadline is 3 days.
    assert!(ids(&app.admin_list("overdue=true", &boss).await).is_empty());
    assert_eq!(
        ids(&app.admin_list("overdue=false", &boss).await),
        s(&[c.d, c.c, c.b, c.a])
    );
    let due = app.time(10) + TimeDelta::days(3);
    app.clock.set(due - TimeDelta::microseconds(1));
    assert!(ids(&app.admin_list("overdue=true", &boss).await).is_empty());
    app.clock.set(due);
    assert_eq!(
        ids(&app.admin_list("overdue=true", &boss).await),
        s(&[c.b, c.a])
    );
    // B is listed by its Lighting issue (no deadline) too; A has no issue within the deadline.
    assert_eq!(
        ids(&app.admin_list("overdue=false", &boss).await),
        s(&[c.d, c.c, c.b])
    );
    // Accepted is still unresolved; resolved is not overdue.
    let o_roads = app.officer("o-roads");
    app.step(c.a_roads, "accept", &o_roads).await;
    assert_eq!(
        ids(&app.admin_list("overdue=true", &o_roads).await),
        s(&[c.b, c.a])
    );
    app.step(c.a_roads, "resolve", &o_roads).await;
    assert_eq!(
        ids(&app.admin_list("overdue=true", &o_roads).await),
        s(&[c.b])
    );
    assert_eq!(
        ids(&app.admin_list("overdue=false", &o_roads).await),
        s(&[c.a])
    );
    // The Lighting officer has no overdue issue.
    assert!(ids(&app
        .admin_list("overdue=true", &app.officer("o-light"))
        .await)
    .is_empty());
    // Combined with status: an overdue issue that is open.
    assert_eq!(
        ids(&app.admin_list("overdue=true&status=open", &boss).await),
        s(&[c.b])
    );
    // A deadline set later counts from the placing, too.
    let (status, _) = app
        .send_json(
            Method::PATCH,
            &format!("/admin/report-categories/{}", c.light),
            &boss,
            &json!({"statement_deadline_days": 2}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        ids(&app.admin_list("overdue=true", &boss).await),
        s(&[c.c, c.b])
    );
    let _ = c.b_light;
}
