//! Managing report categories (SQLite): each change in one `BEGIN IMMEDIATE` transaction.

use uuid::Uuid;

use crate::store::admin::{CategoryChange, CategoryError};
use crate::store::records::{CategoryRecord, CATEGORY_COLUMNS};
use crate::store::sqlite::SqliteStore;
use crate::store::{Category, StoreResult};

async fn read<'c, E>(executor: E, id: Uuid) -> StoreResult<Option<Category>>
where
    E: sqlx::Executor<'c, Database = sqlx::Sqlite>,
{
    let row = sqlx::query_as::<_, CategoryRecord>(&format!(
        "SELECT {CATEGORY_COLUMNS} FROM report_categories c WHERE c.id = ?1"
    ))
    .bind(id.to_string())
    .fetch_optional(executor)
    .await?;
    Ok(row.map(Category::try_from).transpose()?)
}

impl SqliteStore {
    /// Changes a category (the default moves here when it is made the default).
    pub(in crate::store) async fn change_category(
        &self,
        id: Uuid,
        change: &CategoryChange,
    ) -> Result<Category, CategoryError> {
        let mut tx = self.begin_write().await?;
        let current = read(&mut *tx, id).await?.ok_or(CategoryError::NotFound)?;
        match change.is_default {
            Some(false) if current.is_default => return Err(CategoryError::DefaultRequired),
            Some(true) if !current.is_default => {
                sqlx::query("UPDATE report_categories SET is_default = 0 WHERE is_default")
                    .execute(&mut *tx)
                    .await?;
            }
            _ => {}
        }
        let deadline = match change.statement_deadline_days {
            Some(days) => days,
            None => current.statement_deadline_days,
        };
        sqlx::query(
            "UPDATE report_categories SET name = COALESCE(?2, name), \
         is_default = COALESCE(?3, is_default), statement_deadline_days = ?4 WHERE id = ?1",
        )
        .bind(id.to_string())
        .bind(change.name.as_deref())
        .bind(change.is_default)
        .bind(deadline.map(i64::from))
        .execute(&mut *tx)
        .await?;
        let updated = read(&mut *tx, id).await?.ok_or(CategoryError::NotFound)?;
        tx.commit().await?;
        Ok(updated)
    }

    /// Deletes a category no issue uses and that is not the default.
    pub(in crate::store) async fn remove_category(&self, id: Uuid) -> Result<(), CategoryError> {
        let mut tx = self.begin_write().await?;
        let current = read(&mut *tx, id).await?.ok_or(CategoryError::NotFound)?;
        if current.is_default {
            return Err(CategoryError::DefaultRequired);
        }
        let used: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM issues WHERE category_id = ?1 LIMIT 1")
                .bind(id.to_string())
                .fetch_optional(&mut *tx)
                .await?;
        if used.is_some() {
            return Err(CategoryError::InUse);
        }
        sqlx::query("DELETE FROM category_officers WHERE category_id = ?1")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM report_categories WHERE id = ?1")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
