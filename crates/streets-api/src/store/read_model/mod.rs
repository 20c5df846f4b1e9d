//! The read model: each replica answers every street read from memory, with the database as
//! the source of truth.
//!
//! Streets change only on import, which may run in another process (`streets-api import`, a
//! Kubernetes Job); every import bumps `dataset.generation` in its own transaction. A replica
//! holds at most one [`Model`]: every street of one generation, read in one snapshot.
//!
//! **Staleness bound.** A read uses the model only if (a) a check that *started* less than
//! `cache.max_staleness_millis` ago read the database's generation, and (b) the model is of that
//! generation. Otherwise the read first checks (one check at a time; the others wait for it, so
//! none serves from memory on an expired check). An import committed at time T is therefore
//! seen by every read that starts after T + max_staleness: such a read needs a check started
//! after T, which reads the new generation. A check that sees a new generation drops the model
//! at once and starts a rebuild in the background.
//!
//! **While a model is missing** (before the first is built, during a rebuild, after a failed
//! build) reads go to the database: the answers are the same, only slower, and never older than
//! the bound. `/readyz` answers `not ready: streets` until the first model is built, so a new
//! replica gets traffic only once it answers from memory; a rebuild after an import keeps the
//! replica ready. A data set larger than `cache.max_entries` is served from the database.
//! An import through this process rebuilds before it returns, so it is seen at once.

mod build;
mod model;
mod names;
mod radius;
#[cfg(test)]
mod tests;

use actix_web::web::Bytes;
use async_trait::async_trait;
use serde::Deserialize;
use service_kit::health::ReadinessCheck;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use streets_import::ImportedStreet;

use super::{DatasetSnapshot, ImportSummary, StoreError, StoreResult, StreetStore};
use crate::model::{Feature, StreetQuery};
use build::{build_until_current, spawn_build, FirstModel};
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

/// Counters and the model held, for metrics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ReadStats {
    /// Reads answered from the model.
    pub memory: u64,
    /// Reads answered by the database.
    pub database: u64,
    /// Models built (including the first).
    pub builds: u64,
    /// Builds that failed.
    pub failed_builds: u64,
    /// Streets in the model held now (0 when none).
    pub streets: u64,
}

/// What a replica holds.
enum Held {
    Nothing,
    Model(Arc<Model>),
    /// The generation's data set is larger than `cache.max_entries`: served from the database.
    TooLarge(i64),
}

impl Held {
    fn generation(&self) -> Option<i64> {
        match self {
            Self::Nothing => None,
            Self::Model(model) => Some(model.generation()),
            Self::TooLarge(generation) => Some(*generation),
        }
    }
}

struct State {
    held: Held,
    /// The newest generation a check or a snapshot read.
    latest: Option<i64>,
    /// When the read of `latest` that is still valid started.
    checked_at: Option<Instant>,
}

struct Shared {
    inner: Arc<dyn StreetStore>,
    settings: CacheSettings,
    state: RwLock<State>,
    check: tokio::sync::Mutex<()>,
    build: tokio::sync::Mutex<()>,
    building: AtomicBool,
    first_built: AtomicBool,
    memory: AtomicU64,
    database: AtomicU64,
    builds: AtomicU64,
    failed_builds: AtomicU64,
    runtime: tokio::runtime::Handle,
}

/// A [`StreetStore`] that answers reads from the replica's read model (module docs).
pub struct ReadModelStreets {
    shared: Arc<Shared>,
}

impl ReadModelStreets {
    /// Wraps the database's store. Background builds run on the current Tokio runtime.
    pub fn new(inner: Arc<dyn StreetStore>, settings: CacheSettings) -> Self {
        let disabled = settings.max_entries == 0;
        Self {
            shared: Arc::new(Shared {
                inner,
                settings,
                state: RwLock::new(State {
                    held: Held::Nothing,
                    latest: None,
                    checked_at: None,
                }),
                check: tokio::sync::Mutex::new(()),
                build: tokio::sync::Mutex::new(()),
                building: AtomicBool::new(false),
                first_built: AtomicBool::new(disabled),
                memory: AtomicU64::new(0),
                database: AtomicU64::new(0),
                builds: AtomicU64::new(0),
                failed_builds: AtomicU64::new(0),
                runtime: tokio::runtime::Handle::current(),
            }),
        }
    }

    /// Starts building the first model in the background.
    pub fn start(&self) {
        if !self.shared.disabled() {
            spawn_build(&self.shared);
        }
    }

    /// Builds a model of the database's current generation now, unless one is held (also what
    /// the readiness check does before the first model exists).
    pub async fn build_now(&self) -> StoreResult<()> {
        let shared = self.shared.clone();
        self.shared
            .runtime
            .spawn(async move { build_until_current(&shared).await })
            .await
            .map_err(|e| StoreError::Other(anyhow::Error::new(e).context("model build")))?
    }

    /// The generation of the model held, if any.
    pub fn model_generation(&self) -> Option<i64> {
        match &self.shared.read_state().ok()?.held {
            Held::Model(model) => Some(model.generation()),
            _ => None,
        }
    }

    pub fn stats(&self) -> ReadStats {
        let s = &self.shared;
        let streets = match s.read_state().map(|st| match &st.held {
            Held::Model(model) => model.len(),
            _ => 0,
        }) {
            Ok(n) => u64::try_from(n).unwrap_or(u64::MAX),
            Err(_) => 0,
        };
        ReadStats {
            memory: s.memory.load(Ordering::Relaxed),
            database: s.database.load(Ordering::Relaxed),
            builds: s.builds.load(Ordering::Relaxed),
            failed_builds: s.failed_builds.load(Ordering::Relaxed),
            streets,
        }
    }

    /// `/readyz`'s `streets` check: not ready while the first model is being built (the check
    /// builds it if none is; the build goes on if the check times out). A build that fails does
    /// not hold readiness: the database and schema checks say why, or the log and the metrics
    /// do, and reads go to the database.
    pub fn readiness(&self) -> Arc<dyn ReadinessCheck> {
        Arc::new(FirstModel(Self {
            shared: self.shared.clone(),
        }))
    }

    /// The model to answer from, or `None` to answer from the database (module docs).
    async fn current(&self) -> StoreResult<Option<Arc<Model>>> {
        let s = &self.shared;
        if s.disabled() {
            return Ok(None);
        }
        if let Some(answer) = s.fresh() {
            return Ok(answer);
        }
        let _check = s.check.lock().await;
        if let Some(answer) = s.fresh() {
            return Ok(answer);
        }
        let started = Instant::now();
        let generation = s.inner.dataset_generation().await?;
        let current = {
            let mut state = s.write_state()?;
            state.latest = Some(generation);
            state.checked_at = Some(started);
            match &state.held {
                Held::Model(model) if model.generation() == generation => Some(Some(model.clone())),
                Held::TooLarge(held) if *held == generation => Some(None),
                _ => {
                    state.held = Held::Nothing;
                    None
                }
            }
        };
        match current {
            Some(answer) => Ok(answer),
            None => {
                spawn_build(s);
                Ok(None)
            }
        }
    }

    fn counted<T>(&self, counter: &AtomicU64, value: T) -> T {
        counter.fetch_add(1, Ordering::Relaxed);
        value
    }
}

impl Shared {
    fn disabled(&self) -> bool {
        self.settings.max_entries == 0
    }

    fn read_state(&self) -> StoreResult<std::sync::RwLockReadGuard<'_, State>> {
        self.state.read().map_err(|_| poisoned())
    }

    fn write_state(&self) -> StoreResult<std::sync::RwLockWriteGuard<'_, State>> {
        self.state.write().map_err(|_| poisoned())
    }

    /// `Some(model or None)` while the last check is within the staleness bound; `None` when
    /// a check is due.
    fn fresh(&self) -> Option<Option<Arc<Model>>> {
        let state = self.state.read().ok()?;
        let checked_at = state.checked_at?;
        if checked_at.elapsed() >= Duration::from_millis(self.settings.max_staleness_millis) {
            return None;
        }
        Some(match &state.held {
            Held::Model(model) if state.latest == Some(model.generation()) => Some(model.clone()),
            _ => None,
        })
    }
}

fn poisoned() -> StoreError {
    StoreError::Other(anyhow::anyhow!("the read model's lock is poisoned"))
}

#[async_trait]
impl StreetStore for ReadModelStreets {
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Feature>> {
        match self.current().await? {
            Some(model) => Ok(self.counted(&self.shared.memory, model.by_number(number))),
            None => {
                self.counted(
                    &self.shared.database,
                    self.shared.inner.street_by_number(number),
                )
                .await
            }
        }
    }

    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Feature>> {
        match self.current().await? {
            Some(model) => Ok(self.counted(&self.shared.memory, model.by_id(id))),
            None => {
                self.counted(&self.shared.database, self.shared.inner.street_by_id(id))
                    .await
            }
        }
    }

    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Feature>> {
        match self.current().await? {
            Some(model) => Ok(self.counted(&self.shared.memory, model.find(query))),
            None => {
                self.counted(&self.shared.database, self.shared.inner.find_streets(query))
                    .await
            }
        }
    }

    async fn find_streets_json(&self, query: &StreetQuery) -> StoreResult<Bytes> {
        match self.current().await? {
            Some(model) => Ok(self.counted(&self.shared.memory, model.find_json(query))),
            None => {
                self.counted(
                    &self.shared.database,
                    self.shared.inner.find_streets_json(query),
                )
                .await
            }
        }
    }

    async fn replace_all_streets(&self, streets: &[ImportedStreet]) -> StoreResult<ImportSummary> {
        let summary = self.shared.inner.replace_all_streets(streets).await?;
        if self.shared.disabled() {
            return Ok(summary);
        }
        // Record the generation this import produced, so that a build of an older snapshot
        // still in flight (the start-up build, say) is discarded rather than installed; until
        // the new model is built, reads go to the database (which has the import).
        let started = Instant::now();
        let generation = self.shared.inner.dataset_generation().await;
        {
            let mut state = self.shared.write_state()?;
            state.held = Held::Nothing;
            match generation {
                Ok(generation) => {
                    state.latest = state.latest.max(Some(generation));
                    state.checked_at = Some(started);
                }
                Err(_) => state.checked_at = None,
            }
        }
        if let Err(err) = self.build_now().await {
            tracing::warn!(error = format!("{err:#}"), "rebuilding the streets read model after an import failed; reads go to the database");
        }
        Ok(summary)
    }

    async fn count_streets(&self) -> StoreResult<u64> {
        self.shared.inner.count_streets().await
    }

    async fn dataset_generation(&self) -> StoreResult<i64> {
        self.shared.inner.dataset_generation().await
    }

    async fn dataset_snapshot(&self, at_most: u64) -> StoreResult<DatasetSnapshot> {
        self.shared.inner.dataset_snapshot(at_most).await
    }
}
