//! Report categories and the officers who work in them; a change of categories as the
//! primitives `app::categories` runs in one transaction (`Backend::FOR_UPDATE`: PostgreSQL's row
//! locks; SQLite holds its write lock from `BEGIN IMMEDIATE` on).

use anyhow::Context as _;
use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid, Writing};
use crate::store::admin::{AdminEvent, CategoryChange, CategoryTx};
use crate::store::records::{CategoryRecord, CATEGORY_COLUMNS as COLUMNS};
use crate::store::{Category, CategoryStore, Instant, NewCategory, StoreResult};

/// By name, the default category last.
const ORDER: &str = "ORDER BY c.is_default, c.name, c.id";

fn categories(rows: Vec<CategoryRecord>) -> StoreResult<Vec<Category>> {
    Ok(rows
        .into_iter()
        .map(Category::try_from)
        .collect::<anyhow::Result<_>>()?)
}

both_backends! {
    impl Backend {
        /// A change of report categories: a writing transaction (`app::categories`).
        pub(in crate::store) async fn begin_category_change_tx(
            &self,
        ) -> StoreResult<Box<dyn CategoryTx>> {
            Ok(Box::new(Writing(self.begin_write().await?)))
        }
    }

    #[async_trait]
    impl CategoryTx for Writing<Db> {
        async fn lock_default(&mut self) -> StoreResult<()> {
            sqlx::query(&format!(
                "SELECT id FROM report_categories WHERE is_default{}",
                Backend::FOR_UPDATE
            ))
            .fetch_all(&mut *self.0)
            .await?;
            Ok(())
        }

        async fn lock_category(&mut self, id: Uuid) -> StoreResult<Option<Category>> {
            let row: Option<CategoryRecord> = sqlx::query_as(&format!(
                "SELECT {COLUMNS} FROM report_categories c WHERE c.id = $1{}",
                Backend::FOR_UPDATE
            ))
            .bind(DbUuid(id))
            .fetch_optional(&mut *self.0)
            .await?;
            Ok(row.map(Category::try_from).transpose()?)
        }

        async fn clear_default(&mut self) -> StoreResult<()> {
            sqlx::query("UPDATE report_categories SET is_default = FALSE WHERE is_default")
                .execute(&mut *self.0)
                .await?;
            Ok(())
        }

        async fn write_category(
            &mut self,
            id: Uuid,
            change: &CategoryChange,
            deadline: Option<u32>,
        ) -> StoreResult<Category> {
            let row: CategoryRecord = sqlx::query_as(
                "UPDATE report_categories SET name = COALESCE($2, name), \
                 is_default = COALESCE($3, is_default), statement_deadline_days = $4 \
                 WHERE id = $1 RETURNING id, name, is_default, statement_deadline_days",
            )
            .bind(DbUuid(id))
            .bind(change.name.as_deref())
            .bind(change.is_default)
            .bind(deadline.map(i64::from))
            .fetch_one(&mut *self.0)
            .await?;
            Ok(Category::try_from(row)?)
        }

        async fn category_used(&mut self, id: Uuid) -> StoreResult<bool> {
            let used: Option<i32> =
                sqlx::query_scalar("SELECT 1 FROM issues WHERE category_id = $1 LIMIT 1")
                    .bind(DbUuid(id))
                    .fetch_optional(&mut *self.0)
                    .await?;
            Ok(used.is_some())
        }

        async fn delete_category(&mut self, id: Uuid) -> StoreResult<()> {
            for sql in [
                "DELETE FROM category_officers WHERE category_id = $1",
                "DELETE FROM report_categories WHERE id = $1",
            ] {
                sqlx::query(sql)
                    .bind(DbUuid(id))
                    .execute(&mut *self.0)
                    .await?;
            }
            Ok(())
        }

        async fn insert_category(
            &mut self,
            id: Uuid,
            new: &NewCategory,
            now: Instant,
        ) -> StoreResult<Category> {
            Backend::insert_category(&mut *self.0, id, new, now).await
        }

        async fn assign_officer(&mut self, subject: &str, id: Uuid) -> StoreResult<bool> {
            Backend::insert_officer(&mut *self.0, subject, id).await
        }

        async fn remove_officer(&mut self, subject: &str, id: Uuid) -> StoreResult<bool> {
            let done = sqlx::query(
                "DELETE FROM category_officers WHERE subject = $1 AND category_id = $2",
            )
            .bind(subject)
            .bind(DbUuid(id))
            .execute(&mut *self.0)
            .await?;
            Ok(done.rows_affected() == 1)
        }

        async fn record_event(&mut self, event: &AdminEvent) -> StoreResult<()> {
            Backend::insert_event(&mut *self.0, event).await
        }
    }

    impl Backend {
        /// Inserts a category (in a transaction or on the pool).
        async fn insert_category<'c, E>(
            executor: E,
            id: Uuid,
            new: &NewCategory,
            now: Instant,
        ) -> StoreResult<Category>
        where
            E: sqlx::Executor<'c, Database = Db>,
        {
            let days = new
                .statement_deadline_days
                .map(i32::try_from)
                .transpose()
                .context("deadline out of range")?;
            let row: CategoryRecord = sqlx::query_as(
                "INSERT INTO report_categories (id, name, is_default, \
                 statement_deadline_days, created_at) VALUES ($1, $2, $3, $4, $5) \
                 RETURNING id, name, is_default, statement_deadline_days",
            )
            .bind(DbUuid(id))
            .bind(&new.name)
            .bind(new.is_default)
            .bind(days)
            .bind(DbInstant(now))
            .fetch_one(executor)
            .await?;
            Ok(row.try_into()?)
        }

        /// Assigns an officer (in a transaction or on the pool; nothing when assigned already).
        async fn insert_officer<'c, E>(executor: E, subject: &str, id: Uuid) -> StoreResult<bool>
        where
            E: sqlx::Executor<'c, Database = Db>,
        {
            let done = sqlx::query(
                "INSERT INTO category_officers (subject, category_id) VALUES ($1, $2) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(subject)
            .bind(DbUuid(id))
            .execute(executor)
            .await?;
            Ok(done.rows_affected() == 1)
        }
    }

    #[async_trait]
    impl CategoryStore for Backend {
        async fn categories(&self) -> StoreResult<Vec<Category>> {
            let rows = sqlx::query_as(&format!(
                "SELECT {COLUMNS} FROM report_categories c {ORDER}"
            ))
            .fetch_all(&self.pool)
            .await?;
            categories(rows)
        }

        async fn officer_categories(&self, subject: &str) -> StoreResult<Vec<Category>> {
            let rows = sqlx::query_as(&format!(
                "SELECT {COLUMNS} FROM report_categories c \
                 JOIN category_officers o ON o.category_id = c.id AND o.subject = $1 {ORDER}"
            ))
            .bind(subject)
            .fetch_all(&self.pool)
            .await?;
            categories(rows)
        }

        async fn create_category(&self, new: &NewCategory, now: Instant) -> StoreResult<Category> {
            Backend::insert_category(&self.pool, Uuid::now_v7(), new, now).await
        }

        async fn ensure_default_category(&self, name: &str, now: Instant) -> StoreResult<Category> {
            // The partial unique index admits one default: concurrent starts insert at most one.
            sqlx::query(
                "INSERT INTO report_categories (id, name, is_default, created_at) \
                 VALUES ($1, $2, TRUE, $3) ON CONFLICT DO NOTHING",
            )
            .bind(DbUuid(Uuid::now_v7()))
            .bind(name)
            .bind(DbInstant(now))
            .execute(&self.pool)
            .await?;
            let row: CategoryRecord = sqlx::query_as(&format!(
                "SELECT {COLUMNS} FROM report_categories c WHERE c.is_default"
            ))
            .fetch_optional(&self.pool)
            .await?
            .with_context(|| {
                format!("no default report category, and the name {name:?} is taken by another")
            })?;
            Ok(row.try_into()?)
        }

        async fn assign_officer(&self, subject: &str, category_id: Uuid) -> StoreResult<()> {
            Backend::insert_officer(&self.pool, subject, category_id).await?;
            Ok(())
        }
    }
}
