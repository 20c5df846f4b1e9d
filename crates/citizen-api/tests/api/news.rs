//! GET /news and /news/{newId}: both orders, the cursor over ties, categories, every refusal.

use serde_json::{json, Value};
use test_support::on_both_backends;

use crate::helpers::{assert_error, strs, TestApp};
use crate::news_helpers::keys_and_descending;
use crate::news_helpers::{category, cursor_query, ids, item, point, publish, walk};

on_both_backends!(crate::helpers::spawn_app;
    newest_first_pages_never_overlap_or_skip_under_ties,
    a_one_string_cursor_continues_after_that_date,
    nearest_first_then_items_without_location,
    nearest_first_reaches_far_away_items,
    a_radius_keeps_only_items_within_it,
    a_parent_category_includes_its_descendants,
    the_detail_and_its_not_found,
    malformed_parameters_are_refused,
);

/// Seven items, three of them sharing a date and two another.
async fn seven_with_ties(app: &TestApp) -> Vec<String> {
    let mut out = Vec::new();
    for (title, second) in [
        ("a", 10),
        ("b", 20),
        ("c", 20),
        ("d", 20),
        ("e", 5),
        ("f", 30),
        ("g", 5),
    ] {
        out.push(publish(app, item(app, title, second)).await);
    }
    out
}

async fn newest_first_pages_never_overlap_or_skip_under_ties(app: TestApp) {
    seven_with_ties(&app).await;
    let all = app.get_ok("/news?limit=100").await;
    assert_eq!(all["nextCursor"], Value::Null);
    let rows = all["news"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    // Newest date first, then id descending.
    let (keys, sorted) = keys_and_descending(rows, "date", "id");
    assert_eq!(keys, sorted);
    assert!(rows.iter().all(|r| r.get("distance").is_none()));
    let full = ids(rows, "id");
    for limit in [1, 2, 3, 6, 7] {
        let pages = walk(&app, "/news", &format!("limit={limit}"), "news").await;
        let walked: Vec<String> = pages.iter().flat_map(|p| ids(p, "id")).collect();
        assert_eq!(walked, full, "limit {limit}");
        assert!(pages.iter().all(|p| p.len() <= limit));
        assert_eq!(pages.len(), 7usize.div_ceil(limit), "limit {limit}");
    }
    // The cursor is the last item's [date, id].
    let first = app.get_ok("/news?limit=2").await;
    assert_eq!(first["nextCursor"][1], json!(full[1]));
    assert_eq!(first["nextCursor"].as_array().unwrap().len(), 2);
}

async fn a_one_string_cursor_continues_after_that_date(app: TestApp) {
    seven_with_ties(&app).await;
    let date = app.time(20).to_rfc3339();
    let q = cursor_query(&json!([date]));
    let body = app.get_ok(&format!("/news?limit=100{q}")).await;
    let titles = strs(&body["news"], "title");
    assert_eq!(titles.len(), 3);
    assert_eq!(titles[0], "a");
}

async fn nearest_first_then_items_without_location(app: TestApp) {
    let here = (14.42, 50.08);
    let mut located = Vec::new();
    // Three items on one spot (a distance tie), others farther, three without a location.
    for (i, (dlon, dlat)) in [
        (0.01, 0.0),
        (0.0, 0.0),
        (0.01, 0.0),
        (0.01, 0.0),
        (0.0, 0.02),
        (0.05, 0.05),
    ]
    .into_iter()
    .enumerate()
    {
        let mut body = item(&app, &format!("near {i}"), i as i64);
        body["location"] = point(here.0 + dlon, here.1 + dlat);
        located.push(publish(&app, body).await);
    }
    for i in 0..3 {
        publish(&app, item(&app, &format!("nowhere {i}"), 100)).await;
    }
    let query = format!("location={},{}", here.0, here.1);
    let all = app.get_ok(&format!("/news?{query}&limit=100")).await;
    let rows = all["news"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 9);
    let distances: Vec<f64> = rows[..6]
        .iter()
        .map(|r| r["distance"].as_f64().unwrap())
        .collect();
    assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{distances:?}");
    assert!(distances[0] < 1.0);
    assert_eq!(distances[1], distances[2]);
    assert_eq!(distances[2], distances[3]);
    // Ties by id ascending; then the items without a location, newest id first.
    let tie = ids(&rows[1..4], "id");
    let mut sorted = tie.clone();
    sorted.sort();
    assert_eq!(tie, sorted);
    assert!(rows[6..]
        .iter()
        .all(|r| r.get("distance").is_none() && r.get("location").is_none()));
    let tail = ids(&rows[6..], "id");
    let mut sorted = tail.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(tail, sorted);
    let full = ids(&rows, "id");
    for limit in [1, 2, 4, 5] {
        let pages = walk(&app, "/news", &format!("{query}&limit={limit}"), "news").await;
        let walked: Vec<String> = pages.iter().flat_map(|p| ids(p, "id")).collect();
        assert_eq!(walked, full, "limit {limit}");
    }
    // The cursors: a distance in the first part, "null" in the second.
    let page = app.get_ok(&format!("/news?{query}&limit=2")).await;
    assert_eq!(
        page["nextCursor"][0]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap(),
        distances[1]
    );
    let page = app.get_ok(&format!("/news?{query}&limit=7")).await;
    assert_eq!(page["nextCursor"], json!(["null", full[6]]));
    // ["null"] alone starts the part without a location.
    let page = app.get_ok(&format!("/news?{query}&pagecursor=null")).await;
    assert_eq!(ids(page["news"].as_array().unwrap(), "id"), full[6..]);
}

async fn a_radius_keeps_only_items_within_it(app: TestApp) {
    let mut near = item(&app, "near", 1);
    near["location"] = point(14.42, 50.08);
    let mut far = item(&app, "far", 2);
    far["location"] = point(14.52, 50.08);
    publish(&app, near).await;
    publish(&app, far).await;
    publish(&app, item(&app, "nowhere", 3)).await;
    let body = app.get_ok("/news?location=14.421,50.08,1000").await;
    let rows = body["news"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{body}");
    assert_eq!(rows[0]["title"], "near");
    assert_eq!(rows[0]["location"], point(14.42, 50.08));
}

async fn a_parent_category_includes_its_descendants(app: TestApp) {
    let parent = category(&app, "Doprava", None).await;
    let child = category(&app, "Uzavírky", Some(&parent)).await;
    let grandchild = category(&app, "Tramvaje", Some(&child)).await;
    let other = category(&app, "Kultura", None).await;
    for (title, categories) in [
        ("p", vec![&parent]),
        ("c", vec![&child]),
        ("g", vec![&grandchild]),
        ("o", vec![&other]),
        ("both", vec![&child, &other]),
        ("none", vec![]),
    ] {
        let mut body = item(&app, title, 1);
        body["categories"] = json!(categories);
        publish(&app, body).await;
    }
    let titles = |body: Value| {
        let mut t: Vec<String> = body["news"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["title"].as_str().unwrap().to_owned())
            .collect();
        t.sort();
        t
    };
    assert_eq!(
        titles(app.get_ok(&format!("/news?category={parent}")).await),
        ["both", "c", "g", "p"]
    );
    assert_eq!(
        titles(app.get_ok(&format!("/news?category={child}")).await),
        ["both", "c", "g"]
    );
    assert_eq!(
        titles(
            app.get_ok(&format!("/news?category={grandchild}&category={other}"))
                .await
        ),
        ["both", "g", "o"]
    );
    // An unknown category matches nothing.
    let unknown = uuid::Uuid::now_v7();
    assert_eq!(
        titles(app.get_ok(&format!("/news?category={unknown}")).await).len(),
        0
    );
    // Each item names its categories by name.
    let body = app.get_ok(&format!("/news?category={other}")).await;
    let both = body["news"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["title"] == "both")
        .unwrap()
        .clone();
    assert_eq!(
        both["categories"],
        json!([{"id": other, "name": "Kultura"}, {"id": child, "name": "Uzavírky"}])
    );
}

async fn the_detail_and_its_not_found(app: TestApp) {
    let cat = category(&app, "Kultura", None).await;
    let mut body = item(&app, "Koncert", 7);
    body["image"] = json!("https://example.org/koncert.jpg");
    body["location"] = point(14.4, 50.1);
    body["categories"] = json!([cat]);
    let id = publish(&app, body).await;
    let found = app.get_ok(&format!("/news/{id}")).await;
    assert_eq!(
        found,
        json!({
            "id": id,
            "title": "Koncert",
            "description": "Koncert: text",
            "image": "https://example.org/koncert.jpg",
            "date": app.time(7).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
            "location": point(14.4, 50.1),
            "categories": [{"id": cat, "name": "Kultura"}],
        })
    );
    for missing in [uuid::Uuid::now_v7().to_string(), "abc".to_owned()] {
        let (status, body) = app.get(&format!("/news/{missing}")).await;
        assert_error(status, &body, 404, "NEWS_ITEM_NOT_FOUND");
    }
}

async fn malformed_parameters_are_refused(app: TestApp) {
    publish(&app, item(&app, "one", 1)).await;
    publish(&app, item(&app, "two", 2)).await;
    for ok in [
        "limit=1",
        "limit=100",
        "",
        "location=14.4,50.1",
        "location=14.4,50.1,1",
    ] {
        app.get_ok(&format!("/news?{ok}")).await;
    }
    let id = uuid::Uuid::now_v7();
    for bad in [
        "limit=0".to_owned(),
        "limit=101".to_owned(),
        "limit=x".to_owned(),
        "limit=1&limit=2".to_owned(),
        "location=200,50".to_owned(),
        "location=14.4".to_owned(),
        "category=abc".to_owned(),
        "pagecursor=yesterday".to_owned(),
        format!("pagecursor=2026-01-01T00:00:00Z&pagecursor={id}&pagecursor=x"),
        "pagecursor=2026-01-01T00:00:00Z&pagecursor=abc".to_owned(),
        format!("pagecursor=12.5&pagecursor={id}"),
        format!("pagecursor=null&pagecursor={id}"),
        format!("location=14.4,50.1&pagecursor=2026-01-01T00:00:00Z&pagecursor={id}"),
        format!("location=14.4,50.1&pagecursor=-1&pagecursor={id}"),
        "location=14.4,50.1&pagecursor=NaN".to_owned(),
    ] {
        let (status, body) = app.get(&format!("/news?{bad}")).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
        assert!(!body["userinfo"].as_str().unwrap().is_empty(), "{bad}");
    }
}

async fn nearest_first_reaches_far_away_items(app: TestApp) {
    // About 70 m, 150 km and 180 km east (SQLite widens its index reach up to 128 km, then reads
    // without the index).
    for (i, dlon) in [2.5, 0.001, 2.1].into_iter().enumerate() {
        let mut body = item(&app, &format!("east {i}"), i as i64);
        body["location"] = point(14.42 + dlon, 50.08);
        publish(&app, body).await;
    }
    let query = "location=14.42,50.08";
    let pages = walk(&app, "/news", &format!("{query}&limit=1"), "news").await;
    let titles: Vec<String> = pages.iter().flat_map(|p| ids(p, "title")).collect();
    assert_eq!(titles, ["east 1", "east 2", "east 0"]);
    let near = app.get_ok(&format!("/news?{query},160000")).await;
    assert_eq!(
        ids(near["news"].as_array().unwrap(), "title"),
        ["east 1", "east 2"]
    );
}
