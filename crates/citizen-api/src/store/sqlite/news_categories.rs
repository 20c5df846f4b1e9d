//! News categories and subscriptions (SQLite). Category writes run in `BEGIN IMMEDIATE` (the
//! write lock up front), so the parent check sees a tree nobody else is changing.

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, Sqlite, Transaction};
use uuid::Uuid;

use super::{get_opt_uuid, get_uuid, micros, SqliteStore};
use crate::store::news::{
    CategoryError, NewNewsCategory, NewsCategory, NewsCategoryChange, NewsDraft, NewsError,
    NewsItem, NewsQuery, NewsSnapshot, NewsStore, SubscriptionError,
};
use crate::store::{Instant, StoreResult};

pub(super) const COLUMNS: &str = "id, name, description, parent_id";

pub(super) fn category(row: &SqliteRow) -> StoreResult<NewsCategory> {
    Ok(NewsCategory {
        id: get_uuid(row, "id")?,
        name: row.try_get("name")?,
        description: row.try_get("description")?,
        parent_id: get_opt_uuid(row, "parent_id")?,
    })
}

/// Every category's parent (inside the write transaction).
async fn read_tree(
    tx: &mut Transaction<'_, Sqlite>,
) -> Result<HashMap<Uuid, Option<Uuid>>, CategoryError> {
    let rows = sqlx::query("SELECT id, parent_id FROM news_categories")
        .fetch_all(&mut **tx)
        .await?;
    let mut tree = HashMap::with_capacity(rows.len());
    for row in &rows {
        tree.insert(get_uuid(row, "id")?, get_opt_uuid(row, "parent_id")?);
    }
    Ok(tree)
}

fn check_parent(
    id: Uuid,
    parent: Option<Uuid>,
    tree: &HashMap<Uuid, Option<Uuid>>,
) -> Result<(), CategoryError> {
    match parent {
        Some(parent) => domain::news::check_parent(id, parent, tree).map_err(CategoryError::Parent),
        None => Ok(()),
    }
}

#[async_trait]
impl NewsStore for SqliteStore {
    async fn news_categories(&self) -> StoreResult<Vec<NewsCategory>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM news_categories ORDER BY name, id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(category).collect()
    }

    async fn create_news_category(
        &self,
        new: &NewNewsCategory,
        now: Instant,
    ) -> Result<NewsCategory, CategoryError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let tree = read_tree(&mut tx).await?;
        let id = Uuid::now_v7();
        check_parent(id, new.parent_id, &tree)?;
        let row = sqlx::query(&format!(
            "INSERT INTO news_categories (id, name, description, parent_id, created_at, \
             updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) RETURNING {COLUMNS}"
        ))
        .bind(id.to_string())
        .bind(&new.name)
        .bind(&new.description)
        .bind(new.parent_id.map(|p| p.to_string()))
        .bind(micros(now))
        .fetch_one(&mut *tx)
        .await?;
        let created = category(&row)?;
        tx.commit().await?;
        Ok(created)
    }

    async fn update_news_category(
        &self,
        id: Uuid,
        change: &NewsCategoryChange,
        now: Instant,
    ) -> Result<NewsCategory, CategoryError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let tree = read_tree(&mut tx).await?;
        if !tree.contains_key(&id) {
            return Err(CategoryError::NotFound);
        }
        if let Some(parent) = change.parent_id {
            check_parent(id, parent, &tree)?;
        }
        let row = sqlx::query(&format!(
            "UPDATE news_categories SET name = coalesce(?2, name), \
             description = CASE WHEN ?3 THEN ?4 ELSE description END, \
             parent_id = CASE WHEN ?5 THEN ?6 ELSE parent_id END, updated_at = ?7 \
             WHERE id = ?1 RETURNING {COLUMNS}"
        ))
        .bind(id.to_string())
        .bind(&change.name)
        .bind(change.description.is_some())
        .bind(change.description.clone().flatten())
        .bind(change.parent_id.is_some())
        .bind(change.parent_id.flatten().map(|p| p.to_string()))
        .bind(micros(now))
        .fetch_one(&mut *tx)
        .await?;
        let updated = category(&row)?;
        tx.commit().await?;
        Ok(updated)
    }

    async fn delete_news_category(&self, id: Uuid) -> Result<(), CategoryError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let tree = read_tree(&mut tx).await?;
        if !tree.contains_key(&id) {
            return Err(CategoryError::NotFound);
        }
        if tree.values().any(|parent| *parent == Some(id)) {
            return Err(CategoryError::HasChildren);
        }
        sqlx::query("DELETE FROM news_categories WHERE id = ?1")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn news_page(&self, query: &NewsQuery) -> StoreResult<Vec<NewsItem>> {
        self.sqlite_news_page(query).await
    }

    async fn news_item(&self, id: Uuid) -> StoreResult<Option<NewsItem>> {
        self.sqlite_news_item(id).await
    }

    async fn create_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
    ) -> Result<NewsItem, NewsError> {
        self.sqlite_write_news_item(id, draft, now, true).await
    }

    async fn update_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
    ) -> Result<NewsItem, NewsError> {
        self.sqlite_write_news_item(id, draft, now, false).await
    }

    async fn delete_news_item(&self, id: Uuid) -> StoreResult<bool> {
        self.sqlite_delete_news_item(id).await
    }

    async fn news_generation(&self) -> StoreResult<i64> {
        self.sqlite_news_generation().await
    }

    async fn news_snapshot(&self) -> StoreResult<NewsSnapshot> {
        self.sqlite_news_snapshot().await
    }

    async fn subscriptions(&self, subject: &str) -> StoreResult<Vec<Uuid>> {
        let rows = sqlx::query(
            "SELECT category_id FROM news_subscriptions WHERE subject = ?1 ORDER BY category_id",
        )
        .bind(subject)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| get_uuid(row, "category_id"))
            .collect()
    }

    async fn change_subscriptions(
        &self,
        subject: &str,
        changes: &[(Uuid, bool)],
    ) -> Result<u32, SubscriptionError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let mut changed = 0u64;
        for (category, subscribed) in changes {
            let exists: Option<String> =
                sqlx::query_scalar("SELECT id FROM news_categories WHERE id = ?1")
                    .bind(category.to_string())
                    .fetch_optional(&mut *tx)
                    .await?;
            if exists.is_none() {
                return Err(SubscriptionError::UnknownCategory(*category));
            }
            let sql = if *subscribed {
                "INSERT INTO news_subscriptions (subject, category_id) VALUES (?1, ?2) \
                 ON CONFLICT DO NOTHING"
            } else {
                "DELETE FROM news_subscriptions WHERE subject = ?1 AND category_id = ?2"
            };
            changed += sqlx::query(sql)
                .bind(subject)
                .bind(category.to_string())
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await?;
        Ok(u32::try_from(changed).unwrap_or(u32::MAX))
    }
}
