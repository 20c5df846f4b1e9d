//! SQLite backend (the embedded default). Instants are INTEGER microseconds since the Unix epoch,
//! UUIDs their hyphenated text; writes that read first start with `BEGIN IMMEDIATE` (the write
//! lock up front, so concurrent steps on one issue serialise instead of failing).

mod admin;
mod detail;
mod digests;
mod issues;
mod list_sql;
mod nearest;
mod news;
mod news_categories;
mod notifications;
mod reports;
mod rows;
mod votes;

use anyhow::Context as _;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};
use uuid::Uuid;

use super::{Instant, StoreResult};

pub struct SqliteStore {
    pub(in crate::store) pool: SqlitePool,
}

impl SqliteStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }

    /// No row locks: a writing transaction holds the database's write lock (`begin_write`).
    pub(in crate::store) const FOR_UPDATE: &'static str = "";

    /// Nothing to pass over: the write lock admits one writer (`begin_write`).
    pub(in crate::store) const SKIP_LOCKED: &'static str = "";

    /// A transaction that writes: `BEGIN IMMEDIATE` takes the database's write lock up front, so
    /// a transaction that reads before it writes waits for another writer instead of failing
    /// when it tries to upgrade its lock.
    pub(in crate::store) async fn begin_write(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        self.pool.begin_with("BEGIN IMMEDIATE").await
    }

    /// A writing transaction that fans out to subjects: the write lock of `begin_write`
    /// already keeps an erasure out until it ends (PostgreSQL takes an advisory lock).
    pub(in crate::store) async fn begin_fan_out(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        self.begin_write().await
    }

    /// An erasure's transaction: the write lock of `begin_write` waits for a fan-out writer and
    /// keeps the next out until it ends.
    pub(in crate::store) async fn begin_erasing(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        self.begin_write().await
    }

    /// ` IN (?, ?, …)` over `ids`.
    pub(in crate::store) fn push_ids(q: &mut sqlx::QueryBuilder<'_, sqlx::Sqlite>, ids: &[Uuid]) {
        rows::push_in(q, ids);
    }
}

pub(super) fn micros(t: Instant) -> i64 {
    t.timestamp_micros()
}

/// A UUID column (hyphenated text).
pub(super) fn get_uuid(row: &SqliteRow, column: &str) -> StoreResult<Uuid> {
    let text: String = row.try_get(column)?;
    Ok(text.parse::<Uuid>().context("stored id is not a UUID")?)
}
