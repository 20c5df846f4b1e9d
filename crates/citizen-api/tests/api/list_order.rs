//! The public list is the database's order: every page, over ties in filing time and in place,
//! every filter, paging and both directions, holds exactly the rows a plain read of the issues
//! gives in that order (by date: filing time, then issue id; nearest first: the backend's own
//! measure, PostGIS's `<->` on PostgreSQL and the shown geodesic distance on SQLite, then issue
//! id, the rows without a place after the located ones by id). A change made through another
//! replica, or by SQL alone, is in the very next page.

use chrono::SecondsFormat;
use domain::geo::{distance_cm, LonLat};
use serde_json::Value;
use service_kit::db::{Database, DatabaseSettings};
use sqlx::Row;
use test_support::on_both_backends;

use crate::admin_helpers::id;
use crate::helpers::{column, spawn_on, Filing, TestApp};
use crate::news_generation::raw_execute;

on_both_backends!(crate::helpers::spawn_app;
    every_page_is_the_database_order,
    a_change_elsewhere_is_in_the_next_page,
);

/// A listed issue as a plain read gives it, in the date order (newest first).
#[derive(Debug, Clone)]
struct Listed {
    issue: String,
    category: String,
    status: String,
    search: String,
    filed_micros: i64,
    point: Option<LonLat>,
}

async fn pool(app: &TestApp) -> Database {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    Database::connect(&settings, citizen_api::store::SCHEMA)
        .await
        .unwrap()
}

/// A row of [`listed`]'s statement.
fn one<R: Row>(row: &R) -> Listed
where
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<f64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> &'r str: sqlx::ColumnIndex<R>,
{
    Listed {
        issue: row.get("issue"),
        category: row.get("category"),
        status: row.get("status"),
        search: row.get("search"),
        filed_micros: row.get("filed"),
        point: point(row.get("longitude"), row.get("latitude")),
    }
}

/// Every listed issue, newest first (filing time, then issue id, both descending).
async fn listed(app: &TestApp) -> Vec<Listed> {
    let columns = |id: &str, micros: &str| {
        format!(
            "SELECT {id}, i.status, i.search, i.longitude, i.latitude, {micros} AS filed \
             FROM issues i WHERE i.status <> 'moved' \
             ORDER BY i.report_inserted_at DESC, i.id DESC"
        )
    };
    match pool(app).await {
        Database::Postgres(pool) => {
            let sql = columns(
                "i.id::text AS issue, i.category_id::text AS category",
                "(extract(epoch FROM i.report_inserted_at) * 1000000)::bigint",
            );
            let rows = sqlx::query(&sql).fetch_all(&pool).await.unwrap();
            rows.iter().map(one).collect()
        }
        Database::Sqlite(pool) => {
            let sql = columns(
                "i.id AS issue, i.category_id AS category",
                "i.report_inserted_at",
            );
            let rows = sqlx::query(&sql).fetch_all(&pool).await.unwrap();
            rows.iter().map(one).collect()
        }
    }
}

fn point(lon: Option<f64>, lat: Option<f64>) -> Option<LonLat> {
    Some(LonLat {
        lon: lon?,
        lat: lat?,
    })
}

/// Each listed issue's distance from `from` in the backend's own measure (by issue id): on
/// PostgreSQL as `<->` gives it, on SQLite the geodesic a row shows.
async fn measures(app: &TestApp, rows: &[Listed], from: LonLat) -> Vec<(String, f64)> {
    match pool(app).await {
        Database::Postgres(pool) => {
            let sql = "SELECT i.id::text AS issue, i.location <-> \
                 public.ST_SetSRID(public.ST_MakePoint($1, $2), 4326)::public.geography AS d \
                 FROM issues i WHERE i.status <> 'moved' AND i.location IS NOT NULL";
            sqlx::query(sql)
                .bind(from.lon)
                .bind(from.lat)
                .fetch_all(&pool)
                .await
                .unwrap()
                .iter()
                .map(|row| (row.get("issue"), row.get("d")))
                .collect()
        }
        Database::Sqlite(_) => rows
            .iter()
            .filter_map(|row| Some((row.issue.clone(), distance_cm(from, row.point?))))
            .collect(),
    }
}

/// What a page must hold.
struct Case {
    query: String,
    keep: Box<dyn Fn(&Listed) -> bool>,
    /// Nearest first from this point (else by date).
    near: Option<LonLat>,
    ascending: bool,
    limit: usize,
    offset: usize,
}

impl Case {
    fn new(query: impl Into<String>) -> Self {
        Self {
            query: query.into(),
            keep: Box::new(|_| true),
            near: None,
            ascending: false,
            limit: 100,
            offset: 0,
        }
    }

    fn keep(mut self, keep: impl Fn(&Listed) -> bool + 'static) -> Self {
        self.keep = Box::new(keep);
        self
    }

    fn page(mut self, limit: usize, offset: usize) -> Self {
        (self.limit, self.offset) = (limit, offset);
        self
    }

    fn ascending(mut self) -> Self {
        self.ascending = true;
        self
    }

    fn nearest(mut self, lon: f64, lat: f64) -> Self {
        self.near = Some(LonLat { lon, lat });
        self
    }
}

/// The page's issue ids as the database's order gives them, and whether a row follows.
async fn expected(app: &TestApp, rows: &[Listed], case: &Case) -> (Vec<String>, bool) {
    let mut kept: Vec<Listed> = rows.iter().filter(|r| (case.keep)(r)).cloned().collect();
    if case.ascending {
        kept.reverse();
    }
    if let Some(from) = case.near {
        let measured = measures(app, rows, from).await;
        let mut located: Vec<(f64, &Listed)> = kept
            .iter()
            .filter_map(|row| {
                let (_, d) = measured.iter().find(|(id, _)| *id == row.issue)?;
                Some((*d, row))
            })
            .collect();
        located.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.issue.cmp(&b.1.issue)));
        let mut unlocated: Vec<&Listed> = kept.iter().filter(|r| r.point.is_none()).collect();
        unlocated.sort_by(|a, b| a.issue.cmp(&b.issue));
        kept = located
            .into_iter()
            .map(|(_, row)| row.clone())
            .chain(unlocated.into_iter().cloned())
            .collect();
    }
    let ids: Vec<String> = kept.iter().map(|r| r.issue.clone()).collect();
    let page = ids
        .iter()
        .skip(case.offset)
        .take(case.limit)
        .cloned()
        .collect();
    (page, ids.len() > case.offset + case.limit)
}

async fn assert_pages(app: &TestApp, cases: &[Case]) {
    let rows = listed(app).await;
    for case in cases {
        let body = app.get_ok(&format!("/reports{}", case.query)).await;
        let (want, next) = expected(app, &rows, case).await;
        assert_eq!(column(&body, "issue_id"), want, "{}", case.query);
        assert_eq!(body["hasNextOffset"], next, "{}", case.query);
    }
}

/// The `i`-th filing of the city: four reports a second (ties in filing time, broken by id),
/// titled from five phrases `q` tells apart; a third without a place, the others on seven
/// places, some shared (ties in distance, broken by id).
fn city_filing(i: i64) -> Filing {
    const WORDS: [&str; 5] = [
        "lampa u skoly",
        "vytluk",
        "lampa v parku",
        "lavicka",
        "strom",
    ];
    let filing = Filing::new(&format!("{} {i}", WORDS[i as usize % 5]), i / 4);
    if i % 3 == 0 {
        filing
    } else {
        filing.at(
            14.40 + (i % 7) as f64 / 1000.0,
            50.08 + (i % 2) as f64 / 2000.0,
        )
    }
}

async fn every_page_is_the_database_order(app: TestApp) {
    let roads = app.admin_category("Silnice", None).await;
    let lights = app.admin_category("Osvětlení", None).await;
    let boss = app.boss();
    for i in 0..24_i64 {
        let filed = app.file(city_filing(i)).await;
        match i % 6 {
            1 => assert_eq!(app.move_to(filed.issue, roads, &boss).await.0, 200),
            2 => assert_eq!(app.step(filed.issue, "accept", &boss).await.0, 200),
            4 => {
                let (status, body) = app.move_to(filed.issue, lights, &boss).await;
                assert_eq!(status, 200, "{body}");
                let (status, _) = app.step(id(&body, "issue_id"), "accept", &boss).await;
                assert_eq!(status, 200);
            }
            _ => {}
        }
    }
    let t = |second: i64| {
        app.time(second)
            .to_rfc3339_opts(SecondsFormat::Micros, true)
            .replace('+', "%2B")
    };
    let micros = |second: i64| app.time(second).timestamp_micros();
    let (from, to) = (micros(1), micros(3));
    let roads_text = roads.to_string();
    let lights_text = lights.to_string();
    let roads_only = roads_text.clone();
    let lights_lampa = lights_text.clone();
    let lights_near = lights_text.clone();
    let cases = vec![
        Case::new(""),
        Case::new("?orderDirection=asc").ascending(),
        Case::new("?limit=5").page(5, 0),
        Case::new("?limit=5&offset=3").page(5, 3),
        Case::new("?limit=3&offset=7&orderDirection=asc")
            .ascending()
            .page(3, 7),
        Case::new("?q=lampa").keep(|r| r.search.contains("lampa")),
        Case::new("?q=lampa&limit=2&offset=1")
            .keep(|r| r.search.contains("lampa"))
            .page(2, 1),
        Case::new("?q=zzz").keep(|_| false),
        Case::new("?status=open").keep(|r| r.status == "open"),
        Case::new("?status=accepted&status=resolved")
            .keep(|r| r.status == "accepted" || r.status == "resolved"),
        Case::new(format!("?category={roads}")).keep(move |r| r.category == roads_only),
        Case::new(format!("?category={roads}&category={lights}&q=lampa")).keep(move |r| {
            (r.category == roads_text || r.category == lights_lampa) && r.search.contains("lampa")
        }),
        Case::new(format!("?dateFrom={}&dateTo={}", t(1), t(3)))
            .keep(move |r| (from..=to).contains(&r.filed_micros)),
        Case::new("?location=14.41,50.08&orderBy=location").nearest(14.41, 50.08),
        Case::new("?location=14.403,50.0805&orderBy=location&limit=3&offset=2")
            .nearest(14.403, 50.0805)
            .page(3, 2),
        Case::new("?location=14.4035,50.0802&orderBy=location&orderDirection=asc&limit=7")
            .nearest(14.4035, 50.0802)
            .page(7, 0),
        Case::new("?location=14.41,50.08&orderBy=location&status=open")
            .nearest(14.41, 50.08)
            .keep(|r| r.status == "open"),
        Case::new("?location=14.41,50.08&orderBy=location&q=lampa")
            .nearest(14.41, 50.08)
            .keep(|r| r.search.contains("lampa")),
        // Past the located rows: those without a place follow by id.
        Case::new("?location=14.4,50.08&orderBy=location&offset=12&limit=5")
            .nearest(14.4, 50.08)
            .page(5, 12),
        Case::new(format!(
            "?category={lights}&location=14.402,50.08&orderBy=location"
        ))
        .nearest(14.402, 50.08)
        .keep(move |r| r.category == lights_near),
    ];
    assert_pages(&app, &cases).await;
}

async fn a_change_elsewhere_is_in_the_next_page(app: TestApp) {
    let first = app.file(Filing::new("Lampa", 1)).await;
    let other = spawn_on(app.db.clone(), |_| {}).await;
    // Filed and stepped through the other replica: at once in this one's pages.
    let second = other.file(Filing::new("Výtluk", 2)).await;
    let (status, _) = other.step(first.issue, "accept", &other.boss()).await;
    assert_eq!(status, 200);
    let page = app.get_ok("/reports?status=open").await;
    assert_eq!(column(&page, "issue_id"), [second.issue.to_string()]);
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
    assert_eq!(column(&page, "issue_id"), [first.issue.to_string()]);
    // Votes placed through the other replica, then revoked by SQL alone.
    let (status, body) = other
        .vote(&other.token("voter", &[]), &first.report, 2)
        .await;
    assert_eq!(status, 200, "{body}");
    let page = app.get_ok("/reports?status=resolved").await;
    assert_eq!(page["reports"][0]["votes_count"], 2, "{page}");
    raw_execute(&app, "UPDATE vote_tokens SET revoked_at = inserted_at").await;
    let page: Value = app.get_ok("/reports?status=resolved").await;
    assert_eq!(page["reports"][0]["votes_count"], 0, "{page}");
}
