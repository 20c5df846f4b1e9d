//! Street storage: one trait in domain terms, a backend per database.

mod cache;
mod coords;
mod postgres;
mod sqlite;

use async_trait::async_trait;
use service_kit::db::{Database, Migrations};
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

/// Street storage in domain terms.
#[async_trait]
pub trait StreetStore: Send + Sync {
    /// The street with this `I_GM_U`.
    async fn street_by_number(&self, number: i64) -> anyhow::Result<Option<Street>>;
    /// The street with this database id.
    async fn street_by_id(&self, id: &str) -> anyhow::Result<Option<Street>>;
    /// Streets matching the query: by distance when a point is given, else by name match rank
    /// (whole name, name prefix, word prefix), else by street number; ties by street number.
    async fn find_streets(&self, query: &StreetQuery) -> anyhow::Result<Vec<Street>>;
    /// Replaces the whole data set in one transaction, keeping each street's id for the same
    /// number. Either everything is replaced or nothing changes.
    async fn replace_all_streets(
        &self,
        streets: &[ImportedStreet],
    ) -> anyhow::Result<ImportSummary>;
    /// How many streets are stored.
    async fn count_streets(&self) -> anyhow::Result<u64>;
    /// A number that changes with every import (bumped in the import's transaction).
    async fn dataset_generation(&self) -> anyhow::Result<i64>;
}

/// The store for a database of either backend.
pub fn for_database(db: &Database) -> Arc<dyn StreetStore> {
    match db {
        Database::Postgres(pool) => Arc::new(PostgresStreets::new(pool.clone())),
        Database::Sqlite(pool) => Arc::new(SqliteStreets::new(pool.clone())),
    }
}

/// A new public id: a UUID, which always contains `-`, so it never looks like a street number.
pub(crate) fn new_street_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
