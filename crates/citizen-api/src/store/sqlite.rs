//! SQLite backend (the embedded default). Instants are INTEGER microseconds since the Unix epoch,
//! UUIDs their hyphenated text; writes that read first start with `BEGIN IMMEDIATE` (the write
//! lock up front, so concurrent steps on one issue serialise instead of failing).

mod admin;
mod dialect;
mod digests;
mod list_sql;
mod nearest;
mod news;
mod reports;
mod votes;

use anyhow::Context as _;
use sqlx::sqlite::SqliteRow;
use sqlx::Row;
use uuid::Uuid;

pub(in crate::store) use super::backends::SqliteStore;
use super::{Instant, StoreResult};

pub(super) fn micros(t: Instant) -> i64 {
    t.timestamp_micros()
}

/// A UUID column (hyphenated text).
pub(super) fn get_uuid(row: &SqliteRow, column: &str) -> StoreResult<Uuid> {
    let text: String = row.try_get(column)?;
    Ok(text.parse::<Uuid>().context("stored id is not a UUID")?)
}
