//! An in-process read cache of client states for the read endpoints.
//!
//! A client's state (its revision and all its stored messages) changes only on writes; every
//! write increments `clients.revision` in its own transaction, so a revision names exactly one
//! state. The cache keeps `client_id → (revision, messages)` and serves it from memory while the
//! revision was confirmed less than `max_staleness` ago; after that, one reader per client asks
//! the database for the revision alone (cheap) and loads the messages only when it moved. Window
//! edges need no database access: the version's `windows_passed` part and the visible messages
//! are computed from the cached messages with the request's `now`.
//!
//! Staleness bound: the instant a revision is confirmed is taken *before* the query is sent, so a
//! cached state contains every write committed before that instant. A state is served only while
//! less than `max_staleness` has passed since then, so a write committed at `t` (by any replica)
//! is in every answer to a request that arrives after `t + max_staleness`. Writes made through
//! this process invalidate the client at once (before the write's answer is sent).

use quick_cache::sync::{Cache, EntryAction, EntryResult};
use serde::Deserialize;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{ClientState, MessageStore, StoreResult};

/// `cache.*` settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSettings {
    /// Most clients kept in memory (0 disables the cache: every read goes to the database);
    /// from 64 on, `quick_cache` splits it over its shards and rounds each share up.
    pub max_clients: usize,
    /// How long a replica may serve a client's state without confirming its revision, i.e. how
    /// long another replica's write may stay unseen here.
    pub max_staleness_millis: u64,
}

/// Lookup counters, for metrics.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    /// Served from memory without a database query.
    pub hits: u64,
    /// Served from memory after the revision was confirmed in the database.
    pub checked: u64,
    /// The state was loaded from the database.
    pub misses: u64,
    /// Clients held now.
    pub clients: u64,
}

#[derive(Clone)]
struct Entry {
    state: Arc<ClientState>,
    /// When the revision was last confirmed (taken before the query was sent); `None` after a
    /// local write, so the next read checks.
    checked_at: Option<Instant>,
}

impl Entry {
    /// Takes `state` if its revision is newer; for the same revision, keeps the later
    /// confirmation.
    fn update(&mut self, state: Arc<ClientState>, confirmed: Option<Instant>) {
        if state.revision > self.state.revision {
            *self = Entry {
                state,
                checked_at: confirmed,
            };
        } else if state.revision == self.state.revision {
            self.checked_at = match (self.checked_at, confirmed) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
        }
    }
}

/// Refreshes of one client run one at a time (striped locks keep this bounded).
const REFRESH_LOCKS: usize = 64;

/// The cache of client states (see the module documentation). The clients held and which to drop
/// when `max_clients` are held are `quick_cache`'s (S3-FIFO: clients read once go first).
pub struct ClientCache {
    store: Arc<dyn MessageStore>,
    max_clients: usize,
    max_staleness: Duration,
    entries: Cache<String, Entry>,
    refresh: Vec<tokio::sync::Mutex<()>>,
    /// Incremented by every local write, so a read that overlapped one does not mark its result
    /// as confirmed.
    writes: AtomicU64,
    hits: AtomicU64,
    checked: AtomicU64,
    misses: AtomicU64,
}

impl ClientCache {
    pub fn new(store: Arc<dyn MessageStore>, settings: &CacheSettings) -> Self {
        Self {
            store,
            max_clients: settings.max_clients,
            max_staleness: Duration::from_millis(settings.max_staleness_millis),
            entries: Cache::new(settings.max_clients),
            refresh: (0..REFRESH_LOCKS)
                .map(|_| tokio::sync::Mutex::new(()))
                .collect(),
            writes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            checked: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Counters so far and the number of clients held.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            checked: self.checked.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            clients: self.entries.len() as u64,
        }
    }

    /// The client's state, at most `max_staleness` old (see the module documentation).
    pub async fn client_state(&self, client_id: &str) -> StoreResult<Arc<ClientState>> {
        if self.max_clients == 0 {
            self.misses.fetch_add(1, Ordering::Relaxed);
            return Ok(Arc::new(self.store.client_state(client_id).await?));
        }
        if let Some(state) = self.fresh(client_id) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(state);
        }
        let _refreshing = self.refresh[stripe(client_id)].lock().await;
        // Another reader may have refreshed it while this one waited.
        if let Some(state) = self.fresh(client_id) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(state);
        }
        let writes = self.writes.load(Ordering::SeqCst);
        let started = Instant::now();
        if let Some(cached) = self.cached(client_id) {
            if self.store.client_revision(client_id).await? == cached.revision {
                self.remember(client_id, cached.clone(), started, writes);
                self.checked.fetch_add(1, Ordering::Relaxed);
                return Ok(cached);
            }
        }
        let state = Arc::new(self.store.client_state(client_id).await?);
        self.remember(client_id, state.clone(), started, writes);
        self.misses.fetch_add(1, Ordering::Relaxed);
        Ok(state)
    }

    /// After a write of `client_id` through this process committed: the next read checks the
    /// database.
    pub fn invalidate(&self, client_id: &str) {
        self.writes.fetch_add(1, Ordering::SeqCst);
        // A client not held needs nothing: the placeholder of `EntryResult::Vacant` is dropped.
        let _ = self.entries.entry(client_id, None, |_, entry| {
            entry.checked_at = None;
            EntryAction::Retain(())
        });
    }

    fn fresh(&self, client_id: &str) -> Option<Arc<ClientState>> {
        let entry = self.entries.get(client_id)?;
        let checked_at = entry.checked_at?;
        (checked_at.elapsed() < self.max_staleness).then_some(entry.state)
    }

    fn cached(&self, client_id: &str) -> Option<Arc<ClientState>> {
        self.entries.peek(client_id).map(|e| e.state)
    }

    /// Keeps `state`, read by a query sent at `started`. A state older than the one held is not
    /// kept; a state read while a local write happened is kept unconfirmed.
    fn remember(&self, client_id: &str, state: Arc<ClientState>, started: Instant, writes: u64) {
        // Read while the client's entry (or the placeholder of an absent one) is held, so an
        // `invalidate` of the client either counts here or clears the entry after this update.
        let confirmed = || (self.writes.load(Ordering::SeqCst) == writes).then_some(started);
        let held = self.entries.entry(client_id, None, |_, entry| {
            entry.update(state.clone(), confirmed());
            EntryAction::Retain(())
        });
        if let EntryResult::Vacant(placeholder) = held {
            let checked_at = confirmed();
            // Fails only when the placeholder was removed meanwhile; nothing removes one here.
            let _ = placeholder.insert(Entry { state, checked_at });
        }
    }
}

fn stripe(client_id: &str) -> usize {
    let mut hasher = DefaultHasher::new();
    client_id.hash(&mut hasher);
    (hasher.finish() % REFRESH_LOCKS as u64) as usize
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // test code

    use super::*;
    use crate::store::{Instant as At, MessageFields, StoredMessage};
    use async_trait::async_trait;
    use std::sync::Mutex;
    use uuid::Uuid;

    /// A store that only knows one revision per client and counts the reads.
    #[derive(Default)]
    struct Revisions {
        revision: Mutex<i64>,
        loads: AtomicU64,
        checks: AtomicU64,
    }

    #[async_trait]
    impl MessageStore for Revisions {
        async fn create_message(
            &self,
            _: &str,
            _: Uuid,
            _: &MessageFields,
            _: At,
        ) -> StoreResult<StoredMessage> {
            unimplemented!()
        }
        async fn update_message(
            &self,
            _: &str,
            _: Uuid,
            _: &MessageFields,
            _: At,
        ) -> StoreResult<Option<StoredMessage>> {
            unimplemented!()
        }
        async fn delete_message(&self, _: &str, _: Uuid, _: At) -> StoreResult<bool> {
            unimplemented!()
        }
        async fn get_message(&self, _: &str, _: Uuid) -> StoreResult<Option<StoredMessage>> {
            unimplemented!()
        }
        async fn client_state(&self, _: &str) -> StoreResult<ClientState> {
            self.loads.fetch_add(1, Ordering::SeqCst);
            Ok(ClientState {
                revision: *self.revision.lock().unwrap(),
                messages: Vec::new(),
            })
        }
        async fn client_revision(&self, _: &str) -> StoreResult<i64> {
            self.checks.fetch_add(1, Ordering::SeqCst);
            Ok(*self.revision.lock().unwrap())
        }
        async fn all_client_ids(&self) -> StoreResult<Vec<String>> {
            unimplemented!()
        }
        async fn clients_with_change_in(&self, _: At, _: At) -> StoreResult<Vec<String>> {
            unimplemented!()
        }
        async fn next_change_after(&self, _: At) -> StoreResult<Option<At>> {
            unimplemented!()
        }
    }

    fn cache(store: &Arc<Revisions>, max_clients: usize, millis: u64) -> ClientCache {
        let settings = CacheSettings {
            max_clients,
            max_staleness_millis: millis,
        };
        ClientCache::new(store.clone(), &settings)
    }

    fn counts(store: &Revisions) -> (u64, u64) {
        (
            store.loads.load(Ordering::SeqCst),
            store.checks.load(Ordering::SeqCst),
        )
    }

    #[tokio::test]
    async fn hits_checks_and_loads() {
        let store = Arc::new(Revisions::default());
        let cache = cache(&store, 10, 3_600_000);
        assert_eq!(cache.client_state("a").await.unwrap().revision, 0);
        *store.revision.lock().unwrap() = 1; // another replica wrote
        assert_eq!(cache.client_state("a").await.unwrap().revision, 0, "hit");
        assert_eq!(counts(&store), (1, 0));
        cache.invalidate("a"); // as after a local write
        assert_eq!(cache.client_state("a").await.unwrap().revision, 1);
        assert_eq!(counts(&store), (2, 1), "checked, moved, loaded");
        cache.invalidate("a");
        assert_eq!(cache.client_state("a").await.unwrap().revision, 1);
        assert_eq!(counts(&store), (2, 2), "checked, unchanged");
        let stats = cache.stats();
        assert_eq!((stats.hits, stats.checked, stats.misses), (1, 1, 2));
    }

    #[tokio::test]
    async fn zero_staleness_checks_every_time_and_zero_clients_loads_every_time() {
        let store = Arc::new(Revisions::default());
        let checking = cache(&store, 10, 0);
        for _ in 0..3 {
            checking.client_state("a").await.unwrap();
        }
        assert_eq!(counts(&store), (1, 2));
        let off = cache(&store, 0, 3_600_000);
        for _ in 0..3 {
            off.client_state("a").await.unwrap();
        }
        assert_eq!(counts(&store), (4, 2));
        assert_eq!(off.stats().clients, 0);
    }

    #[test]
    fn a_read_overlapping_a_local_write_stays_unconfirmed_and_revisions_never_go_back() {
        let store = Arc::new(Revisions::default());
        let cache = cache(&store, 10, 3_600_000);
        let state = |revision| {
            Arc::new(ClientState {
                revision,
                messages: Vec::new(),
            })
        };
        let writes = cache.writes.load(Ordering::SeqCst);
        cache.invalidate("a");
        cache.remember("a", state(3), Instant::now(), writes);
        assert!(cache.fresh("a").is_none(), "loaded before the write");
        cache.remember("a", state(4), Instant::now(), writes + 1);
        assert_eq!(cache.fresh("a").unwrap().revision, 4);
        cache.remember("a", state(2), Instant::now(), writes + 1);
        assert_eq!(cache.cached("a").unwrap().revision, 4, "never back");
    }

    #[test]
    fn a_full_cache_makes_room() {
        let store = Arc::new(Revisions::default());
        let cache = cache(&store, 3, 3_600_000);
        for client in ["a", "b", "c", "d", "e"] {
            let writes = cache.writes.load(Ordering::SeqCst);
            let state = Arc::new(ClientState::default());
            cache.remember(client, state, Instant::now(), writes);
            assert!(cache.stats().clients <= 3);
        }
        assert!(cache.fresh("e").is_some(), "the newest is kept");
    }
}
