//! The OGC API – Features resources (landing page, conformance, collections, items, one
//! item), run on both backends, from the read model and from the database.

use crate::helpers::{
    assert_error, extent_bbox, on_both_backends_and_the_database, short_street, street, TestApp,
};
use geo::{coord, Intersects, LineString, MultiLineString, Rect};
use serde_json::Value;
use streets_import::ImportedStreet;

on_both_backends_and_the_database!(
    landing_page_conformance_and_collections,
    collection_extent_comes_from_the_data,
    paging_by_links_returns_every_street_once,
    limit_default_maximum_and_edges,
    a_feature_is_the_streets_feature_with_its_number_as_id,
    bbox_matches_a_brute_force_selection,
    name_is_a_queryable,
    datetime_is_validated_and_matches_every_street,
    bad_input_is_400_with_the_error_body,
    content_negotiation,
);

const ITEMS: &str = "/collections/streets/items";

/// A deterministic city of `n` streets of 2 to 5 points around Prague (a linear
/// congruential generator, so every run tests the same streets).
fn generated(n: i64) -> Vec<ImportedStreet> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    (1..=n)
        .map(|number| {
            let (mut lon, mut lat) = (14.35 + next() * 0.2, 50.0 + next() * 0.12);
            let points = 2 + (next() * 4.0) as usize;
            let line = (0..points)
                .map(|_| {
                    lon += (next() - 0.5) * 0.01;
                    lat += (next() - 0.5) * 0.006;
                    [lon, lat]
                })
                .collect();
            street(number, &format!("Ulice {}", number % 37), vec![line])
        })
        .collect()
}

/// GET under the base path with headers; status, content type and the JSON body.
async fn fetch(app: &TestApp, url: &str, accept: Option<&str>) -> (u16, String, Value) {
    let mut request = app.client.get(url);
    if let Some(accept) = accept {
        request = request.header("Accept", accept);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    (status, kind, response.json().await.expect("JSON body"))
}

fn link<'a>(doc: &'a Value, rel: &str) -> Option<&'a str> {
    doc["links"]
        .as_array()?
        .iter()
        .find(|l| l["rel"] == rel)
        .and_then(|l| l["href"].as_str())
}

/// Every page from `first` on, following `next` links; the features and the pages.
async fn all_pages(app: &TestApp, first: &str) -> (Vec<Value>, Vec<Value>) {
    let mut url = app.url(first);
    let (mut features, mut pages) = (Vec::new(), Vec::new());
    loop {
        let (status, _, page) = fetch(app, &url, None).await;
        assert_eq!(status, 200, "{url}: {page}");
        features.extend(page["features"].as_array().unwrap().iter().cloned());
        let next = link(&page, "next").map(str::to_owned);
        pages.push(page);
        match next {
            Some(next) => url = next,
            None => break,
        }
        assert!(pages.len() < 1000, "paging does not end");
    }
    (features, pages)
}

fn ids(features: &[Value]) -> Vec<i64> {
    features.iter().map(|f| f["id"].as_i64().unwrap()).collect()
}

async fn landing_page_conformance_and_collections(app: TestApp) {
    app.seed(&generated(5)).await;
    for path in ["", "/"] {
        let (status, kind, landing) = fetch(&app, &app.url(path), None).await;
        assert_eq!(status, 200, "{path}: {landing}");
        assert_eq!(kind, "application/json");
        for rel in ["self", "service-desc", "conformance", "data"] {
            let href = link(&landing, rel).unwrap_or_else(|| panic!("no {rel} in {landing}"));
            assert!(href.starts_with(&app.address), "{href}");
            let response = app.client.get(href).send().await.unwrap();
            assert_eq!(response.status(), 200, "{rel}: {href}");
        }
    }
    let (_, _, conformance) = fetch(&app, &app.url("/conformance"), None).await;
    let classes: Vec<&str> = conformance["conformsTo"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for class in ["core", "geojson", "oas30"] {
        let uri = format!("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/{class}");
        assert!(classes.contains(&uri.as_str()), "{classes:?}");
    }
    let (status, _, collections) = fetch(&app, &app.url("/collections"), None).await;
    assert_eq!(status, 200);
    let list = collections["collections"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["id"], "streets");
    assert_eq!(list[0]["itemType"], "feature");
    let items = link(&list[0], "items").unwrap();
    assert_eq!(items, app.url(ITEMS));
    let (status, _, one) = fetch(&app, &app.url("/collections/streets"), None).await;
    assert_eq!(status, 200);
    assert_eq!(one, list[0]);
}

async fn collection_extent_comes_from_the_data(app: TestApp) {
    let (_, _, empty) = fetch(&app, &app.url("/collections/streets"), None).await;
    assert!(
        empty.get("extent").is_none(),
        "no streets, no extent: {empty}"
    );
    let streets = generated(200);
    app.seed(&streets).await;
    let (_, _, doc) = fetch(&app, &app.url("/collections/streets"), None).await;
    let bbox = extent_bbox(&doc);
    assert_eq!(
        doc["extent"]["spatial"]["crs"],
        "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    );
    let points: Vec<[f64; 2]> = streets
        .iter()
        .flat_map(|s| s.lines.iter().flatten().copied())
        .collect();
    let min = |i: usize| points.iter().map(|p| p[i]).fold(f64::INFINITY, f64::min);
    let max = |i: usize| {
        points
            .iter()
            .map(|p| p[i])
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let exact = [min(0), min(1), max(0), max(1)];
    for (i, (got, want)) in bbox.iter().zip(exact).enumerate() {
        // SQLite's R*Tree keeps 32-bit floats rounded outward: within 1e-5 degrees, never inside.
        assert!((got - want).abs() < 1e-5, "{bbox:?} vs {exact:?}");
        assert!(
            if i < 2 { *got <= want } else { *got >= want },
            "{bbox:?} vs {exact:?}"
        );
    }
}

async fn paging_by_links_returns_every_street_once(app: TestApp) {
    app.seed(&generated(95)).await;
    let (features, pages) = all_pages(&app, &format!("{ITEMS}?limit=10")).await;
    assert_eq!(ids(&features), (1..=95).collect::<Vec<i64>>());
    assert_eq!(pages.len(), 10);
    for (i, page) in pages.iter().enumerate() {
        assert_eq!(page["type"], "FeatureCollection");
        assert_eq!(page["numberMatched"], 95);
        let returned = page["features"].as_array().unwrap().len();
        assert_eq!(page["numberReturned"], returned);
        assert_eq!(returned, if i < 9 { 10 } else { 5 });
        assert_eq!(link(page, "prev").is_some(), i > 0, "{}", page["links"]);
        assert!(link(page, "self").is_some());
    }
    // prev goes back to the page before.
    let prev = link(&pages[3], "prev").unwrap();
    let (_, _, back) = fetch(&app, prev, None).await;
    assert_eq!(back["features"], pages[2]["features"]);
    // Past the end: nothing, no next.
    let (_, _, past) = fetch(&app, &app.url(&format!("{ITEMS}?offset=95")), None).await;
    assert_eq!(past["numberReturned"], 0);
    assert_eq!(past["numberMatched"], 95);
    assert!(link(&past, "next").is_none());
}

async fn limit_default_maximum_and_edges(app: TestApp) {
    app.seed(&generated(30)).await;
    let count = |doc: &Value| doc["features"].as_array().unwrap().len();
    let (_, _, page) = fetch(&app, &app.url(ITEMS), None).await;
    assert_eq!(count(&page), 10, "default features.default_limit");
    let (_, _, page) = fetch(&app, &app.url(&format!("{ITEMS}?limit=1")), None).await;
    assert_eq!(count(&page), 1);
    let (_, _, page) = fetch(&app, &app.url(&format!("{ITEMS}?limit=10000")), None).await;
    assert_eq!(count(&page), 30);
    // Over the maximum is the maximum, not an error (the standard), and the links say so.
    let (status, _, page) = fetch(&app, &app.url(&format!("{ITEMS}?limit=10001")), None).await;
    assert_eq!(status, 200);
    assert!(
        link(&page, "self").unwrap().contains("limit=10000"),
        "{page}"
    );
    for bad in ["0", "-1", "x", "2.5", ""] {
        let (status, _, body) = fetch(&app, &app.url(&format!("{ITEMS}?limit={bad}")), None).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
}

async fn a_feature_is_the_streets_feature_with_its_number_as_id(app: TestApp) {
    app.seed(&generated(12)).await;
    let (_, _, page) = fetch(&app, &app.url(&format!("{ITEMS}?limit=100")), None).await;
    for feature in page["features"].as_array().unwrap() {
        let number = feature["id"].as_i64().unwrap();
        let (_, seed_feature) = app.get(&format!("/streets/{number}")).await;
        let mut expected = seed_feature.clone();
        expected["id"] = number.into();
        assert_eq!(feature, &expected);
        let (status, kind, one) = fetch(&app, &app.url(&format!("{ITEMS}/{number}")), None).await;
        assert_eq!(status, 200);
        assert_eq!(kind, "application/geo+json");
        let mut without_links = one.clone();
        without_links.as_object_mut().unwrap().remove("links");
        assert_eq!(without_links, expected);
        assert_eq!(
            link(&one, "self").unwrap(),
            app.url(&format!("{ITEMS}/{number}"))
        );
        assert_eq!(
            link(&one, "collection").unwrap(),
            app.url("/collections/streets")
        );
    }
    for unknown in ["999", "0", "abc", "-", "99999999999999999999"] {
        let (status, _, body) = fetch(&app, &app.url(&format!("{ITEMS}/{unknown}")), None).await;
        assert_error(status, &body, 404, "STREET_NOT_FOUND");
    }
    let (status, _, body) = fetch(&app, &app.url("/collections/roads/items/1"), None).await;
    assert_error(status, &body, 404, "NOT_FOUND");
}

/// The numbers of the streets whose geometry intersects the box, by geo's predicate on the
/// whole MultiLineString (the service tests segment by segment).
fn brute_force(streets: &[ImportedStreet], b: [f64; 4]) -> Vec<i64> {
    let rects: Vec<Rect> = if b[0] > b[2] {
        vec![
            Rect::new(coord! {x: b[0], y: b[1]}, coord! {x: 180.0, y: b[3]}),
            Rect::new(coord! {x: -180.0, y: b[1]}, coord! {x: b[2], y: b[3]}),
        ]
    } else {
        vec![Rect::new(
            coord! {x: b[0], y: b[1]},
            coord! {x: b[2], y: b[3]},
        )]
    };
    let mut numbers: Vec<i64> = streets
        .iter()
        .filter(|s| {
            let geometry = MultiLineString::new(
                s.lines
                    .iter()
                    .map(|l| LineString::from(l.iter().map(|p| (p[0], p[1])).collect::<Vec<_>>()))
                    .collect(),
            );
            rects.iter().any(|r| r.intersects(&geometry))
        })
        .map(|s| s.number)
        .collect();
    numbers.sort_unstable();
    numbers
}

async fn bbox_matches_a_brute_force_selection(app: TestApp) {
    // The demo file as `streets-api import` reads it, then a generated city.
    let demo = streets_import::read_file(
        std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/demo/prague-demo-5514.geojson"
        )),
        None,
    )
    .unwrap();
    for streets in [demo, generated(400)] {
        app.seed(&streets).await;
        let points: Vec<[f64; 2]> = streets
            .iter()
            .flat_map(|s| s.lines.iter().flatten().copied())
            .collect();
        let (lon0, lat0) = (
            points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min),
            points.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min),
        );
        let (lon1, lat1) = (
            points
                .iter()
                .map(|p| p[0])
                .fold(f64::NEG_INFINITY, f64::max),
            points
                .iter()
                .map(|p| p[1])
                .fold(f64::NEG_INFINITY, f64::max),
        );
        let mut boxes = vec![
            [lon0, lat0, lon1, lat1],
            [-180.0, -90.0, 180.0, 90.0],
            [0.0, 0.0, 1.0, 1.0],
        ];
        // A grid of boxes of three sizes over the data, and every street's own first vertex as
        // a zero-size box.
        for size in [0.003, 0.02, 0.07] {
            for i in 0..6 {
                for j in 0..6 {
                    let w = lon0 + (lon1 - lon0) * f64::from(i) / 6.0;
                    let s = lat0 + (lat1 - lat0) * f64::from(j) / 6.0;
                    boxes.push([w, s, w + size, s + size * 0.6]);
                }
            }
        }
        boxes.extend(streets.iter().take(20).map(|s| {
            let p = s.lines[0][0];
            [p[0], p[1], p[0], p[1]]
        }));
        let mut nonempty = 0;
        for b in &boxes {
            let bbox = b.iter().map(f64::to_string).collect::<Vec<_>>().join(",");
            let (features, pages) = all_pages(&app, &format!("{ITEMS}?bbox={bbox}&limit=37")).await;
            let expected = brute_force(&streets, *b);
            assert_eq!(ids(&features), expected, "bbox={bbox}");
            assert_eq!(pages[0]["numberMatched"], expected.len(), "bbox={bbox}");
            for page in &pages[1..] {
                assert!(
                    link(page, "self").unwrap().contains("bbox="),
                    "filters stay in the links"
                );
            }
            nonempty += usize::from(!expected.is_empty() && expected.len() < streets.len());
        }
        assert!(
            nonempty > 20,
            "the boxes must select some streets, not all: {nonempty}"
        );
    }
    // A box across the antimeridian.
    app.seed(&[
        short_street(1, "East", 179.5, 0.0),
        short_street(2, "West", -179.6, 0.0),
        short_street(3, "Greenwich", 0.0, 0.0),
    ])
    .await;
    let (features, _) = all_pages(&app, &format!("{ITEMS}?bbox=179,-1,-179,1")).await;
    assert_eq!(ids(&features), vec![1, 2]);
}

async fn name_is_a_queryable(app: TestApp) {
    let streets = generated(120);
    app.seed(&streets).await;
    let (features, pages) = all_pages(&app, &format!("{ITEMS}?name=ULICE%205&limit=1")).await;
    let expected: Vec<i64> = streets
        .iter()
        .filter(|s| s.name == "Ulice 5")
        .map(|s| s.number)
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(ids(&features), expected);
    assert_eq!(pages[0]["numberMatched"], expected.len());
    assert!(
        link(&pages[0], "next").unwrap().contains("name=ULICE+5"),
        "{}",
        pages[0]["links"]
    );
    // With a box: both filters.
    let b = [14.35, 50.0, 14.45, 50.06];
    let (features, _) = all_pages(
        &app,
        &format!("{ITEMS}?name=ulice%205&bbox=14.35,50,14.45,50.06"),
    )
    .await;
    let in_box = brute_force(&streets, b);
    let both: Vec<i64> = expected
        .iter()
        .copied()
        .filter(|n| in_box.contains(n))
        .collect();
    assert_eq!(ids(&features), both);
    // Diacritics and case are ignored; a partial name matches nothing.
    app.seed(&[
        short_street(1, "Náměstí Míru", 14.43, 50.07),
        short_street(2, "Náměstí", 14.44, 50.07),
    ])
    .await;
    let (features, _) = all_pages(&app, &format!("{ITEMS}?name=namesti%20miru")).await;
    assert_eq!(ids(&features), vec![1]);
    let (features, _) = all_pages(&app, &format!("{ITEMS}?name=N%C3%A1m%C4%9Bst%C3%AD")).await;
    assert_eq!(ids(&features), vec![2]);
    let (features, _) = all_pages(&app, &format!("{ITEMS}?name=Mir")).await;
    assert!(features.is_empty());
}

async fn datetime_is_validated_and_matches_every_street(app: TestApp) {
    app.seed(&generated(7)).await;
    for value in [
        "2026-11-27T10:00:00Z",
        "2026-01-01/..",
        "../2026-01-01T00:00:00Z",
        "2026-01-01",
    ] {
        let (status, _, page) =
            fetch(&app, &app.url(&format!("{ITEMS}?datetime={value}")), None).await;
        assert_eq!(status, 200, "{value}: {page}");
        assert_eq!(page["numberMatched"], 7, "streets have no time: all match");
    }
    for bad in ["today", "2026-02-30", "../..", "2026-02-01/2026-01-01"] {
        let (status, _, body) =
            fetch(&app, &app.url(&format!("{ITEMS}?datetime={bad}")), None).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
}

async fn bad_input_is_400_with_the_error_body(app: TestApp) {
    app.seed(&generated(3)).await;
    for query in [
        "bbox=1,2,3",
        "bbox=14,50,15",
        "bbox=a,b,c,d",
        "bbox=0,10,1,5",
        "bbox=-181,0,1,1",
        "bbox=0,0,1,91",
        "bbox-crs=http://www.opengis.net/def/crs/OGC/1.3/CRS84",
        "offset=-1",
        "offset=4294967296",
        "name=",
        "f=html",
        "unknown=1",
        "limit=1&limit=2",
    ] {
        let (status, _, body) = fetch(&app, &app.url(&format!("{ITEMS}?{query}")), None).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    for path in [
        "/",
        "/conformance",
        "/collections",
        "/collections/streets",
        &format!("{ITEMS}/1"),
    ] {
        let (status, _, body) = fetch(&app, &app.url(&format!("{path}?limit=1")), None).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
        let (status, _, _) = fetch(&app, &app.url(&format!("{path}?f=json")), None).await;
        assert_eq!(status, 200, "{path}");
    }
    let (status, _, body) = fetch(&app, &app.url("/collections/roads"), None).await;
    assert_error(status, &body, 404, "NOT_FOUND");
    let (status, _, body) = fetch(&app, &app.url("/collections/roads/items"), None).await;
    assert_error(status, &body, 404, "NOT_FOUND");
}

async fn content_negotiation(app: TestApp) {
    app.seed(&generated(3)).await;
    let url = app.url(ITEMS);
    let (_, kind, default) = fetch(&app, &url, None).await;
    assert_eq!(kind, "application/geo+json");
    let (_, kind, geo) = fetch(&app, &url, Some("application/geo+json")).await;
    assert_eq!(kind, "application/geo+json");
    let (_, kind, json) = fetch(&app, &url, Some("application/json")).await;
    assert_eq!(kind, "application/json");
    let (_, kind, _) = fetch(
        &app,
        &url,
        Some("text/html,application/xhtml+xml,*/*;q=0.8"),
    )
    .await;
    assert_eq!(kind, "application/geo+json");
    assert_eq!(default, geo);
    assert_eq!(default, json);
}
