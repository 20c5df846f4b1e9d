//! The public list nearest first on SQLite, through the R*Tree `issue_locations` (migration
//! 0006): rather than ordering every located issue by its distance, the rows within a reach are
//! read through the index, ordered and cut; the reach grows (×2) until it holds a whole page.
//! Every issue within the reach is nearer than every issue beyond it, so a reach that holds
//! `offset + limit + 1` rows holds the page exactly, ties included (the order is distance, then
//! id, as without the index). Past [`MAX_REACH_M`] the located rows are read without the index
//! (few rows then), and rows without a location follow in id order, as on PostgreSQL.

use domain::geo::{bbox_around, LonLat};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::micros;
use super::reports::push_distance2;
use super::rows::{push_in, CONTENT_COLUMNS, KEY_COLUMNS};
use crate::store::{Instant, ListRead, ReportFilter, StoreResult};

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

/// `SELECT <row key>[, <row content>], votes_count FROM issues i`: which issue, its row's
/// version and point, the row's content when `read` asks for it, and the report's active vote
/// tokens at `now`. The list's row is the issue with the copies of its report's columns and
/// media it carries (migration 0014), so a page reads `issues` alone.
pub(super) fn push_select(
    q: &mut QueryBuilder<'_, Sqlite>,
    now: Instant,
    read: ListRead,
    from: &str,
) {
    q.push(format!("SELECT {KEY_COLUMNS}, "));
    if read == ListRead::Rows {
        q.push(format!("{CONTENT_COLUMNS}, "));
    }
    q.push(
        "(SELECT count(*) FROM vote_tokens v WHERE v.target_id = i.report_id \
         AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > ",
    )
    .push_bind(micros(now))
    .push(format!(
        ")) AS votes_count {from} WHERE i.status <> 'moved'"
    ));
}

/// The list's filters other than the location (after `WHERE i.status <> 'moved'`).
pub(super) fn push_list_filters(q: &mut QueryBuilder<'_, Sqlite>, filter: &ReportFilter) {
    if !filter.categories.is_empty() {
        q.push(" AND i.category_id");
        push_in(q, &filter.categories);
    }
    if !filter.statuses.is_empty() {
        q.push(" AND i.status IN (");
        let mut list = q.separated(", ");
        for s in &filter.statuses {
            list.push_bind(s.as_str());
        }
        q.push(")");
    }
    if let Some(text) = &filter.q {
        // Folded text holds letters, digits and single spaces only: no LIKE wildcards.
        q.push(" AND i.search LIKE ").push_bind(format!("%{text}%"));
    }
    if let Some(from) = filter.date_from {
        q.push(" AND i.report_inserted_at >= ")
            .push_bind(micros(from));
    }
    if let Some(to) = filter.date_to {
        q.push(" AND i.report_inserted_at <= ")
            .push_bind(micros(to));
    }
}

/// ` AND` the R*Tree entry `l` overlaps the box around `point` that holds every point within
/// `reach_m`.
fn push_box(q: &mut QueryBuilder<'_, Sqlite>, point: LonLat, reach_m: f64) {
    let [min_lon, min_lat, max_lon, max_lat] = bbox_around(point, reach_m);
    q.push(" AND l.max_lon >= ")
        .push_bind(min_lon)
        .push(" AND l.min_lon <= ")
        .push_bind(max_lon)
        .push(" AND l.max_lat >= ")
        .push_bind(min_lat)
        .push(" AND l.min_lat <= ")
        .push_bind(max_lat);
}

/// ` AND` the issue lies within `radius_m` of `point`, looked up in the R*Tree (the radius
/// filter of any order).
pub(super) fn push_within(q: &mut QueryBuilder<'_, Sqlite>, point: LonLat, radius_m: f64) {
    q.push(" AND i.id IN (SELECT l.issue_id FROM issue_locations l WHERE 1");
    push_box(q, point, radius_m);
    q.push(") AND (");
    push_distance2(q, "i", point);
    q.push(") <= ").push_bind(radius_m * radius_m);
}

/// The rows of the page nearest first (`offset` already skipped, at most `limit + 1`).
pub(super) async fn nearest_rows(
    pool: &SqlitePool,
    filter: &ReportFilter,
    point: LonLat,
    now: Instant,
    read: ListRead,
) -> StoreResult<Vec<SqliteRow>> {
    let needed = u64::from(filter.page.limit) + 1 + u64::from(filter.page.offset);
    let radius = filter.near.as_ref().and_then(|n| n.radius_m);
    let mut reach = FIRST_REACH_M;
    let mut rows = loop {
        // With a radius the reach grows up to it; without, up to MAX_REACH_M, then unbounded.
        let last = match radius {
            Some(r) => reach >= r,
            None => reach >= MAX_REACH_M,
        };
        let reach_m = radius.map_or(reach, |r| reach.min(r));
        let mut q = QueryBuilder::<Sqlite>::new("");
        if last && radius.is_none() {
            push_select(&mut q, now, read, "FROM issues i");
            q.push(" AND i.longitude IS NOT NULL");
        } else {
            push_select(
                &mut q,
                now,
                read,
                "FROM issue_locations l JOIN issues i ON i.id = l.issue_id",
            );
            push_box(&mut q, point, reach_m);
            q.push(" AND i.longitude IS NOT NULL AND (");
            push_distance2(&mut q, "i", point);
            q.push(") <= ").push_bind(reach_m * reach_m);
        }
        push_list_filters(&mut q, filter);
        q.push(" ORDER BY (");
        push_distance2(&mut q, "i", point);
        q.push("), i.id LIMIT ")
            .push_bind(i64::try_from(needed).unwrap_or(i64::MAX));
        let rows = q.build().fetch_all(pool).await?;
        if last || rows.len() as u64 >= needed {
            break rows;
        }
        reach *= GROWTH;
    };
    let missing = needed.saturating_sub(rows.len() as u64);
    if radius.is_none() && missing > 0 {
        let mut q = QueryBuilder::<Sqlite>::new("");
        push_select(&mut q, now, read, "FROM issues i");
        q.push(" AND i.longitude IS NULL");
        push_list_filters(&mut q, filter);
        q.push(" ORDER BY i.id LIMIT ")
            .push_bind(i64::try_from(missing).unwrap_or(i64::MAX));
        rows.extend(q.build().fetch_all(pool).await?);
    }
    let offset = usize::try_from(filter.page.offset).unwrap_or(usize::MAX);
    Ok(rows.into_iter().skip(offset).collect())
}
