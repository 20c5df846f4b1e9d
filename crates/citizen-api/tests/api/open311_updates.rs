//! mySociety's `servicerequestupdates` (docs/open311.md, "Updates"): each change of a report's
//! derived status and each statement, in FixMyStreet's words, oldest first, in both formats
//! checked against each other and the schema; a window starting after a report's acceptance
//! still knows its status; a statement's photo is the city's, an integrator's link never; the
//! key and the window are checked.

use chrono::{DateTime, SecondsFormat, Utc};
use domain::issues::Transition;
use reqwest::multipart::Form;
use serde_json::Value;
use test_support::on_both_backends;

use crate::helpers::{file, Filing, TestApp};
use crate::media_images::images;
use crate::open311_helpers::{
    assert_open311_error, assert_xml_error, get_both, get_json, get_xml, post_form, KEY,
};

on_both_backends!(crate::open311_helpers::spawn_keyed;
    updates_are_status_changes_and_statements,
    the_key_and_the_window_are_checked,
);

fn q(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// `(service_request_id, status, description)` of each update.
fn items(list: &Value) -> Vec<(String, String, String)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["service_request_id"].as_str().unwrap().to_owned(),
                u["status"].as_str().unwrap().to_owned(),
                u["description"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn updates_are_status_changes_and_statements(app: TestApp) {
    let lamp = app.file(Filing::new("Lamp", 10).at(14.4213, 50.0875)).await;
    let bench = app
        .file(Filing::new("Bench", 11).at(14.4213, 50.0875))
        .await;
    let original = app
        .file(Filing::new("Bench too", 12).at(14.4213, 50.0875))
        .await;
    app.accept(lamp.issue, app.time(20)).await;
    app.add_statement(lamp.issue, "Crew & <van> sent", app.time(30))
        .await;
    app.desk()
        .status(lamp.issue, Transition::Resolve, app.time(40))
        .await;
    app.desk()
        .duplicate_of(bench.issue, original.issue, app.time(50))
        .await;
    // A statement with a photo, through the API.
    app.clock.set(app.time(60));
    let (jpeg, _) = images::jpeg();
    let (status, body) = app
        .statement(
            lamp.issue,
            Form::new()
                .text("text", "Fixed, see photo")
                .text("final", "true")
                .part("media", file(jpeg, "done.jpg")),
            &app.boss(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let photo = body["media"][0]["media_id"].as_str().unwrap().to_owned();

    let query = format!(
        "?api_key={KEY}&start_date={}&end_date={}",
        q(app.time(0)),
        q(app.time(100))
    );
    let list = get_both(
        &app,
        "/open311/v2/servicerequestupdates",
        &query,
        "request_updates",
    )
    .await;
    let (l, b) = (lamp.report.to_string(), bench.report.to_string());
    let s = |x: &str| x.to_owned();
    assert_eq!(
        items(&list),
        [
            (l.clone(), s("IN_PROGRESS"), s("")),
            (l.clone(), s("IN_PROGRESS"), s("Crew & <van> sent")),
            (l.clone(), s("FIXED"), s("")),
            (b.clone(), s("DUPLICATE"), s("")),
            (l.clone(), s("FIXED"), s("Fixed, see photo")),
        ],
        "{list}"
    );
    let at: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["updated_datetime"].as_str().unwrap())
        .collect();
    let want: Vec<String> = [20, 30, 40, 50, 60]
        .iter()
        .map(|s| app.time(*s).to_rfc3339_opts(SecondsFormat::AutoSi, false))
        .collect();
    assert_eq!(at, want);
    assert_eq!(
        list[4]["media_url"],
        format!("{}/{photo}", app.settings.media.public_base_url)
    );
    assert!(list[1].get("media_url").is_none());
    let mut ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["update_id"].as_str().unwrap())
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 5, "one id each");

    // A window after the acceptance: the statement still reads IN_PROGRESS.
    let later = format!(
        "?api_key={KEY}&start_date={}&end_date={}",
        q(app.time(25)),
        q(app.time(45))
    );
    let list = get_both(
        &app,
        "/open311/v2/servicerequestupdates",
        &later,
        "request_updates",
    )
    .await;
    assert_eq!(
        items(&list),
        [
            (l.clone(), s("IN_PROGRESS"), s("Crew & <van> sent")),
            (l.clone(), s("FIXED"), s("")),
        ]
    );
    let paged = format!("{query}&page_size=2&page=3");
    let list = get_both(
        &app,
        "/open311/v2/servicerequestupdates",
        &paged,
        "request_updates",
    )
    .await;
    assert_eq!(items(&list), [(l, s("FIXED"), s("Fixed, see photo"))]);
}

async fn the_key_and_the_window_are_checked(app: TestApp) {
    let code = app.stores.categories.categories().await.unwrap()[0]
        .id
        .to_string();
    // Filed with a link: the updates never carry it (FixMyStreet would fetch it).
    let (status, _, body) = post_form(
        &app,
        "/open311/v2/requests.json",
        &[
            ("api_key", KEY),
            ("service_code", &code),
            ("lat", "50.0875"),
            ("long", "14.4213"),
            ("description", "Linked"),
            ("media_url", "https://photos.example.org/x.jpg"),
        ],
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let report = app
        .stores
        .reports
        .report(
            uuid::Uuid::parse_str(
                serde_json::from_str::<Value>(&body).unwrap()[0]["service_request_id"]
                    .as_str()
                    .unwrap(),
            )
            .unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
    app.accept(report.issues[0].id, app.start).await;
    let list = get_both(
        &app,
        "/open311/v2/servicerequestupdates",
        &format!("?api_key={KEY}"),
        "request_updates",
    )
    .await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert!(!list.to_string().contains("photos.example.org"), "{list}");

    for query in ["", "?api_key=", "?api_key=guessed-key-guessed-key"] {
        let (status, body) = get_json(
            &app,
            &format!("/open311/v2/servicerequestupdates.json{query}"),
        )
        .await;
        assert_open311_error(status, &body, 403);
        let (status, body) = get_xml(
            &app,
            &format!("/open311/v2/servicerequestupdates.xml{query}"),
        )
        .await;
        assert_xml_error(status, &body, 403);
    }
    let too_long = format!(
        "?api_key={KEY}&start_date={}&end_date={}",
        q(app.time(0)),
        q(app.time(91 * 86_400))
    );
    let (status, body) = get_json(
        &app,
        &format!("/open311/v2/servicerequestupdates.json{too_long}"),
    )
    .await;
    assert_open311_error(status, &body, 400);
}
