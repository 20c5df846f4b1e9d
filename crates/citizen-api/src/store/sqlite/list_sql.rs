//! The fragments of the list statements (SQLite): the select with its vote count, the filters,
//! the location (the R*Tree's box, the local plane's distance) and the order; shared by the
//! public list, the nearest walk and the officers' lists.

use domain::geo::{bbox_around, metres_per_degree, LonLat};
use domain::reports::OrderBy;
use sqlx::{QueryBuilder, Sqlite};

use crate::store::records::LIST_COLUMNS;
pub(super) use crate::store::sql::{direction, order_by};
use crate::store::ReportFilter;
use uuid::Uuid;

/// `SELECT <list row>, votes_count <from> WHERE i.status <> 'moved'`: the issue with the copies
/// of its report's columns, media (migration 0014) and vote count (0034).
pub(super) fn push_select(q: &mut QueryBuilder<'_, Sqlite>, from: &str) {
    q.push(format!(
        "SELECT {LIST_COLUMNS}, i.votes_count {from} WHERE i.status <> 'moved'"
    ));
}

/// ` IN (?, ?, …)` over `ids` (never empty: an empty list matches nothing).
pub(super) fn push_in(q: &mut QueryBuilder<'_, Sqlite>, ids: &[Uuid]) {
    q.push(" IN (");
    if ids.is_empty() {
        q.push("NULL");
    }
    let mut list = q.separated(", ");
    for id in ids {
        list.push_bind(id.to_string());
    }
    q.push(")");
}

/// The squared local-plane distance in m² from `point` to `alias.longitude/latitude` (the radius
/// filter, and the order of the lists nearest first but the public one).
pub(super) fn push_distance2(q: &mut QueryBuilder<'_, Sqlite>, alias: &str, point: LonLat) {
    let (kx, ky) = metres_per_degree(point.lat);
    for (column, origin, k, tail) in [
        ("longitude", point.lon, kx, " + "),
        ("latitude", point.lat, ky, ""),
    ] {
        for factor in 0..2 {
            q.push(format!("(({alias}.{column} - "))
                .push_bind(origin)
                .push(") * ")
                .push_bind(k)
                .push(")");
            if factor == 0 {
                q.push(" * ");
            }
        }
        q.push(tail);
    }
}

/// The radius filter: through the R*Tree for the public list (`alias` `i`), by distance alone for
/// a citizen's own reports (few rows).
pub(super) fn push_near(q: &mut QueryBuilder<'_, Sqlite>, filter: &ReportFilter, alias: &str) {
    if let Some(near) = &filter.near {
        if let Some(radius) = near.radius_m {
            if alias == "i" {
                push_within(q, near.point, radius);
            } else {
                q.push(format!(" AND {alias}.longitude IS NOT NULL AND ("));
                push_distance2(q, alias, near.point);
                q.push(") <= ").push_bind(radius * radius);
            }
        }
    }
}

/// ORDER BY, LIMIT and OFFSET; the query selects `votes_count`.
pub(super) fn push_order(
    q: &mut QueryBuilder<'_, Sqlite>,
    filter: &ReportFilter,
    alias: &str,
    date: &str,
    id: &str,
) {
    let dir = direction(filter.order.direction);
    match (filter.order.by, &filter.near) {
        (OrderBy::Location, Some(near)) => {
            q.push(format!(" ORDER BY ({alias}.longitude IS NULL), ("));
            push_distance2(q, alias, near.point);
            q.push(format!(") {dir}, {id} {dir}"));
        }
        (by, _) => {
            q.push(order_by(by, filter.order.direction, alias, date, id));
        }
    }
    q.push(" LIMIT ")
        .push_bind(i64::from(filter.page.limit) + 1)
        .push(" OFFSET ")
        .push_bind(i64::from(filter.page.offset));
}

/// ` AND` the R*Tree entry `l` overlaps the box around `point` that holds every point within
/// `reach_m`.
pub(super) fn push_box(q: &mut QueryBuilder<'_, Sqlite>, point: LonLat, reach_m: f64) {
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
