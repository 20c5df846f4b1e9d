//! A read cache for single-street lookups.
//!
//! Streets change only when the city's file is imported, which may happen in another process
//! (`streets-api import`, a Kubernetes Job). Every import bumps `dataset.generation` in its own
//! transaction; the cache compares that number at most once per `max_staleness` and drops
//! everything when it moved. So a lookup is served from memory, and after an import elsewhere a
//! replica serves the old street for at most `max_staleness`. Searches are not cached.

use async_trait::async_trait;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use streets_import::ImportedStreet;

use super::{ImportSummary, StoreResult, StreetStore};
use crate::model::{Street, StreetQuery};

/// `cache.*` settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSettings {
    /// Most streets kept in memory (0 disables the cache). When full the cache starts over.
    pub max_entries: usize,
    /// How long a replica may serve a street after another process imported a new data set.
    pub max_staleness_millis: u64,
}

/// Lookup counters, for metrics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
}

struct State {
    generation: Option<i64>,
    checked_at: Option<Instant>,
    by_number: HashMap<i64, Arc<Street>>,
    by_id: HashMap<String, Arc<Street>>,
}

/// A [`StreetStore`] that keeps looked-up streets in memory.
pub struct CachedStreets {
    inner: Arc<dyn StreetStore>,
    settings: CacheSettings,
    state: RwLock<State>,
    refreshing: tokio::sync::Mutex<()>,
    hits: AtomicU64,
    misses: AtomicU64,
}

enum Key<'a> {
    Number(i64),
    Id(&'a str),
}

impl CachedStreets {
    pub fn new(inner: Arc<dyn StreetStore>, settings: CacheSettings) -> Self {
        Self {
            inner,
            settings,
            state: RwLock::new(State {
                generation: None,
                checked_at: None,
                by_number: HashMap::new(),
                by_id: HashMap::new(),
            }),
            refreshing: tokio::sync::Mutex::new(()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Hits and misses so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }

    fn is_stale(&self) -> bool {
        let max = Duration::from_millis(self.settings.max_staleness_millis);
        self.state
            .read()
            .map(|s| s.checked_at.is_none_or(|t| t.elapsed() >= max))
            .unwrap_or(true)
    }

    /// Re-reads the generation when the last check is too old; one caller refreshes while the
    /// others keep using what is cached.
    async fn revalidate(&self) -> StoreResult<()> {
        if !self.is_stale() {
            return Ok(());
        }
        let Ok(_guard) = self.refreshing.try_lock() else {
            return Ok(());
        };
        if !self.is_stale() {
            return Ok(());
        }
        let generation = self.inner.dataset_generation().await?;
        if let Ok(mut state) = self.state.write() {
            if state.generation != Some(generation) {
                state.by_number.clear();
                state.by_id.clear();
                state.generation = Some(generation);
            }
            state.checked_at = Some(Instant::now());
        }
        Ok(())
    }

    fn cached(&self, key: &Key<'_>) -> Option<Arc<Street>> {
        let state = self.state.read().ok()?;
        let found = match key {
            Key::Number(n) => state.by_number.get(n).cloned(),
            Key::Id(id) => state.by_id.get(*id).cloned(),
        };
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    fn remember(&self, street: &Street, generation: Option<i64>) {
        if self.settings.max_entries == 0 {
            return;
        }
        let Ok(mut state) = self.state.write() else {
            return;
        };
        // A street read while an import elsewhere committed may be older than the generation
        // checked next; only keep it when no newer generation was seen in between.
        if state.generation != generation {
            return;
        }
        if state.by_number.len() >= self.settings.max_entries {
            state.by_number.clear();
            state.by_id.clear();
        }
        let street = Arc::new(street.clone());
        state.by_id.insert(street.id.clone(), street.clone());
        state.by_number.insert(street.number, street);
    }

    async fn lookup(&self, key: Key<'_>) -> StoreResult<Option<Street>> {
        if self.settings.max_entries == 0 {
            return match key {
                Key::Number(n) => self.inner.street_by_number(n).await,
                Key::Id(id) => self.inner.street_by_id(id).await,
            };
        }
        self.revalidate().await?;
        if let Some(street) = self.cached(&key) {
            return Ok(Some(Street::clone(&street)));
        }
        let generation = self.state.read().ok().and_then(|s| s.generation);
        let found = match key {
            Key::Number(n) => self.inner.street_by_number(n).await?,
            Key::Id(id) => self.inner.street_by_id(id).await?,
        };
        if let Some(street) = &found {
            self.remember(street, generation);
        }
        Ok(found)
    }
}

#[async_trait]
impl StreetStore for CachedStreets {
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Street>> {
        self.lookup(Key::Number(number)).await
    }

    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Street>> {
        self.lookup(Key::Id(id)).await
    }

    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Street>> {
        self.inner.find_streets(query).await
    }

    async fn replace_all_streets(&self, streets: &[ImportedStreet]) -> StoreResult<ImportSummary> {
        let summary = self.inner.replace_all_streets(streets).await?;
        if let Ok(mut state) = self.state.write() {
            state.checked_at = None; // revalidate on the next lookup
        }
        Ok(summary)
    }

    async fn count_streets(&self) -> StoreResult<u64> {
        self.inner.count_streets().await
    }

    async fn dataset_generation(&self) -> StoreResult<i64> {
        self.inner.dataset_generation().await
    }
}
