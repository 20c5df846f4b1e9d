//! The list index (src/list_index): a page by date or nearest first written from the index is
//! byte for byte the page the database's statement gives, over ties, every filter, paging and
//! both directions; a change made through another replica, or by SQL alone, is in the very next
//! page; the order by votes, farthest first and radius filters are left to the database; a
//! replica is ready once its row cache holds the newest rows.

use chrono::SecondsFormat;
use reqwest::Method;
use serde_json::json;
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::helpers::{spawn_on, Filing, TestApp};
use crate::kept_json::rows_from;
use crate::news_generation::raw_execute;

on_both_backends!(crate::helpers::spawn_app;
    pages_from_the_index_equal_the_database_pages,
    a_change_elsewhere_is_in_the_next_page_from_the_index,
    more_issues_than_the_cap_are_left_to_the_database,
    a_ready_replica_holds_the_newest_rows,
);

/// Another replica of `app`'s database with the index off: every page from the database.
async fn without_index(app: &TestApp) -> TestApp {
    spawn_on(app.db.clone(), |s| s.reports.index_max_items = 0).await
}

/// The body of `GET /reports{query}`, as sent.
async fn page_text(app: &TestApp, query: &str) -> String {
    let response = app
        .http
        .get(format!("{}/reports{query}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{query}");
    response.text().await.unwrap()
}

async fn pages(app: &TestApp, source: &str) -> f64 {
    app.metric(&format!("report_list_pages_total{{source=\"{source}\""))
        .await
}

/// Both replicas answer every query alike; how many pages came from `app`'s index.
async fn alike(app: &TestApp, other: &TestApp, queries: &[String]) -> f64 {
    let before = pages(app, "index").await;
    for query in queries {
        assert_eq!(
            page_text(app, query).await,
            page_text(other, query).await,
            "{query}"
        );
    }
    pages(app, "index").await - before
}

/// The `i`-th filing of the list index tests' cities (here and in the officers'): four reports
/// a second (ties in filing time, broken by id), titled from five phrases `q` tells apart.
pub fn city_filing(i: i64) -> Filing {
    const WORDS: [&str; 5] = [
        "lampa u skoly",
        "vytluk",
        "lampa v parku",
        "lavicka",
        "strom",
    ];
    Filing::new(&format!("{} {i}", WORDS[i as usize % 5]), i / 4)
}

async fn pages_from_the_index_equal_the_database_pages(app: TestApp) {
    let roads = app.admin_category("Silnice", None).await;
    let lights = app.admin_category("Osvětlení", None).await;
    let boss = app.boss();
    for i in 0..24_i64 {
        let filing = city_filing(i);
        // A third without a place; the others on seven places, some shared (ties by id).
        let filing = if i % 3 == 0 {
            filing
        } else {
            filing.at(
                14.40 + (i % 7) as f64 / 1000.0,
                50.08 + (i % 2) as f64 / 2000.0,
            )
        };
        let filed = app.file(filing).await;
        match i % 6 {
            1 => {
                let (status, body) = app.move_to(filed.issue, roads, &boss).await;
                assert_eq!(status, 200, "{body}");
            }
            2 => {
                let (status, _) = app.step(filed.issue, "accept", &boss).await;
                assert_eq!(status, 200);
            }
            4 => {
                let (status, body) = app.move_to(filed.issue, lights, &boss).await;
                assert_eq!(status, 200, "{body}");
                let (status, _) = app.step(id(&body, "issue_id"), "accept", &boss).await;
                assert_eq!(status, 200);
            }
            _ => {}
        }
    }
    // Vote counts are counted per page of the index: some reports have tokens on them.
    let voter = app.token("voter", &[]);
    let voted = app.get_ok("/reports?limit=3").await["reports"].clone();
    for (row, count) in voted.as_array().unwrap().iter().zip([3, 1, 2]) {
        let (status, body) = app
            .send_json(
                Method::POST,
                "/me/vote-tokens",
                &voter,
                &json!({"target": row["id"], "count": count}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let first = &app.get_ok("/reports?limit=1").await["reports"][0];
    assert_eq!(first["votes_count"], 3, "{first}");
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
        "?q=lampa",
        "?q=lampa&limit=2&offset=1",
        "?q=zzz",
        "?status=open",
        "?status=accepted&status=resolved",
        "?status=moved",
        "?location=14.41,50.08",
        "?location=14.41,50.08&orderDirection=asc&limit=4",
        "?location=14.41,50.08&orderBy=location",
        "?location=14.403,50.0805&orderBy=location&limit=3&offset=2",
        "?location=14.4035,50.0802&orderBy=location&orderDirection=asc&limit=7",
        "?location=14.41,50.08&orderBy=location&status=open",
        "?location=14.41,50.08&orderBy=location&q=lampa",
        // Past the located rows: those without a place follow by id.
        "?location=14.4,50.08&orderBy=location&offset=12&limit=5",
        "?location=14.4,50.08&orderBy=location&status=open&offset=5",
        // Left to the database.
        "?location=14.41,50.08&orderBy=location&orderDirection=desc",
        "?location=14.41,50.08,800",
        "?orderBy=votes",
    ]
    .iter()
    .map(|q| q.to_string())
    .collect();
    for category in [roads, lights] {
        queries.push(format!("?category={category}"));
        queries.push(format!(
            "?category={category}&status=accepted&orderDirection=asc"
        ));
    }
    queries.push(format!("?category={roads}&category={lights}&q=lampa"));
    queries.push(format!(
        "?category={lights}&location=14.402,50.08&orderBy=location"
    ));
    queries.push(format!(
        "?location=14.402,50.08&orderBy=location&dateFrom={}&dateTo={}",
        t(1),
        t(4)
    ));
    queries.push(format!("?dateFrom={}&dateTo={}", t(1), t(3)));
    queries.push(format!("?dateFrom={}&orderDirection=asc&limit=2", t(4)));
    queries.push(format!("?dateTo={}&q=vytluk", t(2)));
    let from_index = alike(&app, &plain, &queries).await;
    // Every query but the three the database answers, each from the index.
    assert_eq!(from_index, (queries.len() - 3) as f64);
    assert_eq!(pages(&plain, "index").await, 0.0);
}

async fn a_change_elsewhere_is_in_the_next_page_from_the_index(app: TestApp) {
    let first = app.file(Filing::new("Lampa", 1)).await;
    let plain = without_index(&app).await;
    let queries = ["".to_owned(), "?status=open".to_owned()];
    assert_eq!(alike(&app, &plain, &queries).await, 2.0);
    // Filed and stepped through the other replica: at once in this one's pages.
    let second = plain.file(Filing::new("Výtluk", 2)).await;
    let (status, _) = plain.step(first.issue, "accept", &plain.boss()).await;
    assert_eq!(status, 200);
    let page = app.get_ok("/reports?status=open").await;
    assert_eq!(page["reports"][0]["issue_id"], second.issue.to_string());
    assert_eq!(page["reports"].as_array().unwrap().len(), 1);
    alike(&app, &plain, &queries).await;
    // By SQL alone.
    raw_execute(
        &app,
        &format!(
            "UPDATE issues SET status = 'resolved' WHERE id = '{}'",
            first.issue
        ),
    )
    .await;
    let page = app.get_ok("/reports?status=resolved").await;
    assert_eq!(page["reports"][0]["issue_id"], first.issue.to_string());
    assert_eq!(alike(&app, &plain, &queries).await, 2.0);
    // Votes placed through the other replica, then revoked by SQL alone.
    let (status, body) = plain
        .send_json(
            Method::POST,
            "/me/vote-tokens",
            &plain.token("voter", &[]),
            &json!({"target": first.report, "count": 2}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let page = app.get_ok("/reports?status=resolved").await;
    assert_eq!(page["reports"][0]["votes_count"], 2, "{page}");
    assert_eq!(alike(&app, &plain, &queries).await, 2.0);
    raw_execute(&app, "UPDATE vote_tokens SET revoked_at = inserted_at").await;
    let page = app.get_ok("/reports?status=resolved").await;
    assert_eq!(page["reports"][0]["votes_count"], 0, "{page}");
}

async fn more_issues_than_the_cap_are_left_to_the_database(app: TestApp) {
    app.file(Filing::new("Lampa", 1)).await;
    app.file(Filing::new("Výtluk", 2)).await;
    // Two issues, a cap of one: the first load stops and the replica keeps no index.
    let capped = spawn_on(app.db.clone(), |s| s.reports.index_max_items = 1).await;
    let queries = ["".to_owned(), "?q=lampa".to_owned()];
    assert_eq!(alike(&capped, &app, &queries).await, 0.0);
    assert_eq!(pages(&capped, "database").await, 2.0);
    assert_eq!(
        capped.get_ok("/reports").await["reports"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

/// `/readyz` answers 200: the index is loaded and the row cache warmed (a check waits for the
/// load, within its time-out; a tiny city takes one).
async fn ready(app: &TestApp) {
    for _ in 0..50 {
        let status = app
            .http
            .get(format!("{}/readyz", app.root))
            .send()
            .await
            .unwrap()
            .status();
        if status == 200 {
            return;
        }
    }
    panic!("not ready");
}

async fn a_ready_replica_holds_the_newest_rows(app: TestApp) {
    for i in 0..5 {
        let filing = Filing::new(&format!("Lampa {i}"), i).at(14.40 + i as f64 / 1000.0, 50.08);
        app.file(filing).await;
    }
    let nearest = "/reports?location=14.41,50.08&orderBy=location";
    // A cache for every row: the first page nearest first reads none by id.
    let fresh = spawn_on(app.db.clone(), |_| {}).await;
    ready(&fresh).await;
    let page = fresh.get_ok(nearest).await;
    assert_eq!(page["reports"].as_array().unwrap().len(), 5);
    assert_eq!(rows_from(&fresh, "database").await, 0.0);
    assert_eq!(rows_from(&fresh, "cache").await, 5.0);
    // A cache of two holds the two newest; the others are read by id.
    let small = spawn_on(app.db.clone(), |s| s.reports.row_cache_entries = 2).await;
    ready(&small).await;
    small.get_ok("/reports?limit=2").await;
    assert_eq!(rows_from(&small, "cache").await, 2.0);
    assert_eq!(rows_from(&small, "database").await, 0.0);
    small.get_ok(nearest).await;
    assert_eq!(rows_from(&small, "database").await, 3.0);
}
