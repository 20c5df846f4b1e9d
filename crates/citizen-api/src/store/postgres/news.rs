//! News items (PostgreSQL): the nearest-first part of a list through the GiST index
//! (the statements' other dialect pieces: `dialect.rs`).

use domain::geo::LonLat;
use domain::news::NewsCursor;
use sqlx::{PgPool, Postgres, QueryBuilder};

use super::{page_sql, PgStore};
use crate::store::news::{NewsItem, NewsQuery};
use crate::store::sql::news::{NewsRecord, NEWS_COLUMNS};
use crate::store::StoreResult;

/// `ST_MakePoint(lon, lat)::geography` with bound values.
fn push_point(q: &mut QueryBuilder<'_, Postgres>, point: LonLat) {
    q.push("public.ST_SetSRID(public.ST_MakePoint(")
        .push_bind(point.lon)
        .push(", ")
        .push_bind(point.lat)
        .push("), 4326)::public.geography");
}

/// The geodesic distance of `n.location` from the point (PostGIS's spheroid distance, the
/// quantity `domain::geo::distance_m` computes, so the replicas' read model and this fallback
/// order alike and a cursor from one is exact in the other).
fn push_distance(q: &mut QueryBuilder<'_, Postgres>, point: LonLat) {
    q.push("public.ST_Distance(n.location, ");
    push_point(q, point);
    q.push(")");
}

/// The conditions of the part with a location: categories, radius and the cursor.
fn push_located_filters(q: &mut QueryBuilder<'_, Postgres>, query: &NewsQuery, point: LonLat) {
    PgStore::push_news_categories(q, &query.categories);
    if let Some(radius) = query.near.and_then(|n| n.radius_m) {
        q.push(" AND public.ST_DWithin(n.location, ");
        push_point(q, point);
        q.push(", ").push_bind(radius).push(")");
    }
    if let Some(NewsCursor::Distance { metres, id }) = &query.after {
        q.push(" AND (");
        push_distance(q, point);
        q.push(" > ").push_bind(*metres);
        if let Some(id) = id {
            q.push(" OR (");
            push_distance(q, point);
            q.push(" = ")
                .push_bind(*metres)
                .push(" AND n.id > ")
                .push_bind(*id)
                .push(")");
        }
        q.push(")");
    }
}

/// Items with a location, nearest first then by id, after the cursor. PostgreSQL walks the GiST
/// index in KNN order only for an order by the index's own (sphere) distance, so the distance of
/// the `limit`-th nearest that way is found first (`reach`); every item among the `limit`
/// geodesically nearest lies within that reach widened by 2 % (the sphere and the spheroid differ
/// by well under 1 %), so those rows are read through the index, ordered by the geodesic distance
/// and id, and cut (ties at the edge are all in).
pub(super) async fn located_news(
    pool: &PgPool,
    query: &NewsQuery,
    point: LonLat,
) -> StoreResult<Vec<NewsItem>> {
    let mut q = QueryBuilder::<Postgres>::new(
        "WITH reach AS (SELECT max(d) AS d FROM (SELECT n.location <-> ",
    );
    push_point(&mut q, point);
    q.push(" AS d FROM news_items n WHERE n.location IS NOT NULL");
    push_located_filters(&mut q, query, point);
    q.push(" ORDER BY n.location <-> ");
    push_point(&mut q, point);
    q.push(page_sql(i64::from(query.limit), 0));
    q.push(format!(") k) SELECT {NEWS_COLUMNS}, "));
    push_distance(&mut q, point);
    q.push(" AS distance FROM news_items n WHERE n.location IS NOT NULL");
    push_located_filters(&mut q, query, point);
    q.push(" AND public.ST_DWithin(n.location, ");
    push_point(&mut q, point);
    q.push(", (SELECT d FROM reach) * 1.02 + 1, false) ORDER BY distance, n.id");
    q.push(page_sql(i64::from(query.limit), 0));
    let rows: Vec<NewsRecord> = q.build_query_as().fetch_all(pool).await?;
    Ok(rows.into_iter().map(NewsItem::from).collect())
}
