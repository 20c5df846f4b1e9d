//! News items (SQLite): the nearest-first part of a list (the statements' other dialect
//! pieces: `dialect.rs`). Without math functions the nearest-first order is made
//! here: the located candidates near the point are read through the R*Tree `news_locations`,
//! their geodesic distances computed (`domain::geo::rounded_distance_m`), ordered by distance
//! and id, cut after the cursor, and only the page's rows are read in full.

use std::collections::HashMap;

use domain::geo::{rounded_distance_m, LonLat};
use domain::news::located_after;
use domain::news::NewsCursor;
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use uuid::Uuid;

use super::list_sql::{push_box, push_in};
use super::{get_uuid, SqliteStore};
use crate::store::news::{NewsItem, NewsQuery};
use crate::store::sql::news::{NewsRecord, NEWS_COLUMNS};
use crate::store::StoreResult;

/// `(distance, id)` of the rows after the cursor and within `bound` metres (and the radius).
fn candidates_after(
    rows: &[SqliteRow],
    query: &NewsQuery,
    point: LonLat,
    bound: f64,
) -> StoreResult<Vec<(f64, Uuid)>> {
    let radius = query.near.and_then(|n| n.radius_m);
    let mut candidates = Vec::with_capacity(rows.len());
    for row in rows {
        let at = LonLat {
            lon: row.try_get("longitude")?,
            lat: row.try_get("latitude")?,
        };
        let d = rounded_distance_m(point, at);
        let id = get_uuid(row, "id")?;
        if located_after(query.after.as_ref(), d, &id)
            && d <= bound
            && radius.is_none_or(|r| d <= r)
        {
            candidates.push((d, id));
        }
    }
    Ok(candidates)
}

/// The first reach beyond the cursor's distance, in metres, and the reach past which the
/// located items are read without the index (a city is far smaller).
const FIRST_REACH_M: f64 = 500.0;
const MAX_REACH_M: f64 = 128_000.0;

/// Items with a location, nearest first then by id, after the cursor. The candidates are read
/// through the R*Tree `news_locations` (migration 0008) within a reach beyond the cursor's
/// distance that grows (×4) until it holds a page: every item within the reach is nearer than
/// every item beyond it, so the page is exact, ties included.
pub(super) async fn located_news(
    pool: &SqlitePool,
    query: &NewsQuery,
    point: LonLat,
) -> StoreResult<Vec<NewsItem>> {
    let radius = query.near.and_then(|n| n.radius_m);
    let start = match &query.after {
        Some(NewsCursor::Distance { metres, .. }) => metres.max(0.0),
        _ => 0.0,
    };
    let mut step = FIRST_REACH_M;
    let mut candidates = loop {
        let reach = radius.map_or(start + step, |r| (start + step).min(r));
        // With a radius the reach grows up to it; without, up to MAX_REACH_M, then unbounded.
        let last = match radius {
            Some(r) => start + step >= r,
            None => start + step >= MAX_REACH_M,
        };
        let mut q = QueryBuilder::<Sqlite>::new("SELECT n.id, n.longitude, n.latitude ");
        if last && radius.is_none() {
            q.push("FROM news_items n WHERE n.longitude IS NOT NULL");
        } else {
            q.push(
                "FROM news_locations l JOIN news_items n ON n.id = l.news_id \
             WHERE n.longitude IS NOT NULL",
            );
            push_box(&mut q, point, reach);
        }
        SqliteStore::push_news_categories(&mut q, &query.categories);
        let rows = q.build().fetch_all(pool).await?;
        let bound = if last && radius.is_none() {
            f64::INFINITY
        } else {
            reach
        };
        let found = candidates_after(&rows, query, point, bound)?;
        if last || found.len() >= query.limit as usize {
            break found;
        }
        step *= 4.0;
    };
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    candidates.truncate(query.limit as usize);
    let ids: Vec<Uuid> = candidates.iter().map(|c| c.1).collect();
    let mut q = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {NEWS_COLUMNS} FROM news_items n WHERE n.id"
    ));
    push_in(&mut q, &ids);
    let mut by_id = HashMap::new();
    let rows: Vec<NewsRecord> = q.build_query_as().fetch_all(pool).await?;
    for row in rows {
        let item = NewsItem::from(row);
        by_id.insert(item.id, item);
    }
    Ok(candidates
        .into_iter()
        .filter_map(|(d, id)| {
            by_id.remove(&id).map(|mut item| {
                item.distance = Some(d);
                item
            })
        })
        .collect())
}
