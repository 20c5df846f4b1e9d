//! The officers' list from the list index (src/list_index/admin.rs, src/routes/admin/indexed.rs):
//! a page by date written from the index is byte for byte the page of the database's
//! statements, for every filter, both directions, paging, ties in filing time, reports handled
//! in two categories, duplicates, `overdue` on both sides of a deadline, an officer of one or two
//! categories and access-all; a change made through another replica (a step, a category renamed,
//! a deadline changed, an officer assigned, the media marked explicit) or by SQL alone (a
//! category renamed, an issue resolved) is in the very next page, though the categories are
//! kept between pages (src/routes/admin/kept_categories.rs); the
//! order by place and by votes and radius filters are left to the database.

use chrono::{SecondsFormat, TimeDelta};
use reqwest::Method;
use serde_json::json;
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::admin_list_index_city::{city, tokens, DAY};
use crate::helpers::{spawn_on, TestApp};
use crate::news_generation::raw_execute;

on_both_backends!(crate::helpers::spawn_app;
    admin_pages_from_the_index_equal_the_database_pages,
    a_change_elsewhere_is_in_the_next_admin_page,
);

/// Another replica of `app`'s database with the index off, its clock at `app`'s.
async fn without_index(app: &TestApp) -> TestApp {
    let plain = spawn_on(app.db.clone(), |s| s.reports.index_max_items = 0).await;
    plain.clock.set(app.clock.now());
    plain
}

/// The body of `GET /admin/reports{query}` as `token`, as sent.
async fn page_text(app: &TestApp, query: &str, token: &str) -> String {
    let response = app
        .http
        .get(format!("{}/admin/reports{query}", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{query}");
    response.text().await.unwrap()
}

async fn pages(app: &TestApp, source: &str) -> f64 {
    app.metric(&format!(
        "admin_report_list_pages_total{{source=\"{source}\""
    ))
    .await
}

/// Both replicas answer every query alike for every token; how many pages came from `app`'s
/// index.
async fn alike(app: &TestApp, other: &TestApp, queries: &[String], tokens: &[String]) -> f64 {
    let before = pages(app, "index").await;
    for token in tokens {
        for query in queries {
            let got = page_text(app, query, token).await;
            assert_eq!(got, page_text(other, query, token).await, "{query}");
            let body: serde_json::Value = serde_json::from_str(&got).unwrap();
            assert!(body["reports"].is_array(), "{got}");
        }
    }
    pages(app, "index").await - before
}

async fn admin_pages_from_the_index_equal_the_database_pages(app: TestApp) {
    let city = city(&app).await;
    let plain = without_index(&app).await;
    let t = |second: i64| {
        app.time(second)
            .to_rfc3339_opts(SecondsFormat::Micros, true)
            .replace('+', "%2B")
    };
    let mut queries: Vec<String> = [
        "",
        "?orderDirection=asc",
        "?limit=5",
        "?limit=5&offset=3",
        "?limit=3&offset=7&orderDirection=asc",
        "?offset=1000",
        "?q=lampa",
        "?q=lampa&limit=2&offset=1",
        "?q=zzz",
        "?status=open",
        "?status=accepted&status=resolved",
        "?status=duplicate",
        "?status=moved",
        "?overdue=true",
        "?overdue=false",
        "?overdue=true&status=accepted",
        "?overdue=true&orderDirection=asc&limit=2&offset=1",
        "?location=14.41,50.08",
        "?location=14.41,50.08&orderDirection=asc&limit=4&status=open",
        // Left to the database.
        "?location=14.41,50.08&orderBy=location",
        "?location=14.41,50.08,800",
        "?orderBy=votes",
    ]
    .iter()
    .map(|q| q.to_string())
    .collect();
    for category in [city.roads, city.light, city.parks] {
        queries.push(format!("?category={category}"));
        queries.push(format!("?category={category}&overdue=true"));
        queries.push(format!(
            "?category={category}&status=accepted&orderDirection=asc"
        ));
    }
    queries.push(format!(
        "?category={}&category={}&q=lampa",
        city.roads, city.light
    ));
    queries.push(format!("?dateFrom={}&dateTo={}", t(1), t(3)));
    queries.push(format!("?dateFrom={}&orderDirection=asc&limit=2", t(4)));
    queries.push(format!("?dateTo={}&q=vytluk", t(2)));
    let tokens = tokens(&app);
    let from_index = alike(&app, &plain, &queries, &tokens).await;
    // Every query but the three the database answers, each from the index.
    assert_eq!(from_index, ((queries.len() - 3) * tokens.len()) as f64);
    assert_eq!(pages(&plain, "index").await, 0.0);
    // The rows hold what the city was built to show.
    let boss = app.admin_list("limit=100", &tokens[0]).await;
    let rows = boss["reports"].as_array().unwrap();
    assert_eq!(rows.len(), 25);
    let photo = rows
        .iter()
        .find(|r| r["id"] == city.photo.to_string())
        .unwrap();
    assert_eq!(photo["explicit"], true);
    assert_eq!(photo["media"].as_array().unwrap().len(), 1, "{photo}");
    let two = rows
        .iter()
        .filter(|r| r["issues"].as_array().unwrap().len() == 2)
        .count();
    assert!(two >= 3, "{boss}");
    // An officer of Roads sees a report handled in Roads and Lighting with its Roads issue.
    let roads = app.admin_list("limit=100", &tokens[1]).await;
    let both = roads["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == city.filed[3].report.to_string())
        .unwrap();
    let seen: Vec<&str> = both["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["category_name"].as_str().unwrap())
        .collect();
    assert_eq!(seen, ["Roads"], "{both}");
    let overdue = app.admin_list("overdue=true", &tokens[0]).await;
    assert!(!overdue["reports"].as_array().unwrap().is_empty());
    let flagged = rows
        .iter()
        .find(|r| r["id"] == city.filed[5].report.to_string())
        .unwrap();
    assert_eq!(
        flagged["issues"][0]["has_possible_duplicates"], true,
        "{flagged}"
    );
    // A second read of every page writes each report's fields from what the replica kept.
    let read = app
        .metric("admin_report_list_rows_total{source=\"database\"")
        .await;
    alike(&app, &plain, &queries, &tokens).await;
    let again = app
        .metric("admin_report_list_rows_total{source=\"database\"")
        .await;
    assert_eq!(again, read);
}

async fn a_change_elsewhere_is_in_the_next_admin_page(app: TestApp) {
    let city = city(&app).await;
    let plain = without_index(&app).await;
    let boss = app.boss();
    let tokens = tokens(&app);
    let queries: Vec<String> = [
        "".to_owned(),
        "?overdue=true".to_owned(),
        "?status=open".to_owned(),
        format!("?category={}", city.parks),
    ]
    .to_vec();
    alike(&app, &plain, &queries, &tokens).await;
    // Through the other replica: a category renamed, a deadline set, a step, a move, the
    // media of a report shown again.
    let (status, body) = plain
        .send_json(
            Method::PATCH,
            &format!("/admin/report-categories/{}", city.light),
            &boss,
            &json!({"name": "Street lights", "statement_deadline_days": 2}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let first = &plain.admin_list("status=open&limit=1", &boss).await["reports"][0]["issues"][0];
    let issue = id(first, "issue_id");
    assert_eq!(plain.step(issue, "accept", &boss).await.0, 200);
    let (status, body) = plain
        .send_json(
            Method::PUT,
            &format!("/admin/reports/{}/explicit", city.photo),
            &boss,
            &json!({"explicit": false}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let page = app.admin_list("", &boss).await;
    let photo = page["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == city.photo.to_string())
        .unwrap()
        .clone();
    assert_eq!(photo["explicit"], false, "{photo}");
    alike(&app, &plain, &queries, &tokens).await;
    // An officer assigned to one more category through the other replica sees its reports in
    // the next page.
    let roads_officer = &tokens[1];
    let before = app.admin_list("limit=100", roads_officer).await["reports"]
        .as_array()
        .unwrap()
        .len();
    plain.assign("o-roads", city.parks).await;
    let after = app.admin_list("limit=100", roads_officer).await["reports"]
        .as_array()
        .unwrap()
        .len();
    assert!(after > before, "{before} {after}");
    alike(&app, &plain, &queries, &tokens).await;
    // By SQL alone: a category renamed, an issue resolved, and the clock past the new deadline.
    raw_execute(
        &app,
        &format!(
            "UPDATE report_categories SET name = 'Parky' WHERE id = '{}'",
            city.parks
        ),
    )
    .await;
    let renamed = app
        .admin_list(&format!("category={}&limit=1", city.parks), &boss)
        .await;
    let names: Vec<&str> = renamed["reports"][0]["issues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["category_id"] == city.parks.to_string())
        .map(|i| i["category_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Parky"], "{renamed}");
    raw_execute(
        &app,
        &format!(
            "UPDATE issues SET status = 'resolved' WHERE id = '{}'",
            city.filed[0].issue
        ),
    )
    .await;
    for replica in [&app, &plain] {
        replica.clock.set(app.time(5 * DAY));
    }
    alike(&app, &plain, &queries, &tokens).await;
    let later = app.clock.now() + TimeDelta::days(30);
    for replica in [&app, &plain] {
        replica.clock.set(later);
    }
    assert_eq!(alike(&app, &plain, &queries, &tokens).await, 16.0);
}
