//! SQLite backend (the embedded default). Instants are INTEGER microseconds since the Unix epoch,
//! UUIDs their hyphenated text; writes that read first start with `BEGIN IMMEDIATE` (the write
//! lock up front, so concurrent steps on one issue serialise instead of failing).

mod admin;
mod deliveries;
mod detail;
mod digests;
mod issues;
mod list_sql;
mod nearest;
mod news;
mod news_categories;
mod notifications;
mod outbox;
mod projects;
mod reports;
mod rows;
pub(crate) mod status_events;
mod votes;

use anyhow::Context as _;
use async_trait::async_trait;
use chrono::DateTime;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};
use uuid::Uuid;

use super::{Category, CategoryStore, Instant, NewCategory, StoreResult};

pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

pub(super) fn micros(t: Instant) -> i64 {
    t.timestamp_micros()
}

pub(super) fn instant(micros: i64) -> anyhow::Result<Instant> {
    DateTime::from_timestamp_micros(micros).context("stored instant is out of range")
}

/// An instant column.
pub(super) fn get_instant(row: &SqliteRow, column: &str) -> StoreResult<Instant> {
    Ok(instant(row.try_get(column)?)?)
}

/// A nullable instant column.
pub(super) fn get_opt_instant(row: &SqliteRow, column: &str) -> StoreResult<Option<Instant>> {
    let value: Option<i64> = row.try_get(column)?;
    Ok(value.map(instant).transpose()?)
}

/// A UUID column (hyphenated text).
pub(super) fn get_uuid(row: &SqliteRow, column: &str) -> StoreResult<Uuid> {
    let text: String = row.try_get(column)?;
    Ok(text.parse::<Uuid>().context("stored id is not a UUID")?)
}

/// A nullable UUID column.
pub(super) fn get_opt_uuid(row: &SqliteRow, column: &str) -> StoreResult<Option<Uuid>> {
    let text: Option<String> = row.try_get(column)?;
    Ok(text
        .map(|t| t.parse::<Uuid>())
        .transpose()
        .context("stored id is not a UUID")?)
}

const CATEGORY_COLUMNS: &str = "c.id, c.name, c.is_default, c.statement_deadline_days";
const CATEGORY_ORDER: &str = "ORDER BY c.is_default, c.name, c.id";

fn category(row: &SqliteRow) -> StoreResult<Category> {
    let days: Option<i64> = row.try_get("statement_deadline_days")?;
    Ok(Category {
        id: get_uuid(row, "id")?,
        name: row.try_get("name")?,
        is_default: row.try_get("is_default")?,
        statement_deadline_days: days
            .map(u32::try_from)
            .transpose()
            .context("stored deadline is out of range")?,
    })
}

#[async_trait]
impl CategoryStore for SqliteStore {
    async fn categories(&self) -> StoreResult<Vec<Category>> {
        let rows = sqlx::query(&format!(
            "SELECT {CATEGORY_COLUMNS} FROM report_categories c {CATEGORY_ORDER}"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(category).collect()
    }

    async fn officer_categories(&self, subject: &str) -> StoreResult<Vec<Category>> {
        let rows = sqlx::query(&format!(
            "SELECT {CATEGORY_COLUMNS} FROM report_categories c \
             JOIN category_officers o ON o.category_id = c.id AND o.subject = ?1 {CATEGORY_ORDER}"
        ))
        .bind(subject)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(category).collect()
    }

    async fn create_category(&self, new: &NewCategory, now: Instant) -> StoreResult<Category> {
        let row = sqlx::query(
            "INSERT INTO report_categories (id, name, is_default, statement_deadline_days, \
             created_at) VALUES (?1, ?2, ?3, ?4, ?5) \
             RETURNING id, name, is_default, statement_deadline_days",
        )
        .bind(Uuid::now_v7().to_string())
        .bind(&new.name)
        .bind(new.is_default)
        .bind(new.statement_deadline_days.map(i64::from))
        .bind(micros(now))
        .fetch_one(&self.pool)
        .await?;
        category(&row)
    }

    async fn ensure_default_category(&self, name: &str, now: Instant) -> StoreResult<Category> {
        sqlx::query(
            "INSERT INTO report_categories (id, name, is_default, created_at) \
             VALUES (?1, ?2, 1, ?3) ON CONFLICT DO NOTHING",
        )
        .bind(Uuid::now_v7().to_string())
        .bind(name)
        .bind(micros(now))
        .execute(&self.pool)
        .await?;
        let row = sqlx::query(&format!(
            "SELECT {CATEGORY_COLUMNS} FROM report_categories c WHERE c.is_default"
        ))
        .fetch_optional(&self.pool)
        .await?
        .with_context(|| {
            format!("no default report category, and the name {name:?} is taken by another")
        })?;
        category(&row)
    }

    async fn assign_officer(&self, subject: &str, category_id: Uuid) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO category_officers (subject, category_id) VALUES (?1, ?2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(category_id.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
