//! News categories and subscriptions, and the news store's items through each backend's own
//! statements (`news.rs`: PostGIS, text search). A category write (`app::news_categories`
//! decides) first takes each backend's lock on the tree (`begin_category_write`), so the tree it
//! reads is one nobody else is changing.

use std::collections::HashMap;

use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid, Writing};
use crate::store::news::{
    NewNewsCategory, NewsCategory, NewsCategoryChange, NewsCategoryTx, NewsDraft, NewsError,
    NewsItem, NewsQuery, NewsSnapshot, NewsStore, SubscriptionError,
};
use crate::store::records::NEWS_CATEGORY_COLUMNS as COLUMNS;
use crate::store::{Instant, StoreResult};

both_backends! {
    #[async_trait]
    impl NewsCategoryTx for Writing<Db> {
        async fn tree(&mut self) -> StoreResult<HashMap<Uuid, Option<Uuid>>> {
            let rows: Vec<(DbUuid, Option<DbUuid>)> =
                sqlx::query_as("SELECT id, parent_id FROM news_categories")
                    .fetch_all(&mut *self.0)
                    .await?;
            Ok(rows
                .into_iter()
                .map(|(id, parent)| (id.0, parent.map(|p| p.0)))
                .collect())
        }

        async fn insert_category(
            &mut self,
            id: Uuid,
            new: &NewNewsCategory,
            now: Instant,
        ) -> StoreResult<NewsCategory> {
            let row: NewsCategory = sqlx::query_as(&format!(
                "INSERT INTO news_categories (id, name, description, parent_id, created_at, \
                 updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING {COLUMNS}"
            ))
            .bind(DbUuid(id))
            .bind(&new.name)
            .bind(&new.description)
            .bind(new.parent_id.map(DbUuid))
            .bind(DbInstant(now))
            .fetch_one(&mut *self.0)
            .await?;
            Ok(row)
        }

        async fn update_category(
            &mut self,
            id: Uuid,
            change: &NewsCategoryChange,
            now: Instant,
        ) -> StoreResult<NewsCategory> {
            let row: NewsCategory = sqlx::query_as(&format!(
                "UPDATE news_categories SET name = coalesce($2, name), \
                 description = CASE WHEN $3 THEN $4 ELSE description END, \
                 parent_id = CASE WHEN $5 THEN $6 ELSE parent_id END, updated_at = $7 \
                 WHERE id = $1 RETURNING {COLUMNS}"
            ))
            .bind(DbUuid(id))
            .bind(&change.name)
            .bind(change.description.is_some())
            .bind(change.description.clone().flatten())
            .bind(change.parent_id.is_some())
            .bind(change.parent_id.flatten().map(DbUuid))
            .bind(DbInstant(now))
            .fetch_one(&mut *self.0)
            .await?;
            Ok(row)
        }

        async fn delete_category(&mut self, id: Uuid) -> StoreResult<()> {
            sqlx::query("DELETE FROM news_categories WHERE id = $1")
                .bind(DbUuid(id))
                .execute(&mut *self.0)
                .await?;
            Ok(())
        }
    }

    #[async_trait]
    impl NewsStore for Backend {
        async fn news_categories(&self) -> StoreResult<Vec<NewsCategory>> {
            Ok(sqlx::query_as(&format!(
                "SELECT {COLUMNS} FROM news_categories ORDER BY name, id"
            ))
            .fetch_all(&self.pool)
            .await?)
        }

        async fn begin_news_category_write(&self) -> StoreResult<Box<dyn NewsCategoryTx>> {
            Ok(Box::new(Writing(self.begin_category_write().await?)))
        }

        async fn news_page(&self, query: &NewsQuery) -> StoreResult<Vec<NewsItem>> {
            self.read_news_page(query).await
        }

        async fn news_item(&self, id: Uuid) -> StoreResult<Option<NewsItem>> {
            self.read_news_item(id).await
        }

        async fn create_news_item(
            &self,
            id: Uuid,
            draft: &NewsDraft,
            now: Instant,
        ) -> Result<NewsItem, NewsError> {
            self.write_news_item(id, draft, now, true).await
        }

        async fn update_news_item(
            &self,
            id: Uuid,
            draft: &NewsDraft,
            now: Instant,
        ) -> Result<NewsItem, NewsError> {
            self.write_news_item(id, draft, now, false).await
        }

        async fn delete_news_item(&self, id: Uuid) -> StoreResult<bool> {
            self.remove_news_item(id).await
        }

        async fn news_generation(&self) -> StoreResult<i64> {
            self.read_news_generation().await
        }

        async fn news_snapshot(&self) -> StoreResult<NewsSnapshot> {
            self.read_news_snapshot().await
        }

        async fn subscriptions(&self, subject: &str) -> StoreResult<Vec<Uuid>> {
            let ids: Vec<DbUuid> = sqlx::query_scalar(
                "SELECT category_id FROM news_subscriptions WHERE subject = $1 \
                 ORDER BY category_id",
            )
            .bind(subject)
            .fetch_all(&self.pool)
            .await?;
            Ok(ids.into_iter().map(Uuid::from).collect())
        }

        async fn change_subscriptions(
            &self,
            subject: &str,
            changes: &[(Uuid, bool)],
        ) -> Result<u32, SubscriptionError> {
            let mut tx = self.begin_write().await?;
            let mut changed = 0u64;
            let category_exists = format!(
                "SELECT id FROM news_categories WHERE id = $1{}",
                Backend::KEY_SHARE
            );
            for (category, subscribed) in changes {
                let exists: Option<DbUuid> = sqlx::query_scalar(&category_exists)
                    .bind(DbUuid(*category))
                    .fetch_optional(&mut *tx)
                    .await?;
                if exists.is_none() {
                    return Err(SubscriptionError::UnknownCategory(*category));
                }
                let sql = if *subscribed {
                    "INSERT INTO news_subscriptions (subject, category_id) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING"
                } else {
                    "DELETE FROM news_subscriptions WHERE subject = $1 AND category_id = $2"
                };
                changed += sqlx::query(sql)
                    .bind(subject)
                    .bind(DbUuid(*category))
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            tx.commit().await?;
            Ok(u32::try_from(changed).unwrap_or(u32::MAX))
        }
    }
}
