//! Filing through Open311 (docs/open311.md, "Filing"): an integrator's key, the report in the
//! service's category with the description whole (4 000 characters at the edge) and its first
//! line as the title, the audit naming the integrator, the contact fields kept nowhere, a photo
//! link kept as a link; every refusal in the standard's error array with nothing stored; the
//! rate per key; a client's comment refused.

use std::sync::Arc;

use serde_json::Value;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::helpers::TestApp;
use crate::open311_helpers::{
    assert_open311_error, assert_schema, assert_xml_error, get, post_form, KEY, OTHER_KEY,
};

on_both_backends!(crate::open311_helpers::spawn_keyed;
    an_integrator_files_in_the_services_category,
    a_description_takes_four_thousand_characters,
    refusals_store_nothing,
    a_comment_from_the_client_is_refused,
);

const LAT: &str = "50.0875";
const LONG: &str = "14.4213";
const EMAIL: &str = "filer@example.org";

/// A filing's form: the key, the service, a point in the city, `description`, and `extra`.
fn form<'a>(key: &'a str, service: &'a str, description: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("api_key", key),
        ("service_code", service),
        ("lat", LAT),
        ("long", LONG),
        ("description", description),
    ]
}

/// Files `form` as JSON: the new request's id.
async fn file_json(app: &TestApp, form: &[(&str, &str)]) -> Uuid {
    let (status, content_type, body) = post_form(app, "/open311/v2/requests.json", form).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(content_type, "application/json; charset=utf-8");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_schema("post_requests_answer", &answer);
    Uuid::parse_str(answer[0]["service_request_id"].as_str().unwrap()).unwrap()
}

async fn an_integrator_files_in_the_services_category(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let code = roads.id.to_string();
    let mut fields = form(KEY, &code, "\n  Broken bench & <seat>\nThe seat is gone.");
    fields.extend([
        ("email", EMAIL),
        ("first_name", "Jana"),
        ("last_name", "Nováková"),
        ("phone", "+420 777 123 456"),
        ("device_id", "device-xyz"),
        ("account_id", "account-xyz"),
        ("media_url", "https://photos.example.org/bench.jpg"),
        ("attribute[size]", "large"),
        ("address_string", "Vodičkova 20"),
        ("jurisdiction_id", "city.example"),
    ]);
    let id = file_json(&app, &fields).await;
    let stored = app.stores.reports.report(id).await.unwrap().unwrap();
    assert_eq!(stored.report.title, "Broken bench & <seat>");
    assert_eq!(
        stored.report.description, "\n  Broken bench & <seat>\nThe seat is gone.",
        "kept as sent"
    );
    assert_eq!(stored.report.author, None, "no citizen's report");
    assert_eq!(stored.report.address.as_deref(), Some("Vodičkova 20"));
    assert_eq!(stored.issues.len(), 1);
    assert_eq!(
        stored.issues[0].category_id, roads.id,
        "the service's category"
    );

    let (status, body) = app
        .get_as(&format!("/admin/reports/{id}/audit"), Some(&app.boss()))
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.to_string().contains("open311:georeport"), "{body}");

    let (_, _, json) = get(&app, &format!("/open311/v2/requests/{id}.json")).await;
    let request: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(request[0]["service_code"], code);
    assert_eq!(
        request[0]["description"], "\n  Broken bench & <seat>\nThe seat is gone.",
        "the title is not repeated"
    );
    assert_eq!(
        request[0]["media_url"],
        "https://photos.example.org/bench.jpg"
    );
    let (_, _, xml) = get(&app, &format!("/open311/v2/requests/{id}.xml")).await;
    let (_, _, list) = get(&app, "/open311/v2/requests.json").await;
    let (_, _, updates) = get(
        &app,
        &format!("/open311/v2/servicerequestupdates.json?api_key={KEY}"),
    )
    .await;
    let (_, public) = app.get(&format!("/reports/{id}")).await;
    for body in [json, xml, list, updates, public.to_string()] {
        for contact in [
            EMAIL,
            "Jana",
            "Nováková",
            "777 123",
            "device-xyz",
            "account-xyz",
        ] {
            assert!(!body.contains(contact), "{contact} kept: {body}");
        }
    }

    // XML answers in XML; the other integrator files too.
    let fields = form(OTHER_KEY, &code, "Graffiti");
    let (status, content_type, body) = post_form(&app, "/open311/v2/requests.xml", &fields).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(content_type, "text/xml; charset=utf-8");
    let parsed: crate::open311_helpers::XmlList = quick_xml::de::from_str(&body).unwrap();
    let id = Uuid::parse_str(&parsed.request[0]["service_request_id"]).unwrap();
    assert!(app.stores.reports.report(id).await.unwrap().is_some());
}

async fn a_description_takes_four_thousand_characters(app: TestApp) {
    let default = app.stores.categories.categories().await.unwrap();
    let code = default[0].id.to_string();
    let longest = "ž".repeat(domain::open311::DESCRIPTION_MAX_CHARS);
    let id = file_json(&app, &form(KEY, &code, &longest)).await;
    let stored = app.stores.reports.report(id).await.unwrap().unwrap();
    assert_eq!(stored.report.description, longest, "kept whole");
    assert_eq!(
        stored.report.title.chars().count(),
        domain::reports::TITLE_MAX_CHARS
    );
    let over = "ž".repeat(domain::open311::DESCRIPTION_MAX_CHARS + 1);
    let (status, _, body) =
        post_form(&app, "/open311/v2/requests.json", &form(KEY, &code, &over)).await;
    assert_open311_error(status, &serde_json::from_str(&body).unwrap(), 400);
}

/// A refused form, its status and what its error names.
type Case<'a> = (Vec<(&'a str, &'a str)>, u16, &'a str);

async fn refusals_store_nothing(app: TestApp) {
    let categories = app.stores.categories.categories().await.unwrap();
    let code = categories[0].id.to_string();
    let unknown = Uuid::now_v7().to_string();
    let ok = form(KEY, &code, "A pothole");
    let without = |name: &str| -> Vec<(&str, &str)> {
        ok.iter().copied().filter(|(n, _)| *n != name).collect()
    };
    let with = |name: &'static str, value: &'static str| -> Vec<(&str, &str)> {
        let mut f = without(name);
        f.push((name, value));
        f
    };
    let mut twice = ok.clone();
    twice.push(("description", "again"));
    let mut address_only = without("lat");
    address_only.retain(|(n, _)| *n != "long");
    address_only.push(("address_string", "Vodičkova 20"));
    let cases: Vec<Case> = vec![
        (without("api_key"), 403, "api_key"),
        (with("api_key", "guessed-key-guessed-key"), 403, "api_key"),
        (with("lat", "49.0"), 400, "REPORT_OUTSIDE_CITY"),
        (with("lat", "91"), 400, "lat"),
        (with("long", "east"), 400, "long"),
        (address_only, 400, "address_string"),
        (without("description"), 400, "description"),
        (with("description", "   "), 400, "description"),
        (with("service_code", "roads"), 400, "service_code"),
        (
            ok.iter()
                .map(|&(n, v)| {
                    if n == "service_code" {
                        (n, unknown.as_str())
                    } else {
                        (n, v)
                    }
                })
                .collect(),
            400,
            "service_code",
        ),
        (
            with("media_url", "ftp://photos.example.org/a.jpg"),
            400,
            "media_url",
        ),
        (with("media_url", "not a link"), 400, "media_url"),
        (twice, 400, "description"),
    ];
    for (fields, expected, named) in &cases {
        for ext in ["json", "xml"] {
            let (status, _, body) =
                post_form(&app, &format!("/open311/v2/requests.{ext}"), fields).await;
            if ext == "json" {
                let errors: Value = serde_json::from_str(&body).unwrap();
                assert_open311_error(status, &errors, *expected);
                let description = errors[0]["description"].as_str().unwrap();
                assert!(description.contains(named), "{named}: {description}");
            } else {
                assert_xml_error(status, &body, *expected);
            }
        }
    }
    assert_eq!(app.listed_reports().await, 0, "nothing filed");
}

async fn a_comment_from_the_client_is_refused(app: TestApp) {
    let fields = [
        ("api_key", KEY),
        ("service_request_id", "x"),
        ("description", "Still broken"),
    ];
    let (status, _, body) =
        post_form(&app, "/open311/v2/servicerequestupdates.json", &fields).await;
    assert_open311_error(status, &serde_json::from_str(&body).unwrap(), 400);
    let (status, _, body) = post_form(&app, "/open311/v2/servicerequestupdates.xml", &fields).await;
    assert_xml_error(status, &body, 400);
}

/// Filings per key: one an hour, no burst beyond it; another key is counted apart.
#[tokio::test]
async fn filings_are_limited_per_key() {
    let db = Arc::new(
        test_support::database(test_support::Backend::Sqlite, "open311-rate")
            .await
            .unwrap(),
    );
    let app = crate::helpers::spawn_on(db, |s| {
        s.open311.api_keys.insert("georeport".into(), KEY.into());
        s.open311.api_keys.insert("other".into(), OTHER_KEY.into());
        s.open311.filings_per_hour = 1;
        s.open311.filings_burst = 1;
    })
    .await;
    let code = app.stores.categories.categories().await.unwrap()[0]
        .id
        .to_string();
    file_json(&app, &form(KEY, &code, "First")).await;
    let response = app
        .http
        .post(format!("{}/open311/v2/requests.json", app.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(form(KEY, &code, "Second")).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    let wait: u64 = test_support::http::header(&response, reqwest::header::RETRY_AFTER)
        .and_then(|s| s.parse().ok())
        .expect("Retry-After");
    assert!((3000..=3600).contains(&wait), "{wait}");
    let errors: Value = response.json().await.unwrap();
    assert_open311_error(429, &errors, 429);
    file_json(&app, &form(OTHER_KEY, &code, "The other's")).await;
    assert_eq!(app.listed_reports().await, 2);
}
