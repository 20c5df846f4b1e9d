//! `GET /reports`: one row per issue, every filter, ordering and paging.

use std::collections::HashSet;

use test_support::on_both_backends;

use crate::helpers::{column, Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    one_row_per_issue_newest_first_moved_left_out,
    category_and_status_filters_repeat_and_combine,
    q_ignores_case_and_diacritics_over_title_description_and_id,
    location_adds_distance_cuts_at_the_radius_and_orders_nearest_first,
    date_range_is_inclusive,
    pages_never_overlap_or_skip_under_ties,
);

async fn one_row_per_issue_newest_first_moved_left_out(app: TestApp) {
    let roads = app.category("Roads", Some(14)).await;
    let a = app.file(Filing::new("First", 1)).await;
    let b = app.file(Filing::new("Second", 2)).await;
    let moved = app.desk().move_to(a.issue, roads.id, app.time(3)).await;
    let body = app.get_ok("/reports").await;
    assert_eq!(
        column(&body, "id"),
        [b.report.to_string(), a.report.to_string()]
    );
    assert_eq!(
        column(&body, "issue_id"),
        [b.issue.to_string(), moved.id.to_string()]
    );
    assert_eq!(body["reports"][1]["category_id"], roads.id.to_string());
    assert_eq!(column(&body, "status"), ["open", "open"]);
    assert_eq!(body["hasNextOffset"], false);
    assert_eq!(
        (body["offset"].as_u64(), body["limit"].as_u64()),
        (Some(0), Some(100))
    );
    let row = &body["reports"][0];
    assert_eq!(row["title"], "Second");
    assert_eq!(row["description"], "Second: description");
    assert_eq!(row["votes_count"], 0);
    assert_eq!(row["explicit"], false);
    assert_eq!(row["media"], serde_json::json!([]));
    assert!(row["processed_at"].is_null());
    assert!(row.get("distance").is_none() && row.get("location").is_none());
    assert_eq!(
        body["reports"][1]["processed_at"],
        app.time(3)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    let asc = app.get_ok("/reports?orderDirection=asc").await;
    assert_eq!(
        column(&asc, "id"),
        [a.report.to_string(), b.report.to_string()]
    );
}

async fn category_and_status_filters_repeat_and_combine(app: TestApp) {
    let roads = app.category("Roads", None).await;
    let light = app.category("Lighting", None).await;
    for (i, (category, accept)) in [
        (&roads, false),
        (&roads, true),
        (&light, true),
        (&light, false),
    ]
    .into_iter()
    .enumerate()
    {
        let f = app.file(Filing::new(&format!("R{i}"), i as i64)).await;
        let issue = app.desk().move_to(f.issue, category.id, app.time(10)).await;
        if accept {
            app.accept(issue.id, app.time(11)).await;
        }
    }
    let untouched = app.file(Filing::new("Default", 20)).await;
    let titles = |body: &serde_json::Value| {
        let mut t = column(body, "title");
        t.sort();
        t
    };
    let body = app.get_ok(&format!("/reports?category={}", roads.id)).await;
    assert_eq!(titles(&body), ["R0", "R1"]);
    let body = app
        .get_ok(&format!(
            "/reports?category={}&category={}",
            roads.id, light.id
        ))
        .await;
    assert_eq!(titles(&body), ["R0", "R1", "R2", "R3"]);
    let body = app.get_ok("/reports?status=accepted").await;
    assert_eq!(titles(&body), ["R1", "R2"]);
    let body = app.get_ok("/reports?status=open&status=accepted").await;
    assert_eq!(titles(&body).len(), 5);
    let body = app
        .get_ok(&format!("/reports?status=open&category={}", light.id))
        .await;
    assert_eq!(titles(&body), ["R3"]);
    // Moved issues are never rows, even when asked for.
    let body = app.get_ok("/reports?status=moved").await;
    assert_eq!(titles(&body), Vec::<String>::new());
    let body = app
        .get_ok(&format!("/reports?category={}", uuid::Uuid::nil()))
        .await;
    assert!(column(&body, "id").is_empty());
    assert!(column(&app.get_ok("/reports?status=open").await, "id")
        .contains(&untouched.report.to_string()));
}

async fn q_ignores_case_and_diacritics_over_title_description_and_id(app: TestApp) {
    let a = app
        .file(Filing::new("Rozbitá LAMPA", 1).description("U školy"))
        .await;
    let b = app
        .file(Filing::new("Díra v silnici", 2).description("Hluboká díra před ŠKOLOU"))
        .await;
    let _c = app.file(Filing::new("Koš", 3)).await;
    let ids = |body: serde_json::Value| {
        let mut v = column(&body, "id");
        v.sort();
        v
    };
    let mut both = vec![a.report.to_string(), b.report.to_string()];
    both.sort();
    assert_eq!(
        ids(app.get_ok("/reports?q=lampa").await),
        [a.report.to_string()]
    );
    assert_eq!(
        ids(app.get_ok("/reports?q=rozbita%20lam").await),
        [a.report.to_string()]
    );
    assert_eq!(
        ids(app.get_ok("/reports?q=%C5%A1kol").await),
        both,
        "škol matches skoly and ŠKOLOU"
    );
    assert_eq!(ids(app.get_ok("/reports?q=SKOL").await), both);
    let id = b.report.to_string();
    // A part of the id past its timestamp: reports filed in the same millisecond share the
    // first 13 characters of their UUID v7.
    assert_eq!(
        ids(app.get_ok(&format!("/reports?q={}", &id[19..])).await),
        vec![id.clone()]
    );
    assert_eq!(
        ids(app
            .get_ok(&format!("/reports?q={}", id.to_uppercase()))
            .await),
        [id]
    );
    assert!(ids(app.get_ok("/reports?q=zzz").await).is_empty());
    // A query that folds to nothing matches nothing (docs/decisions.md), as in streets-api:
    // neither a LIKE wildcard nor punctuation lists every report.
    for q in ["%25", "_", "!!!", "%25_%25", "%20-%20"] {
        let body = app.get_ok(&format!("/reports?q={q}")).await;
        assert!(ids(body.clone()).is_empty(), "q={q}: {body}");
        assert_eq!(body["hasNextOffset"], false, "q={q}");
    }
    assert_eq!(
        ids(app.get_ok("/reports?q=%25lampa%25").await),
        [a.report.to_string()]
    );
}

async fn location_adds_distance_cuts_at_the_radius_and_orders_nearest_first(app: TestApp) {
    // Along a meridian at 50°N: 0.001° of latitude is about 111.2 m.
    let near = app.file(Filing::new("Near", 1).at(14.42, 50.081)).await;
    let far = app.file(Filing::new("Far", 2).at(14.42, 50.09)).await;
    let nowhere = app.file(Filing::new("Nowhere", 3)).await;
    let body = app
        .get_ok("/reports?location=14.42,50.08&orderBy=location&orderDirection=asc")
        .await;
    assert_eq!(
        column(&body, "id"),
        [
            near.report.to_string(),
            far.report.to_string(),
            nowhere.report.to_string()
        ],
        "nearest first, rows without a location last"
    );
    let d_near = body["reports"][0]["distance"].as_f64().unwrap();
    let d_far = body["reports"][1]["distance"].as_f64().unwrap();
    assert!((d_near - 111.25).abs() < 0.5, "{d_near}");
    assert!((d_far - 1112.5).abs() < 2.0, "{d_far}");
    assert!(body["reports"][2].get("distance").is_none());
    assert_eq!(body["reports"][0]["location"]["type"], "Point");
    assert_eq!(
        body["reports"][0]["location"]["coordinates"],
        serde_json::json!([14.42, 50.081])
    );
    let desc = app
        .get_ok("/reports?location=14.42,50.08&orderBy=location&orderDirection=desc")
        .await;
    assert_eq!(
        column(&desc, "id"),
        [
            far.report.to_string(),
            near.report.to_string(),
            nowhere.report.to_string()
        ],
        "farthest first, rows without a location still last"
    );
    // A radius keeps only reports within it; the edge between the two.
    let cut = app.get_ok("/reports?location=14.42,50.08,500").await;
    assert_eq!(column(&cut, "id"), [near.report.to_string()]);
    // Nearest first is the default direction of a location order.
    let all = app
        .get_ok("/reports?location=14.42,50.08,1200&orderBy=location")
        .await;
    assert_eq!(
        column(&all, "id"),
        [near.report.to_string(), far.report.to_string()]
    );
    let none = app.get_ok("/reports?location=14.42,50.08,100").await;
    assert!(column(&none, "id").is_empty());
    // Without orderBy=location the date order stays, with distances.
    let by_date = app.get_ok("/reports?location=14.42,50.08").await;
    assert_eq!(column(&by_date, "id")[0], nowhere.report.to_string());
    assert!(by_date["reports"][1]["distance"].as_f64().is_some());
}

async fn date_range_is_inclusive(app: TestApp) {
    let a = app.file(Filing::new("A", 10)).await;
    let b = app.file(Filing::new("B", 20)).await;
    let _c = app.file(Filing::new("C", 30)).await;
    let iso = |s: i64| app.time(s).to_rfc3339().replace('+', "%2B");
    let body = app
        .get_ok(&format!("/reports?dateFrom={}&dateTo={}", iso(10), iso(20)))
        .await;
    assert_eq!(
        column(&body, "id"),
        [b.report.to_string(), a.report.to_string()]
    );
    let body = app.get_ok(&format!("/reports?dateFrom={}", iso(21))).await;
    assert_eq!(column(&body, "title"), ["C"]);
    let body = app.get_ok(&format!("/reports?dateTo={}", iso(9))).await;
    assert!(column(&body, "id").is_empty());
}

async fn pages_never_overlap_or_skip_under_ties(app: TestApp) {
    // Seven reports in the same second: only the id breaks the tie.
    for i in 0..7 {
        app.file(Filing::new(&format!("Tie {i}"), 5)).await;
    }
    for direction in ["asc", "desc"] {
        let mut seen = Vec::new();
        let mut offset = 0;
        loop {
            let body = app
                .get_ok(&format!(
                    "/reports?limit=3&offset={offset}&orderDirection={direction}"
                ))
                .await;
            seen.extend(column(&body, "id"));
            if body["hasNextOffset"] == false {
                break;
            }
            offset += 3;
        }
        assert_eq!(seen.len(), 7, "{direction}");
        assert_eq!(
            seen.iter().collect::<HashSet<_>>().len(),
            7,
            "{direction}: no overlap"
        );
        let all = app
            .get_ok(&format!("/reports?orderDirection={direction}"))
            .await;
        assert_eq!(
            column(&all, "id"),
            seen,
            "{direction}: pages follow the full order"
        );
    }
    let last = app.get_ok("/reports?limit=7").await;
    assert_eq!(last["hasNextOffset"], false);
    let more = app.get_ok("/reports?limit=6").await;
    assert_eq!(more["hasNextOffset"], true);
}
