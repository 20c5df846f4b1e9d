//! Street storage: one trait in domain terms, a backend per database.

pub mod bbox;
mod coords;
mod postgres;
mod postgres_import;
pub mod read_model;
mod shared;
mod sqlite;
mod sqlite_import;
pub mod wkb;

use actix_web::web::Bytes;
use async_trait::async_trait;
use service_kit::db::{Database, Migrations};
pub use service_kit::store_error::{StoreError, StoreResult};
use std::sync::Arc;
use streets_import::ImportedStreet;

use crate::model::{Feature, ItemsPage, ItemsQuery, StoredStreet, StreetQuery};
use domain::geo::BBox;

pub use postgres::PostgresStreets;
pub use read_model::{CacheSettings, ReadModelStreets};
pub use sqlite::SqliteStreets;

/// The PostgreSQL schema owned by streets-api.
pub const SCHEMA: &str = "streets";

/// The migrations of both dialects.
pub fn migrations() -> Migrations<'static> {
    service_kit::embedded_migrations! {
        schema: SCHEMA,
        postgres: "../../migrations/streets-api/postgres",
        sqlite: "../../migrations/streets-api/sqlite",
        extensions: &["postgis", "pg_trgm"],
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

/// The streets of an import, batch by batch, as a file is read.
#[async_trait]
pub trait StreetBatches: Send {
    /// The next streets (in file order); `Ok(None)` once every street has been given and the
    /// source is complete and valid; an error when it is not, which rolls the import back.
    async fn next_batch(&mut self) -> StoreResult<Option<Vec<ImportedStreet>>>;
}

/// The streets of a slice, a few thousand at a time.
struct SliceBatches<'a>(std::slice::Chunks<'a, ImportedStreet>);

#[async_trait]
impl StreetBatches for SliceBatches<'_> {
    async fn next_batch(&mut self) -> StoreResult<Option<Vec<ImportedStreet>>> {
        Ok(self.0.next().map(<[ImportedStreet]>::to_vec))
    }
}

/// Every street of one import, read in one snapshot: what a read model is built from.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetSnapshot {
    /// The import generation the streets belong to.
    pub generation: i64,
    /// How many streets that import holds.
    pub total: u64,
    /// The streets by ascending number; empty when `total` exceeded the limit asked for.
    pub streets: Vec<StoredStreet>,
}

/// Street storage in domain terms. Failures are [`StoreError`]s: an unreachable or restarting
/// database is `Unavailable`, which the API answers with 503.
#[async_trait]
pub trait StreetStore: Send + Sync {
    /// The street with this `I_GM_U`.
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Feature>>;
    /// The street with this database id.
    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Feature>>;
    /// Streets matching the query: by distance when a point is given, else by name match rank
    /// (whole name, name prefix, word prefix, then folded name in code-point order), else by
    /// street number; ties by street number.
    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Feature>>;
    /// The answer of [`find_streets`](Self::find_streets) as one JSON array, which is what the
    /// API sends (the read model writes it straight from its buffer).
    async fn find_streets_json(&self, query: &StreetQuery) -> StoreResult<Bytes> {
        Ok(Feature::array(&self.find_streets(query).await?))
    }
    /// Replaces the whole data set in one transaction, keeping each street's id for the same
    /// number. Either everything is replaced or nothing changes.
    async fn replace_all_streets(&self, streets: &[ImportedStreet]) -> StoreResult<ImportSummary> {
        self.import_streets(&mut SliceBatches(
            streets.chunks(streets_import::DEFAULT_BATCH_SIZE),
        ))
        .await
    }
    /// Replaces the whole data set with the streets `batches` gives, written as they come into
    /// a table that takes the old one's place when the last has been written, in one
    /// transaction: readers see the old streets or the new ones, never a mix, and an error
    /// (of the batches or of the database), or the process dying, changes nothing. Each
    /// street keeps its id for the same number. Memory is a batch or two, whatever the total.
    async fn import_streets(&self, batches: &mut dyn StreetBatches) -> StoreResult<ImportSummary>;
    /// A page of the features API's items: the streets passing the query's filters, by
    /// number.
    async fn collection_items(&self, query: &ItemsQuery) -> StoreResult<ItemsPage>;
    /// The bounding box `[west, south, east, north]` of every street; `None` without streets.
    async fn dataset_extent(&self) -> StoreResult<Option<BBox>>;
    /// How many streets are stored.
    async fn count_streets(&self) -> StoreResult<u64>;
    /// A number that changes with every import (bumped in the import's transaction).
    async fn dataset_generation(&self) -> StoreResult<i64>;
    /// The generation and, when there are at most `at_most` streets, every street, read in one
    /// snapshot (so the streets are exactly those of that generation).
    async fn dataset_snapshot(&self, at_most: u64) -> StoreResult<DatasetSnapshot>;
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

/// The page of `query` out of `candidates` (streets that may pass its filters, in any order):
/// the database backends' way to answer [`StreetStore::collection_items`] with a filter.
pub(crate) fn filtered_page(
    mut candidates: Vec<StoredStreet>,
    query: &ItemsQuery,
) -> StoreResult<ItemsPage> {
    candidates.retain(|s| {
        query.name.as_deref().is_none_or(|n| s.name_folded == n)
            && query
                .bbox
                .as_ref()
                .is_none_or(|b| b.intersects(s.lines.iter().map(Vec::as_slice)))
    });
    candidates.sort_by_key(|s| s.number);
    let matched = candidates.len() as u64;
    let page = candidates
        .into_iter()
        .skip(query.offset as usize)
        .take(query.limit as usize);
    let mut out = page_of(page)?;
    out.matched = matched;
    Ok(out)
}

/// The features of `streets`, in order, as a page (its `matched` left 0).
pub(crate) fn page_of(streets: impl IntoIterator<Item = StoredStreet>) -> StoreResult<ItemsPage> {
    let mut page = ItemsPage::default();
    for s in streets {
        let feature =
            Feature::from_lines(&s.id, s.number, &s.name, &s.lines).map_err(feature_error)?;
        page.push(s.number, feature.as_bytes());
    }
    Ok(page)
}

/// A backend's row of a street as served.
pub(crate) trait FeatureRow {
    /// The street as its feature.
    fn feature(&self) -> StoreResult<Feature>;
}

/// A feature that could not be serialised is a storage fault (500), never the client's.
pub(crate) fn feature_error(err: serde_json::Error) -> StoreError {
    StoreError::Other(anyhow::Error::new(err).context("serialising a stored street"))
}
