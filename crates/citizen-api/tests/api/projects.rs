//! Projects: the list over ties, the detail, the editors' writes, and votes on a project.

use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;

use crate::helpers::{assert_error, TestApp};
use crate::news_helpers::{
    assert_needs_a_scope, call, editor, ids, keys_and_descending, walk, PROJECTS_SCOPE,
};

on_both_backends!(crate::helpers::spawn_app;
    the_list_pages_by_open_from_over_ties,
    the_detail_and_the_editors_writes,
    bad_projects_and_parameters_are_refused,
    writes_need_the_projects_scope,
    projects_can_be_voted_on,
);

async fn create(app: &TestApp, body: Value) -> Value {
    let token = editor(app);
    let (status, created) = call(app, Method::POST, "/projects", Some(&token), Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    created
}

fn project(app: &TestApp, title: &str, second: i64) -> Value {
    json!({"title": title, "description": format!("{title}: popis"), "open_from": app.time(second).to_rfc3339()})
}

async fn the_list_pages_by_open_from_over_ties(app: TestApp) {
    for (title, second) in [("a", 5), ("b", 9), ("c", 9), ("d", 1), ("e", 9), ("f", 5)] {
        create(&app, project(&app, title, second)).await;
    }
    let all = app.get_ok("/projects").await;
    assert_eq!(all["nextCursor"], Value::Null);
    let rows = all["projects"].as_array().unwrap();
    let (keys, sorted) = keys_and_descending(rows, "open_from", "project_id");
    assert_eq!(keys, sorted);
    assert_eq!(rows[0].as_object().unwrap().len(), 4, "{}", rows[0]);
    let full = ids(rows, "project_id");
    for limit in [1, 2, 4, 6] {
        let pages = walk(&app, "/projects", &format!("limit={limit}"), "projects").await;
        let walked: Vec<String> = pages.iter().flat_map(|p| ids(p, "project_id")).collect();
        assert_eq!(walked, full, "limit {limit}");
    }
}

async fn the_detail_and_the_editors_writes(app: TestApp) {
    let token = editor(&app);
    let mut body = project(&app, "Park u řeky", 3);
    body["media"] = json!([
        {"public_url": "https://example.org/plan.pdf", "original_filename": "plan.pdf", "media_type": "application/pdf"},
        {"public_url": "https://example.org/a.jpg"}
    ]);
    let created = create(&app, body).await;
    let id = created["project_id"].as_str().unwrap().to_owned();
    let path = format!("/projects/{id}");
    let found = app.get_ok(&path).await;
    assert_eq!(found, created);
    assert_eq!(found["media"][0]["original_filename"], "plan.pdf");
    assert!(found["media"][1].get("media_type").is_none());
    assert!(found.get("updated_at").is_none());
    assert_eq!(
        found["inserted_at"],
        app.time(0)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    let (status, updated) = call(
        &app,
        Method::PUT,
        &path,
        Some(&token),
        Some(&json!({"title": "Park"})),
    )
    .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["media"], json!([]));
    assert!(updated.get("updated_at").is_some());
    assert_eq!(app.get_ok(&path).await, updated);
    let (status, _) = call(&app, Method::DELETE, &path, Some(&token), None).await;
    assert_eq!(status, 200);
    for missing in [path.clone(), "/projects/abc".to_owned()] {
        let (status, body) = app.get(&missing).await;
        assert_error(status, &body, 404, "PROJECT_NOT_FOUND");
    }
    for method in [Method::PUT, Method::DELETE] {
        let (status, body) = call(
            &app,
            method,
            &path,
            Some(&token),
            Some(&json!({"title": "x"})),
        )
        .await;
        assert_error(status, &body, 404, "PROJECT_NOT_FOUND");
    }
}

async fn bad_projects_and_parameters_are_refused(app: TestApp) {
    let token = editor(&app);
    let many: Vec<Value> = (0..21)
        .map(|_| json!({"public_url": "https://example.org/a"}))
        .collect();
    for bad in [
        json!({"title": ""}),
        json!({"title": "x".repeat(257)}),
        json!({"title": "t", "open_from": "soon"}),
        json!({"title": "t", "media": [{"public_url": "ftp://x"}]}),
        json!({"title": "t", "media": [{"public_url": "https://x", "media_type": ""}]}),
        json!({"title": "t", "media": many}),
        json!({"title": "t", "votes": 1}),
    ] {
        let (status, body) = call(&app, Method::POST, "/projects", Some(&token), Some(&bad)).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    for ok in ["limit=1", "limit=100"] {
        app.get_ok(&format!("/projects?{ok}")).await;
    }
    let id = uuid::Uuid::now_v7();
    for bad in [
        "limit=0".to_owned(),
        "limit=101".to_owned(),
        "pagecursor=2026-01-01T00:00:00Z".to_owned(),
        format!("pagecursor=soon&pagecursor={id}"),
        "pagecursor=2026-01-01T00:00:00Z&pagecursor=abc".to_owned(),
        format!("pagecursor=2026-01-01T00:00:00Z&pagecursor={id}&pagecursor=x"),
    ] {
        let (status, body) = app.get(&format!("/projects?{bad}")).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
}

async fn writes_need_the_projects_scope(app: TestApp) {
    let created = create(&app, project(&app, "p", 1)).await;
    let path = format!("/projects/{}", created["project_id"].as_str().unwrap());
    let other = app.token("citizen-1", &["cityuser:news:manage"]);
    for (method, path) in [
        (Method::POST, "/projects"),
        (Method::PUT, path.as_str()),
        (Method::DELETE, path.as_str()),
    ] {
        let body = json!({"title": "x"});
        assert_needs_a_scope(&app, method, path, &other, &body).await;
    }
    let only = app.token("editor-2", &[PROJECTS_SCOPE]);
    let (status, _) = call(&app, Method::DELETE, &path, Some(&only), None).await;
    assert_eq!(status, 200);
}

async fn projects_can_be_voted_on(app: TestApp) {
    let created = create(&app, project(&app, "p", 1)).await;
    let id = created["project_id"].as_str().unwrap().to_owned();
    let me = app.token("citizen-1", &[]);
    let (status, body) = app.vote(&me, &id, 2).await;
    assert_eq!(status, 200, "{body}");
    let (_, on) = app
        .get_as(&format!("/me/vote-tokens/{id}"), Some(&me))
        .await;
    assert_eq!(on["active_tokens"], 2);
    // Deleting the project gives the tokens back; it can no longer be voted on.
    let token = editor(&app);
    let (status, _) = call(
        &app,
        Method::DELETE,
        &format!("/projects/{id}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let (_, on) = app
        .get_as(&format!("/me/vote-tokens/{id}"), Some(&me))
        .await;
    assert_eq!(on["active_tokens"], 0);
    let (status, body) = app.vote(&me, &id, 1).await;
    assert_error(status, &body, 404, "VOTE_TARGET_NOT_FOUND");
}
