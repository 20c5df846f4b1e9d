//! A per-replica read model of data that changes rarely, with the database as the source of
//! truth: the replica answers reads from memory and rebuilds when the data's *generation* (a
//! number the database moves with every committed change) moves.
//!
//! **Staleness bound.** A read uses the model only if (a) a check that *started* less than
//! `max_staleness` ago read the database's generation, and (b) the model is of that generation.
//! Otherwise the read first checks (one check at a time; the others wait for it, so none serves
//! from memory on an expired check). A change committed at time T is therefore seen by every
//! read that starts after T + max_staleness: such a read needs a check started after T, which
//! reads the new generation. A check that sees a new generation drops the model at once and
//! starts a rebuild in the background.
//!
//! **While a model is missing** (before the first is built, during a rebuild, after a failed
//! build, or when the data is larger than the source will hold) [`ReadModel::current`] answers
//! `None` and the caller reads the database: the answers are the same, only slower, and never
//! older than the bound. [`ReadModel::readiness`] holds readiness until the first build ended.
//! A write through this process calls [`ReadModel::written`]: the model is dropped before the
//! write's answer, so the writer's next read already sees the change.

mod build;

use async_trait::async_trait;
use build::{build_until_current, spawn_build, FirstModel};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use crate::health::ReadinessCheck;
use crate::metrics::Metrics;

/// Where a read model comes from: the database's generation and a build of one snapshot.
#[async_trait]
pub trait ModelSource: Send + Sync + 'static {
    type Model: Send + Sync + 'static;

    /// The model's name in logs and in `/readyz` (`news`).
    fn name(&self) -> &'static str;

    /// The generation the database is at now.
    async fn generation(&self) -> anyhow::Result<i64>;

    /// Reads one snapshot and builds its model: the snapshot's generation, and the model, or
    /// `None` when the data is larger than a replica holds (reads then go to the database).
    async fn build(&self) -> anyhow::Result<(i64, Option<Self::Model>)>;
}

/// Counters of one read model, for metrics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ModelStats {
    /// Reads answered from the model.
    pub memory: u64,
    /// Reads answered by the database.
    pub database: u64,
    /// Models built (including the first).
    pub builds: u64,
    /// Builds that failed.
    pub failed_builds: u64,
}

enum Held<M> {
    Nothing,
    Model(i64, Arc<M>),
    /// The generation's data is larger than a replica holds: served from the database.
    TooLarge(i64),
}

impl<M> Held<M> {
    fn generation(&self) -> Option<i64> {
        match self {
            Self::Nothing => None,
            Self::Model(generation, _) | Self::TooLarge(generation) => Some(*generation),
        }
    }
}

struct State<M> {
    held: Held<M>,
    /// The newest generation a check or a snapshot read.
    latest: Option<i64>,
    /// When the read of `latest` that is still valid started.
    checked_at: Option<Instant>,
}

struct Shared<S: ModelSource> {
    source: S,
    max_staleness: Duration,
    state: RwLock<State<S::Model>>,
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

/// One replica's read model of `S` (module docs).
pub struct ReadModel<S: ModelSource> {
    shared: Arc<Shared<S>>,
}

impl<S: ModelSource> Clone for ReadModel<S> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<S: ModelSource> ReadModel<S> {
    /// A read model with none built yet. Background builds run on the current Tokio runtime.
    pub fn new(source: S, max_staleness: Duration) -> Self {
        Self {
            shared: Arc::new(Shared {
                source,
                max_staleness,
                state: RwLock::new(State {
                    held: Held::Nothing,
                    latest: None,
                    checked_at: None,
                }),
                check: tokio::sync::Mutex::new(()),
                build: tokio::sync::Mutex::new(()),
                building: AtomicBool::new(false),
                first_built: AtomicBool::new(false),
                memory: AtomicU64::new(0),
                database: AtomicU64::new(0),
                builds: AtomicU64::new(0),
                failed_builds: AtomicU64::new(0),
                runtime: tokio::runtime::Handle::current(),
            }),
        }
    }

    /// The source the model is built from.
    pub fn source(&self) -> &S {
        &self.shared.source
    }

    /// Starts building the first model in the background.
    pub fn start(&self) {
        spawn_build(&self.shared);
    }

    /// Builds a model of the database's current generation now, unless one is held.
    pub async fn build_now(&self) -> anyhow::Result<()> {
        let shared = self.shared.clone();
        self.shared
            .runtime
            .spawn(async move { build_until_current(&shared).await })
            .await?
    }

    /// The generation of the model held, if any.
    pub fn model_generation(&self) -> Option<i64> {
        match &self.shared.state.read().ok()?.held {
            Held::Model(generation, _) => Some(*generation),
            _ => None,
        }
    }

    /// The model held, if any, whatever its age (for gauges; reads use [`Self::current`]).
    pub fn held(&self) -> Option<Arc<S::Model>> {
        match &self.shared.state.read().ok()?.held {
            Held::Model(_, model) => Some(model.clone()),
            _ => None,
        }
    }

    pub fn stats(&self) -> ModelStats {
        let s = &self.shared;
        ModelStats {
            memory: s.memory.load(Ordering::Relaxed),
            database: s.database.load(Ordering::Relaxed),
            builds: s.builds.load(Ordering::Relaxed),
            failed_builds: s.failed_builds.load(Ordering::Relaxed),
        }
    }

    /// Registers `<name>_reads_total{source="memory"|"database"}` and
    /// `<name>_read_model_builds_total{outcome="ok"|"failed"}`, filled at every scrape.
    pub fn watch(&self, metrics: &Metrics) -> anyhow::Result<()> {
        let name = self.shared.source.name();
        let reads = metrics.counter_vec(
            format!("{name}_reads_total"),
            format!("Reads of the {name} read model by where they were answered from"),
            "source",
        )?;
        let builds = metrics.counter_vec(
            format!("{name}_read_model_builds_total"),
            format!("Builds of the {name} read model by outcome"),
            "outcome",
        )?;
        let model = self.clone();
        metrics.add_collector(move |_| {
            let stats = model.stats();
            let counters = [
                (&reads, "memory", stats.memory),
                (&reads, "database", stats.database),
                (&builds, "ok", stats.builds),
                (&builds, "failed", stats.failed_builds),
            ];
            for (vec, label, total) in counters {
                let counter = vec.with_label_values(&[label]);
                counter.inc_by(total.saturating_sub(counter.get()));
            }
        });
        Ok(())
    }

    /// Counts a read answered by the database (the caller's fallback when `current` was `None`).
    pub fn count_database_read(&self) {
        self.shared.database.fetch_add(1, Ordering::Relaxed);
    }

    /// A readiness check named after the model: not ready until the first build ended (the
    /// check builds it if none is). A build that fails does not hold readiness: reads go to the
    /// database, and the log and the metrics say why.
    pub fn readiness(&self) -> Arc<dyn ReadinessCheck> {
        Arc::new(FirstModel(self.clone()))
    }

    /// The model to answer from, or `None` to answer from the database (module docs).
    pub async fn current(&self) -> anyhow::Result<Option<Arc<S::Model>>> {
        let s = &self.shared;
        let answer = match s.fresh() {
            Some(answer) => answer,
            None => self.check().await?,
        };
        if answer.is_some() {
            s.memory.fetch_add(1, Ordering::Relaxed);
        }
        Ok(answer)
    }

    async fn check(&self) -> anyhow::Result<Option<Arc<S::Model>>> {
        let s = &self.shared;
        let _check = s.check.lock().await;
        if let Some(answer) = s.fresh() {
            return Ok(answer);
        }
        let started = Instant::now();
        let generation = s.source.generation().await?;
        let current = {
            let mut state = s.write_state()?;
            // A write through this process (`written`) may have seen a newer generation while
            // this read was under way: what it read then is older news and changes nothing
            // (taking `latest` back would let a build of the older snapshot be installed as
            // current, and the writer would not see its write).
            if state.latest.is_none_or(|latest| generation >= latest) {
                state.latest = Some(generation);
                state.checked_at = Some(started);
            }
            let latest = state.latest;
            match &state.held {
                Held::Model(held, model) if Some(*held) == latest => Some(Some(model.clone())),
                Held::TooLarge(held) if Some(*held) == latest => Some(None),
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

    /// After a write through this process committed: drops the model (reads go to the database
    /// until a new one is built, so the writer sees its change) and starts a rebuild. A build
    /// of an older snapshot still in flight is discarded rather than installed.
    pub async fn written(&self) {
        let s = &self.shared;
        let started = Instant::now();
        let generation = s.source.generation().await;
        if let Ok(mut state) = s.state.write() {
            state.held = Held::Nothing;
            match generation {
                Ok(generation) => {
                    state.latest = state.latest.max(Some(generation));
                    state.checked_at = Some(started);
                }
                Err(_) => state.checked_at = None,
            }
        }
        spawn_build(s);
    }
}

impl<S: ModelSource> Shared<S> {
    fn read_state(&self) -> anyhow::Result<RwLockReadGuard<'_, State<S::Model>>> {
        self.state.read().map_err(|_| poisoned())
    }

    fn write_state(&self) -> anyhow::Result<RwLockWriteGuard<'_, State<S::Model>>> {
        self.state.write().map_err(|_| poisoned())
    }

    /// `Some(model or None)` while the last check is within the staleness bound; `None` when a
    /// check is due.
    fn fresh(&self) -> Option<Option<Arc<S::Model>>> {
        let state = self.state.read().ok()?;
        let checked_at = state.checked_at?;
        if checked_at.elapsed() >= self.max_staleness {
            return None;
        }
        Some(match &state.held {
            Held::Model(generation, model) if state.latest == Some(*generation) => {
                Some(model.clone())
            }
            _ => None,
        })
    }
}

fn poisoned() -> anyhow::Error {
    anyhow::anyhow!("the read model's lock is poisoned")
}
