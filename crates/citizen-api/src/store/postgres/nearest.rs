//! The public list nearest first on PostgreSQL (`orderBy=location`, ascending), exactly as
//! `ORDER BY (location IS NULL), distance, id` but served by the GiST indexes.
//!
//! PostgreSQL walks a KNN index scan only for an order by the distance alone, so a bound on the
//! `needed`-th nearest distance is found that way first (`reach`: the farthest of the `needed`
//! rows a planar KNN walk finds), then every row within it is read through the geography index
//! (a `ST_DWithin` prefilter with a margin, then the exact `<->` test, so ties at the edge are
//! all in) and ordered by distance and id. Rows without a location follow in id order; they are
//! read by a second statement only when the located rows do not fill the page (never with a
//! radius, which they cannot match), so the usual page is one statement that touches no
//! unlocated row. SQLite's `nearest.rs` reads the same page through its R*Tree.

use sqlx::postgres::PgRow;
use sqlx::{PgPool, Postgres, QueryBuilder};

use super::page_sql;
use super::reports::{push_list_filters, push_planar_point, push_point, push_select};
use crate::store::{Instant, ReportFilter, StoreResult};
use domain::geo::LocationParam;

/// The rows of the page nearest first (`offset` already skipped, at most `limit + 1`).
pub(super) async fn nearest_rows(
    pool: &PgPool,
    filter: &ReportFilter,
    near: &LocationParam,
    now: Instant,
) -> StoreResult<Vec<PgRow>> {
    let (lon, lat) = (near.point.lon, near.point.lat);
    let needed = i64::from(filter.page.limit) + 1 + i64::from(filter.page.offset);
    // The bound: the greatest geodesic distance among `needed` issues that a planar KNN walk
    // (`issues_public_location_planar`, migration 0015) finds near the point. Any `needed` rows
    // give a bound that holds the page; the planar walk is cheaper than the spheroid's.
    let mut q = QueryBuilder::<Postgres>::new("WITH knn AS MATERIALIZED (SELECT k.location <-> ");
    push_point(&mut q, lon, lat);
    q.push(
        " AS d FROM (SELECT i.location FROM issues i WHERE i.status <> 'moved' \
         AND i.location IS NOT NULL",
    );
    push_list_filters(&mut q, filter);
    q.push(" ORDER BY i.location::public.geometry <-> ");
    push_planar_point(&mut q, lon, lat);
    q.push(page_sql(needed, 0));
    q.push(") k), reach AS (SELECT max(d) AS d FROM knn) ");
    push_select(&mut q, now);
    q.push(" AND i.location IS NOT NULL");
    push_list_filters(&mut q, filter);
    q.push(" AND public.ST_DWithin(i.location, ");
    push_point(&mut q, lon, lat);
    q.push(", (SELECT d FROM reach) * 1.001 + 1, false) AND i.location <-> ");
    push_point(&mut q, lon, lat);
    q.push(" <= (SELECT d FROM reach) ORDER BY i.location <-> ");
    push_point(&mut q, lon, lat);
    q.push(", i.id");
    q.push(page_sql(needed, 0));
    let mut rows = q.build().fetch_all(pool).await?;
    let missing = usize::try_from(needed)
        .unwrap_or(usize::MAX)
        .saturating_sub(rows.len());
    if missing > 0 && near.radius_m.is_none() {
        // The page size stays a literal of the few values the API allows (a generic plan per
        // size); the surplus is cut here.
        let mut q = QueryBuilder::<Postgres>::new("");
        push_select(&mut q, now);
        q.push(" AND i.location IS NULL");
        push_list_filters(&mut q, filter);
        q.push(" ORDER BY i.id");
        q.push(page_sql(needed, 0));
        rows.extend(q.build().fetch_all(pool).await?.into_iter().take(missing));
    }
    let offset = usize::try_from(filter.page.offset).unwrap_or(usize::MAX);
    Ok(rows.into_iter().skip(offset).collect())
}
