//! The public list nearest first on SQLite, through the R*Tree `issue_locations` (migration
//! 0006): rather than measuring every located issue, the ids and points within a reach are read
//! through the index, measured and ordered here by the distance each row shows (the WGS84 geodesic to
//! the centimetre, `domain::geo::DistancesFrom`), then by issue id; the reach grows (×2) until
//! it holds a whole page. Every issue within the reach is nearer than every issue beyond it, so
//! a reach that holds `offset + limit + 1` rows holds the page exactly, ties included. Past
//! [`MAX_REACH_M`] the located rows are read without the index (few rows then), and rows
//! without a location follow in id order, as on PostgreSQL. The page's rows (with their content
//! and vote counts) are then read by id: only the page's, not every candidate's.

use domain::geo::{DistancesFrom, LonLat};
use std::collections::HashMap;

use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use uuid::Uuid;

use super::get_uuid;
use super::list_sql::{push_box, push_distance2, push_in, push_select};
use super::SqliteStore;
use crate::store::records::list_row;
use crate::store::sql::list_filter::push_list_filters;
use crate::store::{IssueRow, ReportFilter, StoreResult};

/// The first reach, in metres. Every issue in a reach's box is read (to test the filters and
/// order by distance), so the reach starts small and doubles: at 1 000 000 reports in a city
/// like Prague a first reach of 500 m held ~3 000 issues, each a random page of `issues`, and a
/// nearest-first page took ~100 ms; a box of 100 m holds ~150 there, and a page of a sparser
/// city costs a few more (cheap) steps.
const FIRST_REACH_M: f64 = 100.0;
/// The reach's factor per step: the last step reads at most about 4 times the rows it needs.
const GROWTH: f64 = 2.0;
/// Beyond this reach (metres; a city is far smaller) the located rows are read without the index.
const MAX_REACH_M: f64 = 128_000.0;

/// The rows of the page nearest first (`offset` already skipped, at most `limit + 1`): the
/// page's issues are found from their ids and points alone, then their rows are read by id.
pub(super) async fn nearest_rows(
    pool: &SqlitePool,
    filter: &ReportFilter,
    point: LonLat,
) -> StoreResult<Vec<IssueRow>> {
    let needed = usize::try_from(u64::from(filter.page.limit) + 1 + u64::from(filter.page.offset))
        .unwrap_or(usize::MAX);
    let radius = filter.near.as_ref().and_then(|n| n.radius_m);
    let from = DistancesFrom::new(point);
    let mut reach = FIRST_REACH_M;
    let located: Vec<Uuid> = loop {
        // With a radius the reach grows up to it; without, up to MAX_REACH_M, then unbounded.
        let last = match radius {
            Some(r) => reach >= r,
            None => reach >= MAX_REACH_M,
        };
        let reach_m = radius.map_or(reach, |r| reach.min(r));
        let unbounded = last && radius.is_none();
        let mut q = QueryBuilder::<Sqlite>::new("SELECT i.id, i.longitude, i.latitude ");
        if unbounded {
            q.push("FROM issues i WHERE i.status <> 'moved' AND i.longitude IS NOT NULL");
        } else {
            q.push(
                "FROM issue_locations l JOIN issues i ON i.id = l.issue_id \
                 WHERE i.status <> 'moved'",
            );
            push_box(&mut q, point, reach_m);
            q.push(" AND i.longitude IS NOT NULL");
            if let Some(radius) = radius {
                // The radius filter of every order (the local plane, `push_within`).
                q.push(" AND (");
                push_distance2(&mut q, "i", point);
                q.push(") <= ").push_bind(radius * radius);
            }
        }
        push_list_filters::<SqliteStore>(&mut q, filter);
        let mut found: Vec<(f64, Uuid)> = Vec::new();
        for row in q.build().fetch_all(pool).await? {
            let at = LonLat {
                lon: row.try_get("longitude")?,
                lat: row.try_get("latitude")?,
            };
            let distance = from.rounded_cm(at);
            // The box holds the reach's circle; its corners beyond are not yet in order.
            if unbounded || radius.is_some_and(|r| reach >= r) || distance <= reach_m {
                found.push((distance, get_uuid(&row, "id")?));
            }
        }
        if last || found.len() >= needed {
            found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            found.truncate(needed);
            break found.into_iter().map(|(_, id)| id).collect();
        }
        reach *= GROWTH;
    };
    let offset = usize::try_from(filter.page.offset).unwrap_or(usize::MAX);
    let mut rows = by_id(pool, located.get(offset..).unwrap_or_default()).await?;
    let missing = needed.saturating_sub(located.len().max(offset));
    let skip = offset.saturating_sub(located.len());
    if radius.is_none() && missing > 0 {
        let mut q = QueryBuilder::<Sqlite>::new("");
        push_select(&mut q, "FROM issues i");
        q.push(" AND i.longitude IS NULL");
        push_list_filters::<SqliteStore>(&mut q, filter);
        q.push(" ORDER BY i.id LIMIT ")
            .push_bind(i64::try_from(missing).unwrap_or(i64::MAX))
            .push(" OFFSET ")
            .push_bind(i64::try_from(skip).unwrap_or(i64::MAX));
        for row in q.build().fetch_all(pool).await? {
            rows.push(list_row(&row)?);
        }
    }
    Ok(rows)
}

/// The list rows of `ids`, in that order.
async fn by_id(pool: &SqlitePool, ids: &[Uuid]) -> StoreResult<Vec<IssueRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = QueryBuilder::<Sqlite>::new("");
    push_select(&mut q, "FROM issues i");
    q.push(" AND i.id");
    push_in(&mut q, ids);
    let mut read: HashMap<Uuid, IssueRow> = HashMap::with_capacity(ids.len());
    for row in q.build().fetch_all(pool).await? {
        let row = list_row(&row)?;
        read.insert(row.issue_id, row);
    }
    Ok(ids.iter().filter_map(|id| read.remove(id)).collect())
}
