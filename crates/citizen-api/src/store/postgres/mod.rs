//! PostgreSQL backend (schema `citizen_api`, PostGIS for locations).

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
mod statements;
pub(crate) mod status_events;
mod votes;

use anyhow::Context as _;
use async_trait::async_trait;
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::{Category, CategoryStore, Instant, NewCategory, StoreResult};

/// ` LIMIT n` (and ` OFFSET m`) as literals, not bound parameters. With a bound `LIMIT`
/// PostgreSQL cannot cost a generic plan of the prepared statement for a small page, so it plans
/// the statement anew on every execution (a custom plan: 12 % of the whole machine's CPU under
/// the report list benchmark); with literals a statement gets its generic plan after five
/// executions. The values are integers the API checked (at most 101 rows per page, an offset of
/// at most 1 000), never text, so nothing can be injected. Each distinct page size is one more
/// statement in sqlx's per-connection cache (least recently used out, 100 statements): clients
/// paging with unusual sizes cost at worst a parse and plan per request, as every request did.
pub(crate) fn page_sql(limit: i64, offset: i64) -> String {
    if offset == 0 {
        format!(" LIMIT {limit}")
    } else {
        format!(" LIMIT {limit} OFFSET {offset}")
    }
}

pub struct PgStore {
    pool: PgPool,
    /// `votes.synchronous_commit`: false (the default) commits a vote without waiting for the
    /// disk, so the account's lock is not held during the flush (docs/decisions.md, "Vote
    /// commits").
    synchronous_vote_commit: bool,
}

impl PgStore {
    pub fn new(pool: PgPool, options: super::StoreOptions) -> Self {
        Self {
            pool,
            synchronous_vote_commit: options.synchronous_vote_commit,
        }
    }
}

const CATEGORY_COLUMNS: &str = "c.id, c.name, c.is_default, c.statement_deadline_days";

fn category(row: &PgRow) -> StoreResult<Category> {
    let days: Option<i32> = row.try_get("statement_deadline_days")?;
    Ok(Category {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        is_default: row.try_get("is_default")?,
        statement_deadline_days: days
            .map(u32::try_from)
            .transpose()
            .context("stored deadline is negative")?,
    })
}

#[async_trait]
impl CategoryStore for PgStore {
    async fn categories(&self) -> StoreResult<Vec<Category>> {
        let rows = sqlx::query(&format!(
            "SELECT {CATEGORY_COLUMNS} FROM report_categories c ORDER BY c.is_default, c.name, c.id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(category).collect()
    }

    async fn officer_categories(&self, subject: &str) -> StoreResult<Vec<Category>> {
        let rows = sqlx::query(&format!(
            "SELECT {CATEGORY_COLUMNS} FROM report_categories c \
             JOIN category_officers o ON o.category_id = c.id AND o.subject = $1 \
             ORDER BY c.is_default, c.name, c.id"
        ))
        .bind(subject)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(category).collect()
    }

    async fn create_category(&self, new: &NewCategory, now: Instant) -> StoreResult<Category> {
        let days = new.statement_deadline_days.map(i64::from);
        let row = sqlx::query(
            "INSERT INTO report_categories AS c (id, name, is_default, statement_deadline_days, \
             created_at) VALUES ($1, $2, $3, $4, $5) \
             RETURNING c.id, c.name, c.is_default, c.statement_deadline_days",
        )
        .bind(Uuid::now_v7())
        .bind(&new.name)
        .bind(new.is_default)
        .bind(days)
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        category(&row)
    }

    async fn ensure_default_category(&self, name: &str, now: Instant) -> StoreResult<Category> {
        // The partial unique index admits one default: concurrent starts insert at most one.
        sqlx::query(
            "INSERT INTO report_categories (id, name, is_default, created_at) \
             VALUES ($1, $2, TRUE, $3) ON CONFLICT DO NOTHING",
        )
        .bind(Uuid::now_v7())
        .bind(name)
        .bind(now)
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
            "INSERT INTO category_officers (subject, category_id) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(category_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
