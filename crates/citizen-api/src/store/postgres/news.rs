//! News items (PostgreSQL): the list by date or nearest first through the GiST index, and every
//! item and category in one snapshot for the news read model.

use std::collections::HashMap;

use domain::geo::LonLat;
use domain::news::NewsCursor;
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Postgres, QueryBuilder, Row, Transaction};
use uuid::Uuid;

use super::{page_sql, PgStore};
use crate::store::news::{NewsCategory, NewsDraft, NewsError, NewsItem, NewsQuery, NewsSnapshot};
use crate::store::records::{NewsCategoryRecord, NEWS_CATEGORY_COLUMNS as CATEGORY_COLUMNS};
use crate::store::{Instant, StoreResult};

const NEWS_COLUMNS: &str = "n.id, n.title, n.description, n.image, n.date, n.longitude, n.latitude";

fn news_row(row: &PgRow) -> StoreResult<NewsItem> {
    let lon: Option<f64> = row.try_get("longitude")?;
    let lat: Option<f64> = row.try_get("latitude")?;
    Ok(NewsItem {
        id: row.try_get("id")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        image: row.try_get("image")?,
        date: row.try_get("date")?,
        location: lon.zip(lat).map(|(lon, lat)| LonLat { lon, lat }),
        categories: Vec::new(),
        distance: row.try_get("distance")?,
    })
}

/// `ST_MakePoint(lon, lat)::geography` with bound values.
fn push_point(q: &mut QueryBuilder<'_, Postgres>, point: LonLat) {
    q.push("public.ST_SetSRID(public.ST_MakePoint(")
        .push_bind(point.lon)
        .push(", ")
        .push_bind(point.lat)
        .push("), 4326)::public.geography");
}

fn push_categories(q: &mut QueryBuilder<'_, Postgres>, categories: &[Uuid]) {
    if !categories.is_empty() {
        q.push(
            " AND EXISTS (SELECT 1 FROM news_item_categories nc WHERE nc.news_id = n.id \
             AND nc.category_id = ANY(",
        )
        .push_bind(categories.to_vec())
        .push("))");
    }
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
    push_categories(q, &query.categories);
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
async fn located(pool: &PgPool, query: &NewsQuery, point: LonLat) -> StoreResult<Vec<NewsItem>> {
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
    let rows = q.build().fetch_all(pool).await?;
    rows.iter().map(news_row).collect()
}

/// Items without a location, newest id first, after the cursor.
async fn unlocated(pool: &PgPool, query: &NewsQuery, limit: u32) -> StoreResult<Vec<NewsItem>> {
    let mut q = QueryBuilder::<Postgres>::new(format!(
        "SELECT {NEWS_COLUMNS}, NULL::float8 AS distance FROM news_items n \
         WHERE n.location IS NULL"
    ));
    push_categories(&mut q, &query.categories);
    if let Some(NewsCursor::Unlocated { id: Some(id) }) = &query.after {
        q.push(" AND n.id < ").push_bind(*id);
    }
    q.push(" ORDER BY n.id DESC");
    q.push(page_sql(i64::from(limit), 0));
    let rows = q.build().fetch_all(pool).await?;
    rows.iter().map(news_row).collect()
}

/// Newest first, then id descending, after the cursor.
async fn by_date(pool: &PgPool, query: &NewsQuery) -> StoreResult<Vec<NewsItem>> {
    let mut q = QueryBuilder::<Postgres>::new(format!(
        "SELECT {NEWS_COLUMNS}, NULL::float8 AS distance FROM news_items n WHERE TRUE"
    ));
    push_categories(&mut q, &query.categories);
    match &query.after {
        Some(NewsCursor::Date { date, id: Some(id) }) => {
            q.push(" AND (n.date, n.id) < (")
                .push_bind(*date)
                .push(", ")
                .push_bind(*id)
                .push(")");
        }
        Some(NewsCursor::Date { date, id: None }) => {
            q.push(" AND n.date < ").push_bind(*date);
        }
        _ => {}
    }
    q.push(" ORDER BY n.date DESC, n.id DESC");
    q.push(page_sql(i64::from(query.limit), 0));
    let rows = q.build().fetch_all(pool).await?;
    rows.iter().map(news_row).collect()
}

/// Fills in the categories of `items` (by name).
async fn with_categories(pool: &PgPool, mut items: Vec<NewsItem>) -> StoreResult<Vec<NewsItem>> {
    let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
    let rows = sqlx::query(
        "SELECT nc.news_id, c.id, c.name FROM news_item_categories nc \
         JOIN news_categories c ON c.id = nc.category_id WHERE nc.news_id = ANY($1) \
         ORDER BY c.name, c.id",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    let mut of: HashMap<Uuid, Vec<(Uuid, String)>> = HashMap::new();
    for row in &rows {
        of.entry(row.try_get("news_id")?)
            .or_default()
            .push((row.try_get("id")?, row.try_get("name")?));
    }
    for item in &mut items {
        item.categories = of.remove(&item.id).unwrap_or_default();
    }
    Ok(items)
}

/// Links a news item to its categories (all must exist).
async fn link_categories(
    tx: &mut Transaction<'_, Postgres>,
    id: Uuid,
    categories: &[Uuid],
) -> Result<(), NewsError> {
    sqlx::query("DELETE FROM news_item_categories WHERE news_id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    for category in categories {
        // KEY SHARE: the category cannot be deleted before this transaction ends.
        let exists: Option<Uuid> =
            sqlx::query_scalar("SELECT id FROM news_categories WHERE id = $1 FOR KEY SHARE")
                .bind(category)
                .fetch_optional(&mut **tx)
                .await?;
        if exists.is_none() {
            return Err(NewsError::UnknownCategory(*category));
        }
        sqlx::query(
            "INSERT INTO news_item_categories (news_id, category_id) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(category)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

const GEOGRAPHY: &str = "CASE WHEN $6::float8 IS NULL THEN NULL ELSE \
     public.ST_SetSRID(public.ST_MakePoint($6, $7), 4326)::public.geography END";

impl PgStore {
    pub(in crate::store) async fn read_news_page(
        &self,
        query: &NewsQuery,
    ) -> StoreResult<Vec<NewsItem>> {
        let items = match (&query.near, &query.after) {
            (None, None | Some(NewsCursor::Date { .. })) => by_date(&self.pool, query).await?,
            (None, Some(_)) => Vec::new(),
            (Some(near), after) => {
                let mut items = match after {
                    Some(NewsCursor::Date { .. }) => return Ok(Vec::new()),
                    Some(NewsCursor::Unlocated { .. }) => Vec::new(),
                    _ => located(&self.pool, query, near.point).await?,
                };
                let room = query.limit.saturating_sub(len_u32(&items));
                if room > 0 && near.radius_m.is_none() {
                    items.extend(unlocated(&self.pool, query, room).await?);
                }
                items
            }
        };
        with_categories(&self.pool, items).await
    }

    pub(in crate::store) async fn read_news_item(&self, id: Uuid) -> StoreResult<Option<NewsItem>> {
        let row = sqlx::query(&format!(
            "SELECT {NEWS_COLUMNS}, NULL::float8 AS distance FROM news_items n WHERE n.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(with_categories(&self.pool, vec![news_row(&row)?])
            .await?
            .pop())
    }

    pub(in crate::store) async fn write_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
        create: bool,
    ) -> Result<NewsItem, NewsError> {
        let mut tx = self.pool.begin().await?;
        let (lon, lat) = match draft.location {
            Some(p) => (Some(p.lon), Some(p.lat)),
            None => (None, None),
        };
        let sql = if create {
            format!(
                "INSERT INTO news_items (id, title, description, image, date, longitude, \
                 latitude, location, inserted_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, {GEOGRAPHY}, $8, $8)"
            )
        } else {
            format!(
                "UPDATE news_items SET title = $2, description = $3, image = $4, date = $5, \
                 longitude = $6, latitude = $7, location = {GEOGRAPHY}, updated_at = $8 \
                 WHERE id = $1"
            )
        };
        let done = sqlx::query(&sql)
            .bind(id)
            .bind(&draft.title)
            .bind(&draft.description)
            .bind(&draft.image)
            .bind(draft.date)
            .bind(lon)
            .bind(lat)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(NewsError::NotFound);
        }
        link_categories(&mut tx, id, &draft.categories).await?;
        if create {
            // Subscribers of its categories are told (an edit tells nobody again).
            let event = crate::store::notifications::EventKind::News { news_id: id };
            super::PgStore::record_event(&mut tx, event, now).await?;
        }
        tx.commit().await?;
        self.read_news_item(id).await?.ok_or(NewsError::NotFound)
    }

    pub(in crate::store) async fn remove_news_item(&self, id: Uuid) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM news_items WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    pub(in crate::store) async fn read_news_generation(&self) -> StoreResult<i64> {
        Ok(
            sqlx::query_scalar("SELECT generation FROM news_generation WHERE id = 1")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// REPEATABLE READ: every statement sees the snapshot of the first, so the categories, items
    /// and links are exactly those of the generation read. Four statements whatever the count:
    /// the links are read bare and ordered by the categories' order (`NewsSnapshot::assemble`).
    pub(in crate::store) async fn read_news_snapshot(&self) -> StoreResult<NewsSnapshot> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        let generation: i64 =
            sqlx::query_scalar("SELECT generation FROM news_generation WHERE id = 1")
                .fetch_one(&mut *tx)
                .await?;
        let categories = sqlx::query_as::<_, NewsCategoryRecord>(&format!(
            "SELECT {CATEGORY_COLUMNS} FROM news_categories ORDER BY name, id"
        ))
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(NewsCategory::from)
        .collect();
        let items = sqlx::query(&format!(
            "SELECT {NEWS_COLUMNS}, NULL::float8 AS distance FROM news_items n"
        ))
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(news_row)
        .collect::<StoreResult<Vec<_>>>()?;
        let links: Vec<(Uuid, Uuid)> =
            sqlx::query_as("SELECT news_id, category_id FROM news_item_categories")
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(NewsSnapshot::assemble(generation, categories, items, links))
    }
}

fn len_u32<T>(items: &[T]) -> u32 {
    u32::try_from(items.len()).unwrap_or(u32::MAX)
}
