//! A citizen's export of its data: the link, and the archive read back with another ZIP
//! implementation than the one that wrote it. The archive holds every item the citizen created
//! (one of each kind) and nothing of another citizen; the link expires and a new one replaces it.

use std::collections::BTreeMap;
use std::io::Read as _;

use chrono::{DateTime, TimeDelta, Utc};
use reqwest::Method;
use serde_json::{json, Value};
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::delivery_helpers::{set_settings, stand_in};
use crate::helpers::{assert_error, Filing, TestApp};
use crate::privacy_helpers::{start_export, two_citizens};

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    an_export_holds_everything_the_citizen_created_and_nothing_of_another,
    an_export_link_expires_and_a_new_one_replaces_it,
);

const CITIZEN: &str = "citizen-export-a1";
const CITIZEN_EMAIL: &str = "export-a1@example.org";
const OTHER: &str = "citizen-other-b2";
const OTHER_EMAIL: &str = "other-b2@example.org";

/// The archive's files by name.
pub type Archive = BTreeMap<String, Vec<u8>>;

/// GET the link's archive: its files, or the error's (status, body).
pub async fn download(app: &TestApp, link: &Value) -> Result<Archive, (u16, Value)> {
    let url = format!("{}{}", app.root, link["download_url"].as_str().unwrap());
    let response = app.get_url(&url).await;
    let status = response.status().as_u16();
    if status != 200 {
        return Err((status, response.json().await.unwrap_or_default()));
    }
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "application/zip");
    assert!(headers["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"citizen-data-"));
    assert_eq!(headers["cache-control"], "private, no-store");
    let bytes = response.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut files = Archive::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let mut content = Vec::new();
        entry.read_to_end(&mut content).unwrap();
        files.insert(entry.name().to_owned(), content);
    }
    Ok(files)
}

fn json_file(files: &Archive, name: &str) -> Value {
    serde_json::from_slice(&files[name]).unwrap_or_else(|e| panic!("{name}: {e}"))
}

async fn an_export_holds_everything_the_citizen_created_and_nothing_of_another(app: TestApp) {
    let push = stand_in(201).await;
    let (me, them, news) = two_citizens(
        &app,
        &push,
        (CITIZEN, CITIZEN_EMAIL, "Pothole on Main"),
        (OTHER, OTHER_EMAIL, "Their graffiti"),
    )
    .await;
    let (with_photo, photo, theirs) = (me.report, me.photo, them.report);
    let plain = app
        .file(Filing::new("Bench broken", 5).by(CITIZEN))
        .await
        .report;
    set_settings(&app, CITIZEN, "cs", json!("weekly")).await;

    let link = start_export(&app, CITIZEN).await;
    // The operator's view of the same (`citizen-api subject-report`).
    let report = citizen_api::app::export::subject_report(&app.stores, CITIZEN, app.clock.now())
        .await
        .unwrap()
        .to_string();
    for line in [
        format!("subject: {CITIZEN}"),
        "reports filed: 2 (1 photos)".into(),
        format!("  {with_photo} "),
        "vote tokens: 3 (3 active)".into(),
        "notification settings: enabled true, interval Weekly".into(),
        format!("e-mail: {CITIZEN_EMAIL} (since "),
        format!("  {}", me.endpoint),
        "news subscriptions: Roadworks".into(),
        "report categories assigned: \n".into(),
        "audit rows naming the subject: 2".into(),
        "data export link: until ".into(),
    ] {
        assert!(report.contains(&line), "{line:?} not in\n{report}");
    }
    assert!(!report.contains(OTHER), "{report}");
    let files = download(&app, &link).await.unwrap();
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    let photo_path = format!("photos/{photo}-hole.jpg");
    assert_eq!(
        names,
        [
            "account.json",
            "notifications.json",
            photo_path.as_str(),
            "reports.json",
            "votes.json"
        ]
    );
    // The account: its settings and each subscription.
    let account = json_file(&files, "account.json");
    assert_eq!(account["subject"], CITIZEN);
    assert_eq!(account["format_version"], 1);
    assert_eq!(
        account["notification_settings"],
        json!({"enabled": true, "interval": "weekly"})
    );
    assert_eq!(account["email"]["email"], CITIZEN_EMAIL);
    assert_eq!(account["email"]["locale"], "cs");
    assert_eq!(account["webpush"][0]["endpoint"], me.endpoint.as_str());
    assert_eq!(account["webpush"].as_array().unwrap().len(), 1);
    assert_eq!(
        account["news_categories"],
        json!([{"category_id": news, "name": "Roadworks"}])
    );
    // The reports, oldest first, each with its timeline; the photo's bytes as served.
    let reports = json_file(&files, "reports.json");
    let ids: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["report"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [with_photo.to_string(), plain.to_string()]);
    let accepted = reports
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["report"]["id"] == with_photo.to_string())
        .unwrap();
    assert_eq!(accepted["report"]["title"], "Pothole on Main");
    assert_eq!(accepted["report"]["status"], "accepted");
    assert_eq!(accepted["report"]["votes_count"], 2);
    let steps: Vec<&str> = accepted["timeline"]["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(steps, ["accepted"]);
    assert_eq!(
        accepted["photos"],
        json!([{"media_id": photo, "path": photo_path}])
    );
    let served = app
        .get_response(&format!("/media/{photo}"))
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(files[&photo_path], served.to_vec());
    // Every vote token, with its target.
    let votes = json_file(&files, "votes.json");
    let mut targets: Vec<&str> = votes
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["target"].as_str().unwrap())
        .collect();
    targets.sort_unstable();
    let mut expected = vec![
        theirs.to_string(),
        theirs.to_string(),
        with_photo.to_string(),
    ];
    expected.sort_unstable();
    assert_eq!(targets, expected);
    // The feed, as the feed route answers it.
    let feed = json_file(&files, "notifications.json");
    let (status, page) = app
        .get_as("/me/notifications", Some(&app.token(CITIZEN, &[])))
        .await;
    assert_eq!(status, 200, "{page}");
    assert!(!feed.as_array().unwrap().is_empty());
    assert_eq!(feed, page["notifications"]);
    // Nothing of the other citizen, in any file (its report's public title is in the feed: the
    // citizen voted on it and was told it was accepted).
    let everything: String = files
        .values()
        .map(|content| String::from_utf8_lossy(content).into_owned())
        .collect();
    for theirs_only in [
        OTHER,
        OTHER_EMAIL,
        them.endpoint.as_str(),
        &them.photo.to_string(),
    ] {
        assert!(!everything.contains(theirs_only), "{theirs_only}");
    }
}

async fn an_export_link_expires_and_a_new_one_replaces_it(app: TestApp) {
    let (status, body) = app
        .request(Method::POST, "/me/data-export", None, None)
        .await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
    let token = app.token(CITIZEN, &[]);
    let (status, body) = app.get_as("/me/data-export", Some(&token)).await;
    assert_error(status, &body, 404, "NOT_FOUND");

    let first = start_export(&app, CITIZEN).await;
    let requested = app.clock.now();
    let instant = |v: &Value| v.as_str().unwrap().parse::<DateTime<Utc>>().unwrap();
    assert_eq!(instant(&first["requested_at"]), requested);
    assert_eq!(
        instant(&first["expires_at"]),
        requested + TimeDelta::hours(24)
    );
    let (status, again) = app.get_as("/me/data-export", Some(&token)).await;
    assert_eq!((status, &again), (200, &first));
    let files = download(&app, &first).await.unwrap();
    assert_eq!(json_file(&files, "reports.json"), json!([]));

    // A new request: a new link; the old one no longer opens anything.
    let second = start_export(&app, CITIZEN).await;
    assert_ne!(second["download_url"], first["download_url"]);
    let (status, body) = download(&app, &first).await.unwrap_err();
    assert_error(status, &body, 404, "NOT_FOUND");
    assert!(download(&app, &second).await.is_ok());
    // A link that is no token at all.
    let made_up =
        json!({"download_url": format!("{}/data-exports/x", app.settings.http.base_path)});
    let (status, body) = download(&app, &made_up).await.unwrap_err();
    assert_error(status, &body, 404, "NOT_FOUND");

    // At its expiry the link stops working.
    app.clock
        .set(requested + TimeDelta::hours(24) + TimeDelta::seconds(1));
    let (status, body) = download(&app, &second).await.unwrap_err();
    assert_error(status, &body, 404, "NOT_FOUND");
}
