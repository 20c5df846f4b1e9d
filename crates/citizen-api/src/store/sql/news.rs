//! News items on both backends: the list by date and the items without a location, one item,
//! writes with their categories, and every item and category in one snapshot for the news read
//! model. The nearest-first part of a list is each backend's own (`Backend::located`: PostGIS's
//! GiST index on PostgreSQL, the R*Tree `news_locations` on SQLite), and so is the location
//! column a write sets (`Backend::INSERT_NEWS`, `Backend::UPDATE_NEWS`) and the start of the
//! snapshot's read transaction (`Backend::begin_snapshot`).

use std::collections::HashMap;

use domain::geo::LonLat;
use domain::news::NewsCursor;
use sqlx::QueryBuilder;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::news::{NewsCategory, NewsDraft, NewsError, NewsItem, NewsQuery, NewsSnapshot};
use crate::store::records::NEWS_CATEGORY_COLUMNS as CATEGORY_COLUMNS;
use crate::store::{Instant, StoreResult};

/// The columns of a [`NewsRecord`] from `news_items n`.
pub(in crate::store) const NEWS_COLUMNS: &str =
    "n.id, n.title, n.description, n.image, n.date, n.longitude, n.latitude";

/// A news item's row; `distance` only where the statement computes it (PostgreSQL's nearest
/// first).
#[derive(sqlx::FromRow)]
pub(in crate::store) struct NewsRecord {
    id: DbUuid,
    title: String,
    description: String,
    image: Option<String>,
    date: DbInstant,
    longitude: Option<f64>,
    latitude: Option<f64>,
    #[sqlx(default)]
    distance: Option<f64>,
}

impl From<NewsRecord> for NewsItem {
    fn from(row: NewsRecord) -> Self {
        NewsItem {
            id: row.id.0,
            title: row.title,
            description: row.description,
            image: row.image,
            date: row.date.0,
            location: row
                .longitude
                .zip(row.latitude)
                .map(|(lon, lat)| LonLat { lon, lat }),
            categories: Vec::new(),
            distance: row.distance,
        }
    }
}

#[derive(sqlx::FromRow)]
struct CategoryOfRecord {
    news_id: DbUuid,
    id: DbUuid,
    name: String,
}

#[derive(sqlx::FromRow)]
struct LinkRecord {
    news_id: DbUuid,
    category_id: DbUuid,
}

fn len_u32<T>(items: &[T]) -> u32 {
    u32::try_from(items.len()).unwrap_or(u32::MAX)
}

both_backends! {
    impl Backend {
        /// ` AND` the item is in one of `categories` (none: every item).
        pub(in crate::store) fn push_news_categories(
            q: &mut QueryBuilder<'_, Db>,
            categories: &[Uuid],
        ) {
            if !categories.is_empty() {
                q.push(
                    " AND EXISTS (SELECT 1 FROM news_item_categories nc \
                     WHERE nc.news_id = n.id AND nc.category_id",
                );
                Backend::push_ids(q, categories);
                q.push(")");
            }
        }

        /// Items without a location, newest id first, after the cursor.
        async fn unlocated_news(
            &self,
            query: &NewsQuery,
            limit: u32,
        ) -> StoreResult<Vec<NewsItem>> {
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {NEWS_COLUMNS} FROM news_items n WHERE {}",
                Backend::NEWS_UNLOCATED
            ));
            Backend::push_news_categories(&mut q, &query.categories);
            if let Some(NewsCursor::Unlocated { id: Some(id) }) = &query.after {
                q.push(" AND n.id < ").push_bind(DbUuid(*id));
            }
            q.push(format!(" ORDER BY n.id DESC LIMIT {limit}"));
            let rows: Vec<NewsRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            Ok(rows.into_iter().map(NewsItem::from).collect())
        }

        /// Newest first, then id descending, after the cursor (a row-value comparison, which
        /// both walk along the `(date, id)` index).
        async fn news_by_date(&self, query: &NewsQuery) -> StoreResult<Vec<NewsItem>> {
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {NEWS_COLUMNS} FROM news_items n WHERE 1 = 1"
            ));
            Backend::push_news_categories(&mut q, &query.categories);
            match &query.after {
                Some(NewsCursor::Date { date, id: Some(id) }) => {
                    q.push(" AND (n.date, n.id) < (")
                        .push_bind(DbInstant(*date))
                        .push(", ")
                        .push_bind(DbUuid(*id))
                        .push(")");
                }
                Some(NewsCursor::Date { date, id: None }) => {
                    q.push(" AND n.date < ").push_bind(DbInstant(*date));
                }
                _ => {}
            }
            q.push(format!(
                " ORDER BY n.date DESC, n.id DESC LIMIT {}",
                query.limit
            ));
            let rows: Vec<NewsRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            Ok(rows.into_iter().map(NewsItem::from).collect())
        }

        /// Fills in the categories of `items` (by name).
        async fn with_news_categories(
            &self,
            mut items: Vec<NewsItem>,
        ) -> StoreResult<Vec<NewsItem>> {
            let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
            let mut q = QueryBuilder::<Db>::new(
                "SELECT nc.news_id, c.id, c.name FROM news_item_categories nc \
                 JOIN news_categories c ON c.id = nc.category_id WHERE nc.news_id",
            );
            Backend::push_ids(&mut q, &ids);
            q.push(" ORDER BY c.name, c.id");
            let rows: Vec<CategoryOfRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            let mut of: HashMap<Uuid, Vec<(Uuid, String)>> = HashMap::new();
            for row in rows {
                of.entry(row.news_id.0)
                    .or_default()
                    .push((row.id.0, row.name));
            }
            for item in &mut items {
                item.categories = of.remove(&item.id).unwrap_or_default();
            }
            Ok(items)
        }

        /// Links a news item to its categories (all must exist; `Backend::KEY_SHARE` keeps
        /// each from being deleted before the transaction ends).
        async fn link_news_categories(
            tx: &mut Tx<'_>,
            id: Uuid,
            categories: &[Uuid],
        ) -> Result<(), NewsError> {
            sqlx::query("DELETE FROM news_item_categories WHERE news_id = $1")
                .bind(DbUuid(id))
                .execute(&mut **tx)
                .await?;
            for category in categories {
                let exists: Option<DbUuid> = sqlx::query_scalar(&format!(
                    "SELECT id FROM news_categories WHERE id = $1{}",
                    Backend::KEY_SHARE
                ))
                .bind(DbUuid(*category))
                .fetch_optional(&mut **tx)
                .await?;
                if exists.is_none() {
                    return Err(NewsError::UnknownCategory(*category));
                }
                sqlx::query(
                    "INSERT INTO news_item_categories (news_id, category_id) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                )
                .bind(DbUuid(id))
                .bind(DbUuid(*category))
                .execute(&mut **tx)
                .await?;
            }
            Ok(())
        }

        pub(in crate::store) async fn read_news_page(
            &self,
            query: &NewsQuery,
        ) -> StoreResult<Vec<NewsItem>> {
            let items = match (&query.near, &query.after) {
                (None, None | Some(NewsCursor::Date { .. })) => self.news_by_date(query).await?,
                (None, Some(_)) => Vec::new(),
                (Some(near), after) => {
                    let mut items = match after {
                        Some(NewsCursor::Date { .. }) => return Ok(Vec::new()),
                        Some(NewsCursor::Unlocated { .. }) => Vec::new(),
                        _ => self.located_news(query, near.point).await?,
                    };
                    let room = query.limit.saturating_sub(len_u32(&items));
                    if room > 0 && near.radius_m.is_none() {
                        items.extend(self.unlocated_news(query, room).await?);
                    }
                    items
                }
            };
            self.with_news_categories(items).await
        }

        pub(in crate::store) async fn read_news_item(
            &self,
            id: Uuid,
        ) -> StoreResult<Option<NewsItem>> {
            let row: Option<NewsRecord> = sqlx::query_as(&format!(
                "SELECT {NEWS_COLUMNS} FROM news_items n WHERE n.id = $1"
            ))
            .bind(DbUuid(id))
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else { return Ok(None) };
            Ok(self.with_news_categories(vec![row.into()]).await?.pop())
        }

        pub(in crate::store) async fn write_news_item(
            &self,
            id: Uuid,
            draft: &NewsDraft,
            now: Instant,
            create: bool,
        ) -> Result<NewsItem, NewsError> {
            let mut tx = self.begin_write().await?;
            let sql = if create {
                Backend::INSERT_NEWS
            } else {
                Backend::UPDATE_NEWS
            };
            let done = sqlx::query(sql)
                .bind(DbUuid(id))
                .bind(&draft.title)
                .bind(&draft.description)
                .bind(&draft.image)
                .bind(DbInstant(draft.date))
                .bind(draft.location.map(|p| p.lon))
                .bind(draft.location.map(|p| p.lat))
                .bind(DbInstant(now))
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Err(NewsError::NotFound);
            }
            Backend::link_news_categories(&mut tx, id, &draft.categories).await?;
            if create {
                // Subscribers of its categories are told (an edit tells nobody again).
                let event = crate::store::notifications::EventKind::News { news_id: id };
                Backend::record_event(&mut tx, event, now).await?;
            }
            tx.commit().await?;
            self.read_news_item(id).await?.ok_or(NewsError::NotFound)
        }

        pub(in crate::store) async fn remove_news_item(&self, id: Uuid) -> StoreResult<bool> {
            let done = sqlx::query("DELETE FROM news_items WHERE id = $1")
                .bind(DbUuid(id))
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

        /// One snapshot (`Backend::begin_snapshot`): the categories, items and links are
        /// exactly those of the generation read first. Four statements whatever the count: the
        /// links are read bare and ordered by the categories' order (`NewsSnapshot::assemble`).
        pub(in crate::store) async fn read_news_snapshot(&self) -> StoreResult<NewsSnapshot> {
            let mut tx = self.begin_snapshot().await?;
            let generation: i64 =
                sqlx::query_scalar("SELECT generation FROM news_generation WHERE id = 1")
                    .fetch_one(&mut *tx)
                    .await?;
            let categories: Vec<NewsCategory> = sqlx::query_as(&format!(
                "SELECT {CATEGORY_COLUMNS} FROM news_categories ORDER BY name, id"
            ))
            .fetch_all(&mut *tx)
            .await?;
            let items: Vec<NewsRecord> =
                sqlx::query_as(&format!("SELECT {NEWS_COLUMNS} FROM news_items n"))
                    .fetch_all(&mut *tx)
                    .await?;
            let links: Vec<LinkRecord> =
                sqlx::query_as("SELECT news_id, category_id FROM news_item_categories")
                    .fetch_all(&mut *tx)
                    .await?;
            tx.commit().await?;
            Ok(NewsSnapshot::assemble(
                generation,
                categories,
                items.into_iter().map(NewsItem::from).collect(),
                links
                    .into_iter()
                    .map(|l| (l.news_id.0, l.category_id.0))
                    .collect::<Vec<_>>(),
            ))
        }
    }
}
