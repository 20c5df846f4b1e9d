//! Managing report categories (PostgreSQL).

use uuid::Uuid;

use crate::store::admin::{CategoryChange, CategoryError};
use crate::store::postgres::PgStore;
use crate::store::records::{CategoryRecord, CATEGORY_COLUMNS};
use crate::store::{Category, StoreError};

async fn lock(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    id: Uuid,
) -> Result<Category, CategoryError> {
    let row = sqlx::query_as::<_, CategoryRecord>(&format!(
        "SELECT {CATEGORY_COLUMNS} FROM report_categories c WHERE c.id = $1 FOR UPDATE"
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => Ok(Category::try_from(row).map_err(StoreError::from)?),
        None => Err(CategoryError::NotFound),
    }
}

impl PgStore {
    /// Changes a category (the default moves here when it is made the default).
    pub(in crate::store) async fn change_category(
        &self,
        id: Uuid,
        change: &CategoryChange,
    ) -> Result<Category, CategoryError> {
        let mut tx = self.pool.begin().await?;
        // The default's row first: two requests making two categories the default serialise here.
        sqlx::query("SELECT id FROM report_categories WHERE is_default FOR UPDATE")
            .fetch_all(&mut *tx)
            .await?;
        let current = lock(&mut tx, id).await?;
        match change.is_default {
            Some(false) if current.is_default => return Err(CategoryError::DefaultRequired),
            Some(true) if !current.is_default => {
                sqlx::query("UPDATE report_categories SET is_default = FALSE WHERE is_default")
                    .execute(&mut *tx)
                    .await?;
            }
            _ => {}
        }
        let deadline = match change.statement_deadline_days {
            Some(days) => days,
            None => current.statement_deadline_days,
        };
        let row: CategoryRecord = sqlx::query_as(&format!(
            "UPDATE report_categories c SET name = COALESCE($2, c.name), \
         is_default = COALESCE($3, c.is_default), statement_deadline_days = $4 \
         WHERE c.id = $1 RETURNING {CATEGORY_COLUMNS}"
        ))
        .bind(id)
        .bind(change.name.as_deref())
        .bind(change.is_default)
        .bind(deadline.map(i64::from))
        .fetch_one(&mut *tx)
        .await?;
        let updated = Category::try_from(row).map_err(StoreError::from)?;
        tx.commit().await?;
        Ok(updated)
    }

    /// Deletes a category no issue uses and that is not the default.
    pub(in crate::store) async fn remove_category(&self, id: Uuid) -> Result<(), CategoryError> {
        let mut tx = self.pool.begin().await?;
        let current = lock(&mut tx, id).await?;
        if current.is_default {
            return Err(CategoryError::DefaultRequired);
        }
        let used: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM issues WHERE category_id = $1 LIMIT 1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        if used.is_some() {
            return Err(CategoryError::InUse);
        }
        sqlx::query("DELETE FROM report_categories WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
