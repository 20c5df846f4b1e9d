//! Open311's requests (docs/open311.md, "Requests"): a report as a request in both formats, the
//! two compared field by field and the JSON checked against docs/open311.schema.json; the status
//! and its notes, the close and a statement after it; the 90-day window at its edges; the id
//! list overriding every other filter; sync by `updated_after`; paging and the service codes;
//! no identity in any answer.

use chrono::{DateTime, SecondsFormat, TimeDelta, Utc};
use citizen_api::store::{Media, NewReport};
use domain::geo::{LocationParam, LonLat};
use domain::issues::Transition;
use reqwest::header::{ACCESS_CONTROL_ALLOW_ORIGIN, ETAG};
use serde_json::Value;
use test_support::http::{header, send_if_none_match};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::helpers::{Filing, TestApp, OFFICER};
use crate::open311_helpers::{
    assert_open311_error, assert_xml_error, get, get_both, get_json, get_xml,
};

on_both_backends!(crate::helpers::spawn_app;
    a_request_maps_its_report_in_both_formats,
    a_closed_request_keeps_its_close_and_shows_a_later_statement,
    the_filing_window_is_ninety_days_at_most,
    the_id_list_overrides_every_other_filter,
    pages_service_codes_and_caching,
);

const IN_CITY: (f64, f64) = (14.4213, 50.0875);
const DAY: i64 = 86_400;

/// A date-time as the answers write it.
fn w3c(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::AutoSi, false)
}

/// A date-time for a query (`Z`: a `+` would need escaping).
fn q(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| r["service_request_id"].as_str().unwrap().to_owned())
        .collect()
}

async fn file(app: &TestApp, title: &str, second: i64) -> crate::helpers::Filed {
    app.file(Filing::new(title, second).at(IN_CITY.0, IN_CITY.1))
        .await
}

async fn a_request_maps_its_report_in_both_formats(app: TestApp) {
    const FILER: &str = "citizen-open311-subject";
    let roads = app.category("Roads", Some(5)).await;
    let id = Uuid::now_v7();
    let photo = Uuid::now_v7();
    let new = NewReport {
        id,
        author: Some(FILER.into()),
        title: "Pothole & <crack>".into(),
        description: "Deep, by the tram stop".into(),
        location: Some(LocationParam {
            point: LonLat {
                lon: IN_CITY.0,
                lat: IN_CITY.1,
            },
            radius_m: None,
        }),
        address: Some("Vodičkova 20".into()),
        media: vec![Media {
            id: photo,
            filename: "hole.jpg".into(),
            media_type: "image/jpeg".into(),
            size_bytes: 10,
        }],
        ..NewReport::default()
    };
    app.file_new(&new, 10).await;
    let first = app.stores.reports.report(id).await.unwrap().unwrap().issues[0].id;
    // Moved: the request's service is the issue in Roads, placed at second 20.
    let placed = app.desk().move_to(first, roads.id, app.time(20)).await;
    app.accept(placed.id, app.time(30)).await;
    app.add_statement(placed.id, "We fix it & <soon>", app.time(40))
        .await;
    app.clock.set(app.time(100));

    let list = get_both(&app, "/open311/v2/requests", "", "requests").await;
    assert_eq!(ids(&list), [id.to_string()]);
    let one = &list[0];
    assert_eq!(one["status"], "open");
    assert_eq!(one["status_notes"], "We fix it & <soon>");
    assert_eq!(one["service_code"], roads.id.to_string());
    assert_eq!(one["service_name"], "Roads");
    assert_eq!(one["agency_responsible"], "Roads");
    assert_eq!(
        one["description"],
        "Pothole & <crack>\n\nDeep, by the tram stop"
    );
    assert_eq!(one["requested_datetime"], w3c(app.time(10)));
    assert_eq!(one["updated_datetime"], w3c(app.time(40)), "the statement");
    assert_eq!(
        one["expected_datetime"],
        w3c(app.time(20) + TimeDelta::days(5)),
        "the statement deadline from the placing in Roads"
    );
    assert_eq!(one["address"], "Vodičkova 20");
    assert_eq!(
        (one["long"].as_f64(), one["lat"].as_f64()),
        (Some(IN_CITY.0), Some(IN_CITY.1))
    );
    assert_eq!(
        one["media_url"],
        format!("{}/{photo}", app.settings.media.public_base_url)
    );
    let (_, _, xml) = get(&app, "/open311/v2/requests.xml").await;
    assert!(
        xml.contains("<status_notes>We fix it &amp; &lt;soon&gt;</status_notes>"),
        "{xml}"
    );
    for body in [list.to_string(), xml] {
        for identity in [FILER, OFFICER] {
            assert!(!body.contains(identity), "{identity} in {body}");
        }
    }

    let alone = get_both(&app, &format!("/open311/v2/requests/{id}"), "", "requests").await;
    assert_eq!(alone, list, "the one request, as a one-element list");

    // Photos marked unsuitable for the public: no media_url.
    assert!(app.stores.reports.set_explicit(id, true).await.unwrap());
    let hidden = get_both(&app, "/open311/v2/requests", "", "requests").await;
    assert!(hidden[0].get("media_url").is_none(), "{hidden}");
}

async fn a_closed_request_keeps_its_close_and_shows_a_later_statement(app: TestApp) {
    let lamp = file(&app, "Lamp out", 10).await;
    app.accept(lamp.issue, app.time(20)).await;
    app.desk()
        .status(lamp.issue, Transition::Resolve, app.time(30))
        .await;
    app.clock.set(app.time(100));
    let list = get_both(&app, "/open311/v2/requests", "", "requests").await;
    assert_eq!(list[0]["status"], "closed");
    assert_eq!(list[0]["updated_datetime"], w3c(app.time(30)));
    assert!(list[0].get("status_notes").is_none());
    assert!(
        list[0].get("expected_datetime").is_none(),
        "closed: nothing expected"
    );

    app.add_statement(lamp.issue, "Replaced the bulb", app.time(50))
        .await;
    let list = get_both(&app, "/open311/v2/requests", "", "requests").await;
    assert_eq!(list[0]["status_notes"], "Replaced the bulb");
    assert_eq!(
        list[0]["updated_datetime"],
        w3c(app.time(30)),
        "still when it was closed"
    );

    // Sync: `updated_after` filters on the last public change, the statement included.
    let lamp_id = lamp.report.to_string();
    for (query, found) in [
        (format!("?updated_after={}", q(app.time(40))), true),
        (format!("?updated_after={}", q(app.time(49))), true),
        (format!("?updated_after={}", q(app.time(50))), false),
        (format!("?updated_before={}", q(app.time(49))), false),
        (format!("?updated_before={}", q(app.time(50))), true),
        (
            format!(
                "?updated_after={}&updated_before={}",
                q(app.time(10)),
                q(app.time(60))
            ),
            true,
        ),
    ] {
        let list = get_both(&app, "/open311/v2/requests", &query, "requests").await;
        assert_eq!(ids(&list).contains(&lamp_id), found, "{query}");
    }
    let (status, body) = get_json(
        &app,
        &format!(
            "/open311/v2/requests.json?updated_after={}&updated_before={}",
            q(app.time(60)),
            q(app.time(10))
        ),
    )
    .await;
    assert_open311_error(status, &body, 400);

    let bench = file(&app, "Bench", 60).await;
    let bench_id = bench.report.to_string();
    for (status, want) in [
        ("open", vec![bench_id.clone()]),
        ("closed", vec![lamp_id.clone()]),
        ("open,closed", vec![bench_id.clone(), lamp_id.clone()]),
        ("", vec![bench_id.clone(), lamp_id.clone()]),
    ] {
        let list = get_both(
            &app,
            "/open311/v2/requests",
            &format!("?status={status}"),
            "requests",
        )
        .await;
        assert_eq!(ids(&list), want, "status={status}");
    }
    let (status, body) = get_json(&app, "/open311/v2/requests.json?status=fixed").await;
    assert_open311_error(status, &body, 400);
}

async fn the_filing_window_is_ninety_days_at_most(app: TestApp) {
    // The app's clock stands at `start` (second 0).
    let old = file(&app, "Old", -91 * DAY).await.report.to_string();
    let recent = file(&app, "Recent", -89 * DAY).await.report.to_string();
    let list = get_both(&app, "/open311/v2/requests", "", "requests").await;
    assert_eq!(ids(&list), [recent.as_str()], "by default the last 90 days");
    let future = file(&app, "Future", 10).await.report.to_string();
    let list = get_both(&app, "/open311/v2/requests", "", "requests").await;
    assert_eq!(ids(&list), [recent.as_str()], "up to now: {future}");

    let start = app.time(-100 * DAY);
    let edge = start + TimeDelta::days(90);
    let both = format!("?start_date={}&end_date={}", q(start), q(edge));
    let list = get_both(&app, "/open311/v2/requests", &both, "requests").await;
    assert_eq!(ids(&list), [recent.clone(), old.clone()], "90 days exactly");
    let only_start = format!("?start_date={}", q(app.time(-95 * DAY)));
    let list = get_both(&app, "/open311/v2/requests", &only_start, "requests").await;
    assert_eq!(
        ids(&list),
        [recent.clone(), old.clone()],
        "the 90 days after the start"
    );
    let only_end = format!("?end_date={}", q(app.time(-90 * DAY)));
    let list = get_both(&app, "/open311/v2/requests", &only_end, "requests").await;
    assert_eq!(ids(&list), [old.as_str()], "the 90 days before the end");
    // With a zone other than UTC.
    let list = get_both(
        &app,
        "/open311/v2/requests",
        &format!(
            "?start_date={}",
            app.time(-95 * DAY)
                .with_timezone(&chrono::FixedOffset::west_opt(5 * 3600).unwrap())
                .to_rfc3339()
                .replace('+', "%2B")
        ),
        "requests",
    )
    .await;
    assert_eq!(ids(&list), [recent, old]);

    for query in [
        format!(
            "?start_date={}&end_date={}",
            q(start),
            q(edge + TimeDelta::seconds(1))
        ),
        format!("?start_date={}&end_date={}", q(edge), q(start)),
        "?start_date=2026-12-01".to_owned(),
        "?end_date=2026-12-01T08:00:00".to_owned(),
        "?updated_after=yesterday".to_owned(),
    ] {
        let (status, body) = get_json(&app, &format!("/open311/v2/requests.json{query}")).await;
        assert_open311_error(status, &body, 400);
        let (status, body) = get_xml(&app, &format!("/open311/v2/requests.xml{query}")).await;
        assert_xml_error(status, &body, 400);
    }
}

async fn the_id_list_overrides_every_other_filter(app: TestApp) {
    let long_ago = file(&app, "Long ago", -200 * DAY).await;
    let closed = file(&app, "Closed", 10).await;
    app.accept(closed.issue, app.time(20)).await;
    app.desk()
        .status(closed.issue, Transition::Resolve, app.time(30))
        .await;
    let unknown = Uuid::now_v7();
    let query = format!(
        "?service_request_id={},{},{unknown}&status=open&start_date={}&page_size=1",
        long_ago.report,
        closed.report,
        q(app.time(-DAY))
    );
    let list = get_both(&app, "/open311/v2/requests", &query, "requests").await;
    assert_eq!(
        ids(&list),
        [closed.report.to_string(), long_ago.report.to_string()],
        "the ids alone decide; an unknown one is left out"
    );
    let (status, body) = get_json(&app, "/open311/v2/requests.json?service_request_id=42").await;
    assert_open311_error(status, &body, 400);

    let one = get_both(
        &app,
        &format!("/open311/v2/requests/{}", long_ago.report),
        "",
        "requests",
    )
    .await;
    assert_eq!(ids(&one), [long_ago.report.to_string()], "any age");
    for id in [unknown.to_string(), "not-an-id".to_owned()] {
        let (status, body) = get_json(&app, &format!("/open311/v2/requests/{id}.json")).await;
        assert_open311_error(status, &body, 404);
        let (status, body) = get_xml(&app, &format!("/open311/v2/requests/{id}.xml")).await;
        assert_xml_error(status, &body, 404);
    }
}

async fn pages_service_codes_and_caching(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let mut filed = Vec::new();
    for second in 1..=5 {
        filed.push(file(&app, &format!("Report {second}"), second).await);
    }
    for f in &filed[..2] {
        app.desk().move_to(f.issue, roads.id, app.time(10)).await;
    }
    app.clock.set(app.time(100));
    let newest_first: Vec<String> = filed.iter().rev().map(|f| f.report.to_string()).collect();
    for (query, want) in [
        ("?page_size=2", &newest_first[..2]),
        ("?page_size=2&page=2", &newest_first[2..4]),
        ("?page_size=2&page=3", &newest_first[4..]),
        ("?page_size=2&page=4", &newest_first[..0]),
        ("?page_size=1000", &newest_first[..]),
    ] {
        let list = get_both(&app, "/open311/v2/requests", query, "requests").await;
        assert_eq!(ids(&list), want, "{query}");
    }
    for query in ["?page_size=1001", "?page=0", "?page_size=0", "?page=x"] {
        let (status, body) = get_json(&app, &format!("/open311/v2/requests.json{query}")).await;
        assert_open311_error(status, &body, 400);
    }

    let default = app.stores.categories.categories().await.unwrap();
    let default = default.iter().find(|c| c.is_default).unwrap();
    let in_roads = get_both(
        &app,
        "/open311/v2/requests",
        &format!("?service_code={}", roads.id),
        "requests",
    )
    .await;
    assert_eq!(ids(&in_roads), &newest_first[3..], "the moved ones");
    let both = get_both(
        &app,
        "/open311/v2/requests",
        &format!("?service_code={},{}", roads.id, default.id),
        "requests",
    )
    .await;
    assert_eq!(ids(&both), newest_first);
    for code in [Uuid::now_v7().to_string(), "roads".to_owned()] {
        let (status, body) = get_json(
            &app,
            &format!("/open311/v2/requests.json?service_code={code}"),
        )
        .await;
        assert_open311_error(status, &body, 404);
    }

    let response = app.get_response("/open311/v2/requests.json").await;
    assert_eq!(
        header(&response, ACCESS_CONTROL_ALLOW_ORIGIN).as_deref(),
        Some("*")
    );
    let tag = header(&response, ETAG).expect("an ETag like the other public reads");
    let url = format!("{}/open311/v2/requests.json", app.base);
    let again = send_if_none_match(app.http.get(&url), Some(&tag)).await;
    assert_eq!(again.status(), 304);
    file(&app, "Report 6", 6).await;
    let changed = send_if_none_match(app.http.get(&url), Some(&tag)).await;
    assert_eq!(changed.status(), 200);
}
