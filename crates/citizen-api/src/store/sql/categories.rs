//! Report categories and the officers who work in them.

use anyhow::Context as _;
use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
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
            .bind(DbUuid(Uuid::now_v7()))
            .bind(&new.name)
            .bind(new.is_default)
            .bind(days)
            .bind(DbInstant(now))
            .fetch_one(&self.pool)
            .await?;
            Ok(row.try_into()?)
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
            sqlx::query(
                "INSERT INTO category_officers (subject, category_id) VALUES ($1, $2) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(subject)
            .bind(DbUuid(category_id))
            .execute(&self.pool)
            .await?;
            Ok(())
        }
    }
}
