//! Street storage: one trait in domain terms, a backend per database.

mod cache;
mod coords;
mod postgres;
mod sqlite;
pub mod wkb;

use async_trait::async_trait;
use service_kit::db::{Database, Migrations};
pub use service_kit::store_error::{StoreError, StoreResult};
use sqlx::migrate::Migrator;
use std::sync::Arc;
use streets_import::ImportedStreet;

use crate::model::{Street, StreetQuery};

pub use cache::{CacheSettings, CachedStreets};
pub use postgres::PostgresStreets;
pub use sqlite::SqliteStreets;

/// The PostgreSQL schema owned by streets-api.
pub const SCHEMA: &str = "streets";

static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/streets-api/postgres");
static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/streets-api/sqlite");

/// The migrations of both dialects.
pub fn migrations() -> Migrations<'static> {
    Migrations {
        schema: SCHEMA,
        postgres: &POSTGRES_MIGRATIONS,
        sqlite: &SQLITE_MIGRATIONS,
    }
}

/// What a replace-all import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportSummary {
    /// Streets now stored.
    pub total: u64,
    /// Streets whose number was new (they got a new id).
    pub added: u64,
    /// Streets whose number was not in the file any more.
    pub removed: u64,
}

/// Street storage in domain terms. Failures are [`StoreError`]s: an unreachable or restarting
/// database is `Unavailable`, which the API answers with 503.
#[async_trait]
pub trait StreetStore: Send + Sync {
    /// The street with this `I_GM_U`.
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Street>>;
    /// The street with this database id.
    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Street>>;
    /// Streets matching the query: by distance when a point is given, else by name match rank
    /// (whole name, name prefix, word prefix), else by street number; ties by street number.
    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Street>>;
    /// Replaces the whole data set in one transaction, keeping each street's id for the same
    /// number. Either everything is replaced or nothing changes.
    async fn replace_all_streets(&self, streets: &[ImportedStreet]) -> StoreResult<ImportSummary>;
    /// How many streets are stored.
    async fn count_streets(&self) -> StoreResult<u64>;
    /// A number that changes with every import (bumped in the import's transaction).
    async fn dataset_generation(&self) -> StoreResult<i64>;
}

/// The store for a database of either backend.
pub fn for_database(db: &Database) -> Arc<dyn StreetStore> {
    match db {
        Database::Postgres(pool) => Arc::new(PostgresStreets::new(pool.clone())),
        Database::Sqlite(pool) => Arc::new(SqliteStreets::new(pool.clone())),
    }
}

/// The columns of a street as both backends select them (`id, number, name, geojson`).
#[derive(sqlx::FromRow)]
pub(crate) struct StreetRow {
    id: String,
    number: i64,
    name: String,
    geojson: String,
}

impl From<StreetRow> for Street {
    fn from(row: StreetRow) -> Self {
        Self {
            id: row.id,
            number: row.number,
            name: row.name,
            geojson: row.geojson,
        }
    }
}

/// A new public id: a UUID, which always contains `-`, so it never looks like a street number.
pub(crate) fn new_street_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
