//! The read model: each replica answers every street read from memory, with the database as
//! the source of truth.
//!
//! Streets change only on import, which may run in another process (`streets-api import`, a
//! Kubernetes Job); every import bumps `dataset.generation` in its own transaction. A replica
//! holds at most one [`Model`]: every street of one generation, read in one snapshot.
//!
//! **Staleness bound** (`service_kit::read_model`, which holds the model): a read uses the
//! model only if a check that *started* less than `cache.max_staleness_millis` ago read the
//! database's generation and the model is of that generation, so an import committed at time T
//! is seen by every read that starts after T + max_staleness. A check that sees a new
//! generation drops the model at once and starts a rebuild in the background.
//!
//! **While a model is missing** (before the first is built, during a rebuild, after a failed
//! build) reads go to the database: the answers are the same, only slower, and never older than
//! the bound. `/readyz` answers `not ready: streets` until the first model is built, so a new
//! replica gets traffic only once it answers from memory; a rebuild after an import keeps the
//! replica ready. A data set larger than `cache.max_entries` is served from the database.
//! An import through this process rebuilds before it returns, so it is seen at once.

mod model;
mod names;
mod radius;
#[cfg(test)]
mod tests;

use actix_web::web::Bytes;
use async_trait::async_trait;
use serde::Deserialize;
use service_kit::health::ReadinessCheck;
use service_kit::metrics::Metrics;
use service_kit::read_model::{ModelSource, ReadModel};
use std::sync::Arc;
use std::time::Duration;

use super::{DatasetSnapshot, ImportSummary, StoreError, StoreResult, StreetBatches, StreetStore};
use crate::model::{Feature, ItemsPage, ItemsQuery, StreetQuery};
use domain::geo::BBox;
use model::Model;

/// `cache.*` settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSettings {
    /// Most streets a replica holds in memory; a larger data set is served from the database
    /// (0: every read goes to the database).
    pub max_entries: usize,
    /// How long a replica may answer from memory without confirming the import generation: an
    /// import by another process is seen within this time.
    pub max_staleness_millis: u64,
}

/// Builds [`Model`]s from the database's store.
struct StreetsSource {
    inner: Arc<dyn StreetStore>,
    max_entries: usize,
}

#[async_trait]
impl ModelSource for StreetsSource {
    type Model = Model;

    fn name(&self) -> &'static str {
        "streets"
    }

    async fn generation(&self) -> anyhow::Result<i64> {
        Ok(self.inner.dataset_generation().await?)
    }

    async fn build(&self) -> anyhow::Result<(i64, Option<Model>)> {
        let at_most = u64::try_from(self.max_entries).unwrap_or(u64::MAX);
        let snapshot: DatasetSnapshot = self.inner.dataset_snapshot(at_most).await?;
        let generation = snapshot.generation;
        if snapshot.total > at_most {
            tracing::warn!(
                streets = snapshot.total,
                max_entries = at_most,
                "more streets than cache.max_entries: reads go to the database"
            );
            return Ok((generation, None));
        }
        let model = tokio::task::spawn_blocking(move || Model::build(snapshot)).await??;
        tracing::info!(
            streets = model.len(),
            generation,
            "streets read model built"
        );
        Ok((generation, Some(model)))
    }
}

/// A [`StreetStore`] that answers reads from the replica's read model (module docs).
pub struct ReadModelStreets {
    inner: Arc<dyn StreetStore>,
    /// `None` when `cache.max_entries` is 0: every read goes to the database.
    model: Option<ReadModel<StreetsSource>>,
}

impl ReadModelStreets {
    /// Wraps the database's store. Background builds run on the current Tokio runtime.
    pub fn new(inner: Arc<dyn StreetStore>, settings: CacheSettings) -> Self {
        let model = (settings.max_entries > 0).then(|| {
            let source = StreetsSource {
                inner: inner.clone(),
                max_entries: settings.max_entries,
            };
            ReadModel::new(source, Duration::from_millis(settings.max_staleness_millis))
        });
        Self { inner, model }
    }

    /// Starts building the first model in the background.
    pub fn start(&self) {
        if let Some(model) = &self.model {
            model.start();
        }
    }

    /// Builds a model of the database's current generation now, unless one is held.
    pub async fn build_now(&self) -> StoreResult<()> {
        match &self.model {
            Some(model) => model.build_now().await.map_err(StoreError::from_anyhow),
            None => Ok(()),
        }
    }

    /// The generation of the model held, if any.
    pub fn model_generation(&self) -> Option<i64> {
        self.model.as_ref()?.model_generation()
    }

    /// `/readyz`'s `streets` check: not ready while the first model is being built (the check
    /// builds it if none is; the build goes on if the check times out). A build that fails does
    /// not hold readiness: the database and schema checks say why, or the log and the metrics
    /// do, and reads go to the database. `None` when no model is kept.
    pub fn readiness(&self) -> Option<Arc<dyn ReadinessCheck>> {
        self.model.as_ref().map(ReadModel::readiness)
    }

    /// `streets_reads_total{source}`, `streets_read_model_builds_total{outcome}` and
    /// `streets_read_model_streets`, brought up to date at every scrape.
    pub fn watch(&self, metrics: &Metrics) -> anyhow::Result<()> {
        let Some(model) = self.model.clone() else {
            return Ok(());
        };
        model.watch(metrics)?;
        let streets = metrics.gauge(
            "streets_read_model_streets",
            "Streets in the read model this replica holds (0: none, reads go to the database)",
        )?;
        metrics.add_collector(move |_| {
            let held = model.held().map_or(0, |m| m.len());
            streets.set(i64::try_from(held).unwrap_or(i64::MAX));
        });
        Ok(())
    }

    /// The model to answer from, or `None` (counted) to answer from the database.
    async fn current(&self) -> StoreResult<Option<Arc<Model>>> {
        let Some(model) = &self.model else {
            return Ok(None);
        };
        let current = model.current().await.map_err(StoreError::from_anyhow)?;
        if current.is_none() {
            model.count_database_read();
        }
        Ok(current)
    }
}

#[async_trait]
impl StreetStore for ReadModelStreets {
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Feature>> {
        match self.current().await? {
            Some(model) => Ok(model.by_number(number)),
            None => self.inner.street_by_number(number).await,
        }
    }

    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Feature>> {
        match self.current().await? {
            Some(model) => Ok(model.by_id(id)),
            None => self.inner.street_by_id(id).await,
        }
    }

    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Feature>> {
        match self.current().await? {
            Some(model) => Ok(model.find(query)),
            None => self.inner.find_streets(query).await,
        }
    }

    async fn find_streets_json(&self, query: &StreetQuery) -> StoreResult<Bytes> {
        match self.current().await? {
            Some(model) => Ok(model.find_json(query)),
            None => self.inner.find_streets_json(query).await,
        }
    }

    async fn collection_items(&self, query: &ItemsQuery) -> StoreResult<ItemsPage> {
        match self.current().await? {
            Some(model) => Ok(model.items(query)),
            None => self.inner.collection_items(query).await,
        }
    }

    async fn dataset_extent(&self) -> StoreResult<Option<BBox>> {
        match self.current().await? {
            Some(model) => Ok(model.extent()),
            None => self.inner.dataset_extent().await,
        }
    }

    async fn import_streets(&self, batches: &mut dyn StreetBatches) -> StoreResult<ImportSummary> {
        let summary = self.inner.import_streets(batches).await?;
        if let Some(model) = &self.model {
            // The model is dropped (a build of an older snapshot still in flight is discarded
            // rather than installed) and rebuilt before the import answers, so it is seen at
            // once; if the build fails reads go to the database, which has the import.
            model.written().await;
            if let Err(err) = model.build_now().await {
                tracing::warn!(error = format!("{err:#}"), "rebuilding the streets read model after an import failed; reads go to the database");
            }
        }
        Ok(summary)
    }

    async fn count_streets(&self) -> StoreResult<u64> {
        self.inner.count_streets().await
    }

    async fn dataset_generation(&self) -> StoreResult<i64> {
        self.inner.dataset_generation().await
    }

    async fn dataset_snapshot(&self, at_most: u64) -> StoreResult<DatasetSnapshot> {
        self.inner.dataset_snapshot(at_most).await
    }
}
