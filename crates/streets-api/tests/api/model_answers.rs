//! The read model's answers against a brute-force oracle written here from the rules alone (the
//! name rule of the SQL backends, `domain::geo::distance_to_lines_m`): a generated city of a few
//! thousand streets, many searches and pages, every answer compared in full, on both backends.

use crate::helpers::{street, TestApp};
use domain::geo::{distance_to_lines_m, LonLat};
use domain::text::fold;
use streets_import::ImportedStreet;
use test_support::on_both_backends;
use test_support::{name_rank, XorShift};

on_both_backends!(
    crate::helpers::spawn_app;
    name_searches_and_pages_match_the_oracle,
    radius_searches_match_the_oracle,
);

const WORDS: &[&str] = &[
    "Nová",
    "Nové",
    "Nov",
    "Stará",
    "Na",
    "Nábřeží",
    "náměstí",
    "U",
    "Úvoz",
    "ulice",
    "Ulička",
    "Karla",
    "Karlova",
    "Karlín",
    "1",
    "12",
    "12a",
    "Žižkova",
    "Zizkov",
    "Straße",
    "Spálená",
    "Spa",
    "Václavské",
    "V",
    "Vinohradská",
    "nova",
];

/// Streets in a 40 × 40 grid of ~150 m cells around Prague, names of one to four words (some
/// names repeated, some words twice in one name), short bent lines.
fn city(rng: &mut XorShift, n: i64) -> Vec<ImportedStreet> {
    (0..n)
        .map(|i| {
            let words = 1 + rng.below(4);
            let name: Vec<&str> = (0..words).map(|_| WORDS[rng.below(WORDS.len())]).collect();
            let (row, col) = (i / 40, i % 40);
            let lon = 14.40 + col as f64 * 0.002 + rng.unit() * 0.0005;
            let lat = 50.05 + row as f64 * 0.0014 + rng.unit() * 0.0005;
            let lines = vec![vec![
                [lon, lat],
                [lon + 0.0008, lat + rng.unit() * 0.0003],
                [lon + 0.0015, lat + 0.0004],
            ]];
            // Numbers not in file order, with gaps.
            street(1 + (i * 7919) % 100_003, &name.join(" "), lines)
        })
        .collect()
}

fn by_rank(streets: &[ImportedStreet], q: &str) -> Vec<i64> {
    let q = fold(q);
    let mut hits: Vec<_> = streets
        .iter()
        .filter_map(|s| {
            let folded = fold(&s.name);
            name_rank(&folded, &q).map(|r| (r, folded, s.number))
        })
        .collect();
    hits.sort();
    hits.into_iter().map(|(_, _, n)| n).collect()
}

fn page(all: &[i64], offset: usize, limit: usize) -> Vec<i64> {
    all.iter().skip(offset).take(limit).copied().collect()
}

async fn name_searches_and_pages_match_the_oracle(app: TestApp) {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let streets = city(&mut rng, 1600);
    app.seed(&streets).await;
    let mut queries: Vec<String> = vec![
        "n", "no", "nov", "nova", "nove", "u", "ul", "ulice", "1", "12", "k", "karl", "z", "ziz",
        "s", "stra", "strasse", "v", "na", "nabrezi", "spa", "nova nov", "u karl", "ulice 1",
        "nova 12a", "x", "zzz",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    // Whole names too, so the whole-name rank is exercised.
    for _ in 0..10 {
        queries.push(streets[rng.below(streets.len())].name.clone());
    }
    for q in &queries {
        let all = by_rank(&streets, q);
        let encoded = serde_urlencoded::to_string([("q", q)]).unwrap();
        for (offset, limit) in [
            (0, 100),
            (0, 7),
            (5, 20),
            (60, 100),
            (300, 100),
            (1000, 100),
        ] {
            let got = app
                .numbers(&format!("/streets?{encoded}&offset={offset}&limit={limit}"))
                .await;
            assert_eq!(
                got,
                page(&all, offset, limit),
                "q={q} offset={offset} limit={limit}"
            );
        }
    }
    // Without q: by number.
    let mut numbers: Vec<i64> = streets.iter().map(|s| s.number).collect();
    numbers.sort_unstable();
    assert_eq!(
        app.numbers("/streets?offset=990&limit=100").await,
        page(&numbers, 990, 100)
    );
    assert!(app.metric("streets_reads_total{source=\"memory\"").await > 100);
}

async fn radius_searches_match_the_oracle(app: TestApp) {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut streets = city(&mut rng, 1600);
    // Streets meeting at one point, so some distances tie exactly and order by number.
    let meet = [14.43, 50.06];
    for (k, n) in [500_001_i64, 500_000, 500_002].iter().enumerate() {
        let end = [meet[0] + 0.001 * (k as f64 - 1.0), meet[1] + 0.001];
        streets.push(street(*n, "Křižovatka", vec![vec![meet, end]]));
    }
    app.seed(&streets).await;
    let mut points: Vec<(f64, f64)> = (0..60)
        .map(|_| (14.40 + rng.unit() * 0.08, 50.05 + rng.unit() * 0.056))
        .collect();
    points.push((meet[0], meet[1] - 0.0003));
    for (lon, lat) in points {
        let at = LonLat { lon, lat };
        for radius in [30.0, 100.0, 300.0, 1200.0] {
            let mut hits: Vec<(f64, i64)> = streets
                .iter()
                .map(|s| (distance_to_lines_m(at, &s.lines), s.number))
                .filter(|(d, _)| *d <= radius)
                .collect();
            hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let all: Vec<i64> = hits.iter().map(|h| h.1).collect();
            for (offset, limit) in [(0, 100), (3, 5)] {
                let got = app
                    .numbers(&format!(
                        "/streets?longitude={lon}&latitude={lat}&radius={radius}&offset={offset}&limit={limit}"
                    ))
                    .await;
                assert_eq!(got, page(&all, offset, limit), "{lon},{lat} r={radius}");
            }
            // With a name filter.
            let named: Vec<i64> = hits
                .iter()
                .filter(|(_, n)| {
                    let s = streets.iter().find(|s| s.number == *n).unwrap();
                    name_rank(&fold(&s.name), "nov").is_some()
                })
                .map(|h| h.1)
                .collect();
            let got = app
                .numbers(&format!(
                    "/streets?q=nov&longitude={lon}&latitude={lat}&radius={radius}"
                ))
                .await;
            assert_eq!(got, page(&named, 0, 100), "q=nov {lon},{lat} r={radius}");
        }
    }
}
