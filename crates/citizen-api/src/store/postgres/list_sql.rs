//! The fragments of the list statements (PostgreSQL): the select with its vote count, the
//! filters, the location and the order; shared by the public list, the nearest walk and the
//! officers' lists.

use domain::reports::OrderBy;
use sqlx::{Postgres, QueryBuilder};

use super::{page_sql, PgStore};
use crate::store::records::LIST_COLUMNS;
pub(super) use crate::store::sql::{direction, list_filter, order_by};
use crate::store::{Instant, ReportFilter};

/// `ST_MakePoint(lon, lat)` in WGS84 (a planar geometry) with bound values.
pub(super) fn push_planar_point(q: &mut QueryBuilder<'_, Postgres>, lon: f64, lat: f64) {
    q.push("public.ST_SetSRID(public.ST_MakePoint(")
        .push_bind(lon)
        .push(", ")
        .push_bind(lat)
        .push("), 4326)");
}

/// `ST_MakePoint(lon, lat)::geography` with bound values.
pub(super) fn push_point(q: &mut QueryBuilder<'_, Postgres>, lon: f64, lat: f64) {
    push_planar_point(q, lon, lat);
    q.push("::public.geography");
}

/// The WHERE conditions on the report's location shared by both lists (`alias.location`).
pub(super) fn push_near(q: &mut QueryBuilder<'_, Postgres>, filter: &ReportFilter, alias: &str) {
    if let Some(near) = &filter.near {
        if let Some(radius) = near.radius_m {
            q.push(format!(" AND public.ST_DWithin({alias}.location, "));
            push_point(q, near.point.lon, near.point.lat);
            q.push(", ").push_bind(radius).push(")");
        }
    }
}

/// The active vote tokens on report `r.id` at `now` (rule 5: neither revoked nor expired; expiry
/// is compared with the request's instant, so no batch job is needed). Served by the partial
/// index `vote_tokens_target`.
pub(super) fn push_votes(q: &mut QueryBuilder<'_, Postgres>, id: &str, now: Instant) {
    q.push(format!(
        "(SELECT count(*) FROM vote_tokens v WHERE v.target_id = {id} \
         AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > "
    ))
    .push_bind(now)
    .push("))");
}

/// ORDER BY, LIMIT and OFFSET; `date` is the filing-time column, `id` the row's id column, and
/// the query selects `votes_count`.
pub(super) fn push_order(
    q: &mut QueryBuilder<'_, Postgres>,
    filter: &ReportFilter,
    alias: &str,
    date: &str,
    id: &str,
) {
    let dir = direction(filter.order.direction);
    match (filter.order.by, &filter.near) {
        (OrderBy::Location, Some(near)) => {
            q.push(format!(
                " ORDER BY ({alias}.location IS NULL), {alias}.location <-> "
            ));
            push_point(q, near.point.lon, near.point.lat);
            q.push(format!(" {dir}, {id} {dir}"));
        }
        (by, _) => {
            q.push(order_by(by, filter.order.direction, date, id));
        }
    }
    q.push(page_sql(
        i64::from(filter.page.limit) + 1,
        i64::from(filter.page.offset),
    ));
}

/// `SELECT <list row>, votes_count FROM issues i WHERE i.status <> 'moved'`: the issue with the
/// copies of its report's columns and media (migration 0014) and the report's active vote
/// tokens at `now`.
pub(super) fn push_select(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
    push_select_with(q, now, |_| {});
}

/// [`push_select`] with more columns, pushed by `extra` (`<expression> AS <name>, `).
pub(super) fn push_select_with<'a>(
    q: &mut QueryBuilder<'a, Postgres>,
    now: Instant,
    extra: impl FnOnce(&mut QueryBuilder<'a, Postgres>),
) {
    q.push(format!("SELECT {LIST_COLUMNS}, "));
    extra(q);
    push_votes(q, "i.report_id", now);
    q.push(" AS votes_count FROM issues i WHERE i.status <> 'moved'");
}

/// The public list's filters (`store/sql/list_filter.rs`) and its radius, on the issue `i`.
pub(super) fn push_list_filters(q: &mut QueryBuilder<'_, Postgres>, filter: &ReportFilter) {
    list_filter::push_list_filters::<PgStore>(q, filter);
    push_near(q, filter, "i");
}
