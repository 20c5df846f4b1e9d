//! `/me/reports` and `/me/reports-categories`: a citizen sees only their own.

use test_support::on_both_backends;

use crate::helpers::{assert_error, column, Filing, TestApp, ACCESS_ALL, OFFICER};

on_both_backends!(crate::helpers::spawn_app;
    own_reports_need_a_token_and_show_only_the_callers,
    own_rows_derive_status_and_accepted,
    report_categories_of_officers_and_super_admins,
);

async fn own_reports_need_a_token_and_show_only_the_callers(app: TestApp) {
    let mine = app
        .file(Filing::new("Mine", 1).by("citizen-1").at(14.42, 50.081))
        .await;
    let _theirs = app.file(Filing::new("Theirs", 2).by("citizen-2")).await;
    let _anonymous = app.file(Filing::new("Anonymous", 3)).await;
    for path in ["/me/reports", "/me/reports-categories"] {
        let (status, body) = app.get(path).await;
        assert_error(status, &body, 401, "UNAUTHORIZED");
        let (status, body) = app.get_as(path, Some("not-a-token")).await;
        assert_error(status, &body, 401, "UNAUTHORIZED");
    }
    let token = app.token("citizen-1", &[]);
    let (status, body) = app
        .get_as("/me/reports?location=14.42,50.08", Some(&token))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(column(&body, "id"), [mine.report.to_string()]);
    assert!((body["reports"][0]["distance"].as_f64().unwrap() - 111.25).abs() < 0.5);
    let stranger = app.token("citizen-3", &[]);
    let (_, body) = app.get_as("/me/reports", Some(&stranger)).await;
    assert!(column(&body, "id").is_empty());
    assert_eq!(body["hasNextOffset"], false);
}

async fn own_rows_derive_status_and_accepted(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let open = app.file(Filing::new("Open", 1).by("citizen-1")).await;
    let taken = app.file(Filing::new("Taken", 2).by("citizen-1")).await;
    let moved = app.desk().move_to(taken.issue, roads.id, app.time(3)).await;
    app.accept(moved.id, app.time(4)).await;
    let token = app.token("citizen-1", &[]);
    let (_, body) = app.get_as("/me/reports", Some(&token)).await;
    assert_eq!(
        column(&body, "id"),
        [taken.report.to_string(), open.report.to_string()]
    );
    assert_eq!(column(&body, "status"), ["accepted", "open"]);
    assert_eq!(column(&body, "accepted"), ["true", "false"]);
    assert!(
        body["reports"][0].get("issue_id").is_none(),
        "one row per report"
    );
    let (_, body) = app
        .get_as(
            "/me/reports?limit=1&offset=1&orderDirection=asc",
            Some(&token),
        )
        .await;
    assert_eq!(column(&body, "id"), [taken.report.to_string()]);
}

async fn report_categories_of_officers_and_super_admins(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let light = app.category("Lighting", None).await;
    app.stores
        .categories
        .assign_officer(OFFICER, roads.id)
        .await
        .unwrap();
    let names = |body: &serde_json::Value| -> Vec<String> {
        body["categories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, body) = app
        .get_as("/me/reports-categories", Some(&app.token(OFFICER, &[])))
        .await;
    assert_eq!(names(&body), ["Roads"]);
    assert_eq!(body["categories"][0]["category_id"], roads.id.to_string());
    assert_eq!(body["categories"][0]["is_default"], false);
    let (_, body) = app
        .get_as(
            "/me/reports-categories",
            Some(&app.token("boss", &[ACCESS_ALL])),
        )
        .await;
    let default = &app.settings.reports.default_category_name;
    assert_eq!(
        names(&body),
        ["Lighting".to_owned(), "Roads".to_owned(), default.clone()],
        "default last"
    );
    assert_eq!(body["categories"][2]["is_default"], true);
    assert_eq!(body["categories"][0]["category_id"], light.id.to_string());
    let (_, body) = app
        .get_as("/me/reports-categories", Some(&app.token("citizen-1", &[])))
        .await;
    assert!(names(&body).is_empty());
}
