//! Every parameter of the report lists at and past its edge.

use test_support::on_both_backends;

use crate::helpers::{assert_error, column, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    bad_parameters_are_400_naming_them,
    parameters_at_their_edges_are_accepted,
    location_pages_follow_the_full_order_under_ties,
    location_pages_stay_exact_when_a_tie_outgrows_the_first_read,
    nearest_first_reaches_from_metres_to_far_away,
);

async fn bad_parameters_are_400_naming_them(app: TestApp) {
    for (query, parameter) in [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("offset=-1", "offset"),
        ("offset=1001", "offset"),
        ("q=", "q"),
        (&format!("q={}", "a".repeat(201)), "q"),
        ("location=14.4", "location"),
        ("location=14.4,95", "location"),
        ("location=14.4,50,0", "location"),
        ("orderBy=location", "orderBy"),
        ("orderBy=name", "orderBy"),
        ("orderDirection=up", "orderDirection"),
        ("category=7", "category"),
        ("status=possible_duplicate", "status"),
        ("dateFrom=2026-13-01T00:00:00Z", "dateFrom"),
        ("dateTo=today", "dateTo"),
        (
            "dateFrom=2026-02-01T00:00:00Z&dateTo=2026-01-01T00:00:00Z",
            "dateFrom",
        ),
        ("offset=1&offset=2", "offset"),
    ] {
        for path in ["/reports", "/me/reports"] {
            if path == "/me/reports"
                && ["q", "category", "status", "dateFrom", "dateTo"]
                    .iter()
                    .any(|p| query.starts_with(p))
            {
                continue;
            }
            let token = app.token("citizen-1", &[]);
            let (status, body) = app.get_as(&format!("{path}?{query}"), Some(&token)).await;
            assert_error(status, &body, 400, "VALIDATION_ERROR");
            let text = body["userinfo"].as_str().unwrap();
            assert!(text.contains(parameter), "{path}?{query}: {text}");
        }
    }
    // The text is localized.
    let response = app
        .get_with_header("/reports?limit=0", "Accept-Language", "cs")
        .await;
    assert_eq!(response.headers()["content-language"], "cs");
}

async fn parameters_at_their_edges_are_accepted(app: TestApp) {
    for i in 0..3 {
        app.file(Filing::new(&format!("R{i}"), i)).await;
    }
    let body = app.get_ok("/reports?limit=1").await;
    assert_eq!(column(&body, "title"), ["R2"]);
    assert_eq!(body["hasNextOffset"], true);
    let body = app.get_ok("/reports?limit=100&offset=2").await;
    assert_eq!(column(&body, "title"), ["R0"]);
    assert_eq!(
        (body["limit"].as_u64(), body["offset"].as_u64()),
        (Some(100), Some(2))
    );
    let body = app.get_ok("/reports?offset=1000").await;
    assert!(column(&body, "id").is_empty());
    assert_eq!(body["hasNextOffset"], false);
    let body = app
        .get_ok("/reports?q=r&location=-180,-90,0.001&orderBy=votes&orderDirection=asc&unknown=1")
        .await;
    assert!(column(&body, "id").is_empty());
    let body = app.get_ok(&format!("/reports?q={}", "r".repeat(200))).await;
    assert!(column(&body, "id").is_empty());
}

async fn location_pages_follow_the_full_order_under_ties(app: TestApp) {
    // Four reports at one point, two at another, two without a location: the nearest-first
    // order (PostgreSQL finds its reach with a KNN scan first) must page exactly like one page.
    file_each(&app, "Same", 0..4, Some((14.42, 50.081))).await;
    file_each(&app, "Farther", 4..6, Some((14.42, 50.09))).await;
    file_each(&app, "Nowhere", 6..8, None).await;
    let order = "location=14.42,50.08&orderBy=location";
    let all = column(&app.get_ok(&format!("/reports?{order}")).await, "id");
    assert_eq!(all.len(), 8);
    for limit in [1, 3] {
        let seen = walk(&app, order, limit, "id").await;
        assert_eq!(seen, all, "limit {limit}: pages follow the full order");
    }
}

/// `field` of every row of `/reports?{query}`, page after page of `limit` rows.
/// Files a report "{name} {i}" at second `i` for each `i` of `seconds`, at `at` (lon, lat) when
/// given.
async fn file_each(
    app: &TestApp,
    name: &str,
    seconds: std::ops::Range<i64>,
    at: Option<(f64, f64)>,
) {
    for i in seconds {
        let filing = Filing::new(&format!("{name} {i}"), i);
        app.file(match at {
            Some((lon, lat)) => filing.at(lon, lat),
            None => filing,
        })
        .await;
    }
}

async fn walk(app: &TestApp, query: &str, limit: usize, field: &str) -> Vec<String> {
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let body = app
            .get_ok(&format!("/reports?{query}&limit={limit}&offset={offset}"))
            .await;
        seen.extend(column(&body, field));
        if body["hasNextOffset"] == false {
            return seen;
        }
        offset += limit;
    }
}

async fn nearest_first_reaches_from_metres_to_far_away(app: TestApp) {
    // From about 70 m to about 180 km east of the point (SQLite widens its index reach from
    // 100 m to 128 km, then reads the rest without the index), and two without a location.
    let deltas = [0.9, 0.001, 2.5, 0.03, 0.008, 0.2];
    for (i, d) in deltas.iter().enumerate() {
        let i = i64::try_from(i).unwrap();
        app.file(Filing::new(&format!("East {i}"), i).at(14.42 + d, 50.08))
            .await;
    }
    file_each(&app, "Nowhere", 6..8, None).await;
    let order = "location=14.42,50.08&orderBy=location";
    let all = app.get_ok(&format!("/reports?{order}")).await;
    let titles = column(&all, "title");
    assert_eq!(
        titles[..6],
        ["East 1", "East 4", "East 3", "East 5", "East 0", "East 2"]
    );
    let distances: Vec<f64> = all["reports"].as_array().unwrap()[..6]
        .iter()
        .map(|r| r["distance"].as_f64().unwrap())
        .collect();
    assert!(distances.windows(2).all(|w| w[0] < w[1]), "{distances:?}");
    assert!(distances[5] > 128_000.0, "{distances:?}");
    let mut nowhere = titles[6..].to_vec();
    nowhere.sort();
    assert_eq!(nowhere, ["Nowhere 6", "Nowhere 7"]);
    // Pages of two walk the same order, and the radius cuts through the index.
    let mut seen = Vec::new();
    for offset in [0, 2, 4, 6] {
        let body = app
            .get_ok(&format!("/reports?{order}&limit=2&offset={offset}"))
            .await;
        seen.extend(column(&body, "id"));
        assert_eq!(body["hasNextOffset"], offset < 6, "{body}");
    }
    assert_eq!(seen, column(&all, "id"));
    let near = app
        .get_ok("/reports?location=14.42,50.08,2200&orderBy=location")
        .await;
    assert_eq!(column(&near, "title"), ["East 1", "East 4", "East 3"]);
    let wide = app
        .get_ok("/reports?location=14.42,50.08,150000&orderBy=location")
        .await;
    assert_eq!(column(&wide, "title").len(), 5, "{wide}");
    let by_date = app.get_ok("/reports?location=14.42,50.08,2200").await;
    assert_eq!(column(&by_date, "title"), ["East 4", "East 3", "East 1"]);
}

async fn location_pages_stay_exact_when_a_tie_outgrows_the_first_read(app: TestApp) {
    // PostgreSQL first reads the page and 20 rows more by distance alone; 24 reports at one
    // point make a tie that outgrows that read for the first pages, which must then be read
    // again within a bound. Two nearer reports and one without a location around them.
    file_each(&app, "Stack", 0..24, Some((14.42, 50.081))).await;
    file_each(&app, "Near", 24..26, Some((14.42, 50.0805))).await;
    app.file(Filing::new("Nowhere", 26)).await;
    let order = "location=14.42,50.08&orderBy=location";
    let all = app.get_ok(&format!("/reports?{order}")).await;
    let titles = column(&all, "title");
    assert_eq!(titles.len(), 27);
    assert!(
        titles[..2].iter().all(|t| t.starts_with("Near")),
        "{titles:?}"
    );
    assert!(
        titles[2..26].iter().all(|t| t.starts_with("Stack")),
        "{titles:?}"
    );
    assert_eq!(titles[26], "Nowhere");
    // Within the tie, by issue id.
    let tied = column(&all, "issue_id")[2..26].to_vec();
    let mut sorted = tied.clone();
    sorted.sort();
    assert_eq!(tied, sorted);
    for limit in [1, 7] {
        let seen = walk(&app, order, limit, "issue_id").await;
        assert_eq!(seen, column(&all, "issue_id"), "limit {limit}");
    }
}
