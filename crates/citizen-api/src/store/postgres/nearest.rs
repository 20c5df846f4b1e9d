//! The public list nearest first on PostgreSQL (`orderBy=location`, ascending): PostGIS's own
//! order, `geography <-> geography` (the distance on its sphere), ties by issue id.
//!
//! PostgreSQL walks a GiST index in KNN order only for an order by the distance alone, not by
//! distance and id (nor does it sort equal distances on top of that walk). So the page is read
//! as the `needed` + [`KNN_MARGIN`] nearest rows by distance alone (one KNN walk of
//! `issues_public_location`), ordered by distance and id: exactly the page unless a tie crosses
//! the rows read ([`knn_is_exact`]). Then, and only then, every row within the page's last
//! distance is read through the same index (`ST_DWithin` with a margin, then the exact `<->`
//! test, so ties at the edge are all in) and ordered by distance and id. Rows without a location
//! follow in id order; they are read by a second statement only when the located rows do not
//! fill the page (never with a radius, which they cannot match). SQLite's `nearest.rs` reads the
//! same page through its R*Tree.

use sqlx::postgres::PgRow;
use sqlx::{PgPool, Postgres, QueryBuilder, Row};

use super::list_sql::{push_list_filters, push_point, push_select, push_select_with};
use super::page_sql;
use crate::store::{ReportFilter, StoreResult};
use domain::geo::LocationParam;

/// Rows the KNN read takes beyond the page's `needed`: a tie in distance would have to span
/// more than this many rows at the page's edge to send the page to the bounded read.
const KNN_MARGIN: i64 = 20;

/// The rows of the page nearest first (`offset` already skipped, at most `limit + 1`).
pub(super) async fn nearest_rows(
    pool: &PgPool,
    filter: &ReportFilter,
    near: &LocationParam,
) -> StoreResult<Vec<PgRow>> {
    let needed = i64::from(filter.page.limit) + 1 + i64::from(filter.page.offset);
    let mut rows = knn_rows(pool, filter, near, needed).await?;
    let missing = usize::try_from(needed)
        .unwrap_or(usize::MAX)
        .saturating_sub(rows.len());
    if missing > 0 && near.radius_m.is_none() {
        // The page size stays a literal of the few values the API allows (a generic plan per
        // size); the surplus is cut here.
        let mut q = QueryBuilder::<Postgres>::new("");
        push_select(&mut q);
        q.push(" AND i.location IS NULL");
        push_list_filters(&mut q, filter);
        q.push(" ORDER BY i.id");
        q.push(page_sql(needed, 0));
        rows.extend(q.build().fetch_all(pool).await?.into_iter().take(missing));
    }
    let offset = usize::try_from(filter.page.offset).unwrap_or(usize::MAX);
    Ok(rows.into_iter().skip(offset).collect())
}

/// Whether the first `needed` of `distances` (the nearest rows read, ascending, at most `read`
/// of them) are the nearest `needed` rows of the table ordered by distance and id: every row
/// the read left out is at least as far as the last one read, so the page is exact when that
/// one is farther than the `needed`-th, or when the read found fewer rows than it asked for.
fn knn_is_exact(distances: &[f64], needed: usize, read: usize) -> bool {
    if distances.len() < read {
        return true;
    }
    match (
        needed.checked_sub(1).and_then(|i| distances.get(i)),
        distances.last(),
    ) {
        (Some(edge), Some(last)) => edge < last,
        _ => true,
    }
}

/// The located rows of the page, ordered by distance and id, at most `needed`.
async fn knn_rows(
    pool: &PgPool,
    filter: &ReportFilter,
    near: &LocationParam,
    needed: i64,
) -> StoreResult<Vec<PgRow>> {
    let (lon, lat) = (near.point.lon, near.point.lat);
    let read = needed + KNN_MARGIN;
    let mut q = QueryBuilder::<Postgres>::new("SELECT * FROM (");
    push_select_with(&mut q, |q| {
        q.push("i.location <-> ");
        push_point(q, lon, lat);
        q.push(" AS knn_distance, ");
    });
    q.push(" AND i.location IS NOT NULL");
    push_list_filters(&mut q, filter);
    q.push(" ORDER BY i.location <-> ");
    push_point(&mut q, lon, lat);
    q.push(page_sql(read, 0));
    q.push(") k ORDER BY k.knn_distance, k.issue_id");
    let mut rows = q.build().fetch_all(pool).await?;
    let distances = rows
        .iter()
        .map(|row| row.try_get::<f64, _>("knn_distance"))
        .collect::<Result<Vec<f64>, _>>()?;
    let (needed_rows, read_rows) = (
        usize::try_from(needed).unwrap_or(usize::MAX),
        usize::try_from(read).unwrap_or(usize::MAX),
    );
    if knn_is_exact(&distances, needed_rows, read_rows) {
        rows.truncate(needed_rows);
        return Ok(rows);
    }
    // A tie crosses the rows read: every row within the page's last distance, in order.
    let edge = distances
        .get(needed_rows.saturating_sub(1))
        .copied()
        .unwrap_or(0.0);
    let mut q = QueryBuilder::<Postgres>::new("");
    push_select(&mut q);
    q.push(" AND i.location IS NOT NULL");
    push_list_filters(&mut q, filter);
    q.push(" AND public.ST_DWithin(i.location, ");
    push_point(&mut q, lon, lat);
    q.push(", ")
        .push_bind(edge * 1.001 + 1.0)
        .push(", false) AND i.location <-> ");
    push_point(&mut q, lon, lat);
    q.push(" <= ")
        .push_bind(edge)
        .push(" ORDER BY i.location <-> ");
    push_point(&mut q, lon, lat);
    q.push(", i.id");
    q.push(page_sql(needed, 0));
    Ok(q.build().fetch_all(pool).await?)
}

#[cfg(test)]
mod tests {
    use super::knn_is_exact;

    #[test]
    fn a_knn_read_is_the_page_unless_a_tie_crosses_its_end() {
        let cases: &[(&[f64], usize, usize, bool)] = &[
            // Fewer rows than asked for: the read holds every located row.
            (&[], 2, 4, true),
            (&[1.0, 1.0, 1.0], 2, 4, true),
            // A full read whose last row is farther than the page's last: exact.
            (&[1.0, 2.0, 3.0, 4.0], 2, 4, true),
            (&[1.0, 2.0, 2.0, 3.0], 2, 4, true),
            // The page's last row ties with the last row read: a row left out may tie too
            // (with a smaller id), so the page is read again with its bound.
            (&[1.0, 2.0, 2.0, 2.0], 2, 4, false),
            (&[5.0, 5.0, 5.0, 5.0], 2, 4, false),
            (&[1.0, 2.0, 3.0, 3.0], 4, 4, false),
        ];
        for &(distances, needed, read, exact) in cases {
            assert_eq!(
                knn_is_exact(distances, needed, read),
                exact,
                "{distances:?} needed {needed} read {read}"
            );
        }
    }
}
