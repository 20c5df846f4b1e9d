//! The behaviour suite of GET /streets and GET /streets/{streetId}, run on both backends:
//! answered from the read model (the default), and with the model off, from the database.

use crate::helpers::{
    assert_error, number, on_both_backends_and_the_database, short_street, street, TestApp,
};
use serde_json::Value;
use std::collections::HashSet;

on_both_backends_and_the_database!(
    street_by_number_and_by_id,
    unknown_streets_are_404_street_not_found,
    feature_shape_is_the_spec_shape,
    limit_and_offset_edges,
    offset_paging_never_repeats_or_skips,
    name_search_ignores_case_and_diacritics_and_ranks,
    q_length_edges,
    radius_search_matches_independent_geodesic_distances,
    radius_search_orders_nearest_first_and_defaults_to_100_m,
    point_parameters_are_validated,
    name_and_point_combine,
);

fn prague() -> Vec<streets_import::ImportedStreet> {
    vec![
        short_street(7, "Avenue des Spélugues", 7.4270, 43.7400),
        short_street(3, "Spélugues", 7.4280, 43.7410),
        short_street(9, "Spelunka nad Vltavou", 14.4100, 50.0800),
        short_street(1, "Náměstí Míru", 14.4378, 50.0755),
        short_street(2, "Vinohradská", 14.4410, 50.0770),
        short_street(4, "Hospelova", 14.4500, 50.0800),
        short_street(5, "Karlovo náměstí", 14.4185, 50.0755),
    ]
}

async fn street_by_number_and_by_id(app: TestApp) {
    app.seed(&prague()).await;
    let (status, by_number) = app.get("/streets/1").await;
    assert_eq!(status, 200);
    assert_eq!(by_number["properties"]["N_GM_U"], "Náměstí Míru");
    let id = by_number["_id"].as_str().unwrap().to_string();
    assert!(
        !id.chars().all(|c| c.is_ascii_digit()),
        "an _id must never look like a number: {id}"
    );
    let (status, by_id) = app.get(&format!("/streets/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(by_id, by_number);
    // Leading zeros are still all digits: the street number 1.
    let (status, padded) = app.get("/streets/0001").await;
    assert_eq!(status, 200);
    assert_eq!(number(&padded), 1);
}

async fn unknown_streets_are_404_street_not_found(app: TestApp) {
    app.seed(&prague()).await;
    for path in [
        "/streets/424242",
        "/streets/99999999999999999999999",
        "/streets/not-an-id",
        "/streets/00000000-0000-0000-0000-000000000000",
        "/streets/%C5%BEitn%C3%A1",
    ] {
        let (status, body) = app.get(path).await;
        assert_error(status, &body, 404, "STREET_NOT_FOUND");
    }
}

async fn feature_shape_is_the_spec_shape(app: TestApp) {
    // A LineString from the file is served as a one-line MultiLineString.
    app.seed(&[street(
        11,
        "Žitná",
        vec![vec![[14.42, 50.07], [14.43, 50.071], [14.44, 50.072]]],
    )])
    .await;
    let (_, feature) = app.get("/streets/11").await;
    let keys: HashSet<&str> = feature
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        HashSet::from(["_id", "type", "properties", "geometry"])
    );
    assert_eq!(feature["type"], "Feature");
    assert_eq!(
        feature["properties"],
        serde_json::json!({"I_GM_U": 11, "N_GM_U": "Žitná"})
    );
    assert_eq!(feature["geometry"]["type"], "MultiLineString");
    assert_eq!(
        feature["geometry"]["coordinates"],
        serde_json::json!([[[14.42, 50.07], [14.43, 50.071], [14.44, 50.072]]])
    );
}

async fn limit_and_offset_edges(app: TestApp) {
    let many: Vec<_> = (1..=150)
        .map(|n| short_street(n, &format!("Ulice {n}"), 14.4, 50.0 + n as f64 * 0.001))
        .collect();
    app.seed(&many).await;
    assert_eq!(
        app.numbers("/streets").await.len(),
        100,
        "default limit is 100"
    );
    assert_eq!(app.numbers("/streets?limit=1").await, vec![1]);
    assert_eq!(app.numbers("/streets?limit=100").await.len(), 100);
    assert_eq!(app.numbers("/streets?limit=100&offset=100").await.len(), 50);
    assert_eq!(app.numbers("/streets?offset=0&limit=2").await, vec![1, 2]);
    assert!(
        app.numbers("/streets?offset=1000").await.is_empty(),
        "offset 1000 is allowed"
    );
    for bad in [
        "limit=0",
        "limit=101",
        "limit=-1",
        "limit=abc",
        "limit=1.5",
        "limit=",
        "offset=-1",
        "offset=1001",
        "offset=x",
        "limit=1&limit=2",
    ] {
        let (status, body) = app.get(&format!("/streets?{bad}")).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
}

async fn offset_paging_never_repeats_or_skips(app: TestApp) {
    let many: Vec<_> = (1..=40)
        .map(|n| short_street(1000 - n * 7, "Stejná", 14.4, 50.0))
        .collect();
    app.seed(&many).await;
    for query in ["", "q=stejna&"] {
        let mut seen = Vec::new();
        for page in 0..6 {
            seen.extend(
                app.numbers(&format!("/streets?{query}limit=7&offset={}", page * 7))
                    .await,
            );
        }
        let mut expected: Vec<i64> = many.iter().map(|s| s.number).collect();
        expected.sort_unstable();
        assert_eq!(seen.len(), 40, "{query}");
        let unique: HashSet<_> = seen.iter().collect();
        assert_eq!(unique.len(), 40, "no street twice: {query}");
        if query.is_empty() {
            assert_eq!(
                seen, expected,
                "without a point the order is by street number"
            );
        }
    }
}

async fn name_search_ignores_case_and_diacritics_and_ranks(app: TestApp) {
    app.seed(&prague()).await;
    // "spel" and "SPÉL" both find "Avenue des Spélugues" (word prefix), after the name
    // prefixes "Spélugues" and "Spelunka ...", and never "Hospelova" (not a word start).
    for q in ["spel", "SPÉL", "Spél", "spél"] {
        assert_eq!(
            app.numbers(&format!("/streets?q={q}")).await,
            vec![3, 9, 7],
            "q={q}"
        );
    }
    // Whole name first, then name prefix, then word prefix.
    assert_eq!(app.numbers("/streets?q=spelugues").await, vec![3, 7]);
    assert_eq!(app.numbers("/streets?q=NAMESTI").await, vec![1, 5]);
    assert_eq!(app.numbers("/streets?q=namesti%20miru").await, vec![1]);
    assert_eq!(app.numbers("/streets?q=avenue%20des%20sp").await, vec![7]);
    assert!(app.numbers("/streets?q=elugues").await.is_empty());
    assert!(
        app.numbers("/streets?q=%25").await.is_empty(),
        "a LIKE wildcard matches nothing"
    );
    assert!(app.numbers("/streets?q=_").await.is_empty());
    assert!(app.numbers("/streets?q=!!!").await.is_empty());
    // With a point too: the rule holds whatever else is asked.
    assert!(app
        .numbers("/streets?q=%25&longitude=14.4378&latitude=50.0755&radius=5000")
        .await
        .is_empty());
}

async fn q_length_edges(app: TestApp) {
    app.seed(&prague()).await;
    assert_eq!(
        app.numbers("/streets?q=v").await,
        vec![2, 9],
        "Vinohradská, then the word Vltavou"
    );
    let longest = "a".repeat(200);
    assert!(app
        .numbers(&format!("/streets?q={longest}"))
        .await
        .is_empty());
    let (status, body) = app.get(&format!("/streets?q={longest}a")).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    let (status, body) = app.get("/streets?q=").await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
}

#[derive(serde::Deserialize)]
struct Reference {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    number: i64,
    point: [f64; 2],
    line: Vec<[f64; 2]>,
    distance_m: f64,
}

async fn radius_search_matches_independent_geodesic_distances(app: TestApp) {
    let reference: Reference =
        serde_json::from_str(include_str!("../fixtures/distance_reference.json")).unwrap();
    let streets: Vec<_> = reference
        .cases
        .iter()
        .map(|c| street(c.number, "Ref", vec![c.line.clone()]))
        .collect();
    app.seed(&streets).await;
    for case in &reference.cases {
        let [lon, lat] = case.point;
        let inside = app
            .numbers(&format!(
                "/streets?longitude={lon}&latitude={lat}&radius={}",
                case.distance_m + 0.5
            ))
            .await;
        assert!(
            inside.contains(&case.number),
            "lat {lat}: {} m street within {} m",
            case.distance_m,
            case.distance_m + 0.5
        );
        let outside = app
            .numbers(&format!(
                "/streets?longitude={lon}&latitude={lat}&radius={}",
                case.distance_m - 0.5
            ))
            .await;
        assert!(
            !outside.contains(&case.number),
            "lat {lat}: {} m street outside {} m",
            case.distance_m,
            case.distance_m - 0.5
        );
    }
}

async fn radius_search_orders_nearest_first_and_defaults_to_100_m(app: TestApp) {
    // Streets due north of the point; 0.0001° of latitude is about 11.1 m at 50°N.
    let base = (14.40, 50.00);
    let streets = vec![
        short_street(1, "Třetí", base.0, base.1 + 0.0008), // ~89 m
        short_street(2, "První", base.0, base.1 + 0.0002), // ~22 m
        short_street(3, "Daleko", base.0, base.1 + 0.0020), // ~222 m
        short_street(4, "Druhá", base.0, base.1 + 0.0005), // ~56 m
    ];
    app.seed(&streets).await;
    let at = format!("longitude={}&latitude={}", base.0, base.1);
    assert_eq!(
        app.numbers(&format!("/streets?{at}")).await,
        vec![2, 4, 1],
        "default radius 100 m"
    );
    assert_eq!(
        app.numbers(&format!("/streets?{at}&radius=5000")).await,
        vec![2, 4, 1, 3]
    );
    assert_eq!(
        app.numbers(&format!("/streets?{at}&radius=5000&limit=2&offset=1"))
            .await,
        vec![4, 1]
    );
    assert_eq!(
        app.numbers(&format!("/streets?{at}&radius=30")).await,
        vec![2]
    );
}

async fn point_parameters_are_validated(app: TestApp) {
    for bad in [
        "longitude=14.4",
        "latitude=50",
        "radius=100",
        "longitude=180.1&latitude=0",
        "longitude=-180.1&latitude=0",
        "longitude=0&latitude=90.01",
        "longitude=0&latitude=-91",
        "longitude=abc&latitude=50",
        "longitude=NaN&latitude=50",
        "longitude=14&latitude=50&radius=0",
        "longitude=14&latitude=50&radius=-5",
        "longitude=14&latitude=50&radius=5000.5",
        "longitude=14&latitude=50&radius=far",
    ] {
        let (status, body) = app.get(&format!("/streets?{bad}")).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    for good in [
        "longitude=180&latitude=90",
        "longitude=-180&latitude=-90&radius=5000",
    ] {
        let (status, body) = app.get(&format!("/streets?{good}")).await;
        assert_eq!(status, 200, "{good}: {body}");
    }
}

async fn name_and_point_combine(app: TestApp) {
    app.seed(&prague()).await;
    let monaco = "longitude=7.4275&latitude=43.7405&radius=2000";
    let hits: Vec<Value> = app.streets(&format!("/streets?q=spel&{monaco}")).await;
    let numbers: Vec<i64> = hits.iter().map(number).collect();
    assert_eq!(numbers.len(), 2, "only the Monaco streets: {numbers:?}");
    assert!(numbers.contains(&3) && numbers.contains(&7));
    assert!(app
        .numbers(&format!("/streets?q=vinohradska&{monaco}"))
        .await
        .is_empty());
}
