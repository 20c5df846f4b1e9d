//! News items (SQLite). Without math functions the nearest-first order is made here: the
//! located candidates near the point are read through the R*Tree `news_locations`, their
//! geodesic distances computed (`domain::geo::rounded_distance_m`), ordered by distance and id, cut after
//! the cursor, and only the page's rows are read in full. The news read model reads every item
//! and category in one snapshot.

use std::collections::HashMap;

use domain::geo::{bbox_around, rounded_distance_m, LonLat};
use domain::news::{located_after, NewsCursor};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool, Transaction};
use uuid::Uuid;

use super::rows::push_in;
use super::{get_instant, get_uuid, micros, SqliteStore};
use crate::store::news::{NewsCategory, NewsDraft, NewsError, NewsItem, NewsQuery, NewsSnapshot};
use crate::store::records::{NewsCategoryRecord, NEWS_CATEGORY_COLUMNS as CATEGORY_COLUMNS};
use crate::store::{Instant, StoreResult};

const NEWS_COLUMNS: &str = "n.id, n.title, n.description, n.image, n.date, n.longitude, n.latitude";

fn news_row(row: &SqliteRow) -> StoreResult<NewsItem> {
    let lon: Option<f64> = row.try_get("longitude")?;
    let lat: Option<f64> = row.try_get("latitude")?;
    Ok(NewsItem {
        id: get_uuid(row, "id")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        image: row.try_get("image")?,
        date: get_instant(row, "date")?,
        location: lon.zip(lat).map(|(lon, lat)| LonLat { lon, lat }),
        categories: Vec::new(),
        distance: None,
    })
}

fn push_categories(q: &mut QueryBuilder<'_, Sqlite>, categories: &[Uuid]) {
    if !categories.is_empty() {
        q.push(
            " AND EXISTS (SELECT 1 FROM news_item_categories nc WHERE nc.news_id = n.id \
             AND nc.category_id",
        );
        push_in(q, categories);
        q.push(")");
    }
}

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
async fn located(
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
            let [min_lon, min_lat, max_lon, max_lat] = bbox_around(point, reach);
            q.push(
                "FROM news_locations l JOIN news_items n ON n.id = l.news_id \
                 WHERE n.longitude IS NOT NULL AND l.max_lon >= ",
            )
            .push_bind(min_lon)
            .push(" AND l.min_lon <= ")
            .push_bind(max_lon)
            .push(" AND l.max_lat >= ")
            .push_bind(min_lat)
            .push(" AND l.min_lat <= ")
            .push_bind(max_lat);
        }
        push_categories(&mut q, &query.categories);
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
    for row in q.build().fetch_all(pool).await? {
        let item = news_row(&row)?;
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

/// Items without a location, newest id first, after the cursor.
async fn unlocated(pool: &SqlitePool, query: &NewsQuery, limit: u32) -> StoreResult<Vec<NewsItem>> {
    let mut q = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {NEWS_COLUMNS} FROM news_items n WHERE n.longitude IS NULL"
    ));
    push_categories(&mut q, &query.categories);
    if let Some(NewsCursor::Unlocated { id: Some(id) }) = &query.after {
        q.push(" AND n.id < ").push_bind(id.to_string());
    }
    q.push(" ORDER BY n.id DESC LIMIT ")
        .push_bind(i64::from(limit));
    let rows = q.build().fetch_all(pool).await?;
    rows.iter().map(news_row).collect()
}

/// Newest first, then id descending, after the cursor.
async fn by_date(pool: &SqlitePool, query: &NewsQuery) -> StoreResult<Vec<NewsItem>> {
    let mut q =
        QueryBuilder::<Sqlite>::new(format!("SELECT {NEWS_COLUMNS} FROM news_items n WHERE 1"));
    push_categories(&mut q, &query.categories);
    match &query.after {
        Some(NewsCursor::Date { date, id: Some(id) }) => {
            q.push(" AND (n.date < ")
                .push_bind(micros(*date))
                .push(" OR (n.date = ")
                .push_bind(micros(*date))
                .push(" AND n.id < ")
                .push_bind(id.to_string())
                .push("))");
        }
        Some(NewsCursor::Date { date, id: None }) => {
            q.push(" AND n.date < ").push_bind(micros(*date));
        }
        _ => {}
    }
    q.push(" ORDER BY n.date DESC, n.id DESC LIMIT ")
        .push_bind(i64::from(query.limit));
    let rows = q.build().fetch_all(pool).await?;
    rows.iter().map(news_row).collect()
}

/// Fills in the categories of `items` (by name).
async fn with_categories(
    pool: &SqlitePool,
    mut items: Vec<NewsItem>,
) -> StoreResult<Vec<NewsItem>> {
    let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
    let mut q = QueryBuilder::<Sqlite>::new(
        "SELECT nc.news_id, c.id, c.name FROM news_item_categories nc \
         JOIN news_categories c ON c.id = nc.category_id WHERE nc.news_id",
    );
    push_in(&mut q, &ids);
    q.push(" ORDER BY c.name, c.id");
    let mut of: HashMap<Uuid, Vec<(Uuid, String)>> = HashMap::new();
    for row in q.build().fetch_all(pool).await? {
        of.entry(get_uuid(&row, "news_id")?)
            .or_default()
            .push((get_uuid(&row, "id")?, row.try_get("name")?));
    }
    for item in &mut items {
        item.categories = of.remove(&item.id).unwrap_or_default();
    }
    Ok(items)
}

async fn link_categories(
    tx: &mut Transaction<'_, Sqlite>,
    id: Uuid,
    categories: &[Uuid],
) -> Result<(), NewsError> {
    sqlx::query("DELETE FROM news_item_categories WHERE news_id = ?1")
        .bind(id.to_string())
        .execute(&mut **tx)
        .await?;
    for category in categories {
        let exists: Option<String> =
            sqlx::query_scalar("SELECT id FROM news_categories WHERE id = ?1")
                .bind(category.to_string())
                .fetch_optional(&mut **tx)
                .await?;
        if exists.is_none() {
            return Err(NewsError::UnknownCategory(*category));
        }
        sqlx::query(
            "INSERT INTO news_item_categories (news_id, category_id) VALUES (?1, ?2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(id.to_string())
        .bind(category.to_string())
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

impl SqliteStore {
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
                let room = query
                    .limit
                    .saturating_sub(u32::try_from(items.len()).unwrap_or(u32::MAX));
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
            "SELECT {NEWS_COLUMNS} FROM news_items n WHERE n.id = ?1"
        ))
        .bind(id.to_string())
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
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let sql = if create {
            "INSERT INTO news_items (id, title, description, image, date, longitude, latitude, \
             inserted_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)"
        } else {
            "UPDATE news_items SET title = ?2, description = ?3, image = ?4, date = ?5, \
             longitude = ?6, latitude = ?7, updated_at = ?8 WHERE id = ?1"
        };
        let done = sqlx::query(sql)
            .bind(id.to_string())
            .bind(&draft.title)
            .bind(&draft.description)
            .bind(&draft.image)
            .bind(micros(draft.date))
            .bind(draft.location.map(|p| p.lon))
            .bind(draft.location.map(|p| p.lat))
            .bind(micros(now))
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(NewsError::NotFound);
        }
        link_categories(&mut tx, id, &draft.categories).await?;
        if create {
            // Subscribers of its categories are told (an edit tells nobody again).
            let event = crate::store::notifications::EventKind::News { news_id: id };
            super::SqliteStore::record_event(&mut tx, event, now).await?;
        }
        tx.commit().await?;
        self.read_news_item(id).await?.ok_or(NewsError::NotFound)
    }

    pub(in crate::store) async fn remove_news_item(&self, id: Uuid) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM news_items WHERE id = ?1")
            .bind(id.to_string())
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

    /// One read transaction on one connection: in WAL mode it reads one snapshot from its first
    /// SELECT on, so the categories, items and links are those of the generation read first.
    /// Four statements whatever the count: the links are read bare and ordered by the
    /// categories' order (`NewsSnapshot::assemble`).
    pub(in crate::store) async fn read_news_snapshot(&self) -> StoreResult<NewsSnapshot> {
        let mut tx = self.pool.begin().await?;
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
        let items = sqlx::query(&format!("SELECT {NEWS_COLUMNS} FROM news_items n"))
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(news_row)
            .collect::<StoreResult<Vec<_>>>()?;
        let links = sqlx::query("SELECT news_id, category_id FROM news_item_categories")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| Ok((get_uuid(row, "news_id")?, get_uuid(row, "category_id")?)))
            .collect::<StoreResult<Vec<_>>>()?;
        tx.commit().await?;
        Ok(NewsSnapshot::assemble(generation, categories, items, links))
    }
}
