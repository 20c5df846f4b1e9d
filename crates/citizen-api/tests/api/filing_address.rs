//! `POST /reports` with `address`, the place in words: stored trimmed, shown on the detail, in
//! the filing's answer and in the citizen's own list, never in the public list's rows;
//! at most 200 characters, a blank one is none.

use test_support::on_both_backends;

use crate::helpers::{assert_error, form, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    the_address_is_kept_and_shown_where_the_report_is_shown_whole,
    the_address_is_checked_at_its_edge_in_characters,
);

async fn filed_with(app: &TestApp, address: &str) -> (u16, serde_json::Value) {
    let token = app.token("citizen-1", &[]);
    let f = form("Díra", "Hluboká").text("address", address.to_owned());
    let (status, _, body) = app.post_report(f, Some(&token)).await;
    (status, body)
}

async fn the_address_is_kept_and_shown_where_the_report_is_shown_whole(app: TestApp) {
    let (status, filed) = filed_with(&app, "  Vodičkova 20, u zastávky  ").await;
    assert_eq!(status, 201, "{filed}");
    assert_eq!(filed["address"], "Vodičkova 20, u zastávky");
    let id = filed["id"].as_str().unwrap();
    let detail = app.get_ok(&format!("/reports/{id}")).await;
    assert_eq!(detail["address"], "Vodičkova 20, u zastávky");
    let (_, mine) = app
        .get_as("/me/reports", Some(&app.token("citizen-1", &[])))
        .await;
    assert_eq!(mine["reports"][0]["address"], "Vodičkova 20, u zastávky");
    let list = app.get_ok("/reports").await;
    assert!(list["reports"][0].get("address").is_none(), "{list}");
    // Without one, or a blank one, the report has none.
    let (status, blank) = filed_with(&app, "   ").await;
    assert_eq!(status, 201, "{blank}");
    assert!(blank.get("address").is_none(), "{blank}");
    let detail = app
        .get_ok(&format!("/reports/{}", blank["id"].as_str().unwrap()))
        .await;
    assert!(detail.get("address").is_none(), "{detail}");
}

async fn the_address_is_checked_at_its_edge_in_characters(app: TestApp) {
    let longest = "ž".repeat(200);
    let (status, body) = filed_with(&app, &longest).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["address"], longest.as_str());
    let before = app.listed_reports().await;
    let (status, body) = filed_with(&app, &"ž".repeat(201)).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    assert!(
        body["userinfo"].as_str().unwrap_or("").contains("address"),
        "{body}"
    );
    let twice = form("Díra", "Hluboká")
        .text("address", "a")
        .text("address", "b");
    let (status, _, body) = app
        .post_report(twice, Some(&app.token("citizen-1", &[])))
        .await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    assert_eq!(app.listed_reports().await, before, "nothing filed");
}
