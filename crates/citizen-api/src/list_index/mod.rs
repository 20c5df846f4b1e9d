//! The list index: each replica holds every issue in memory, kept exact by the issue feed
//! (migration 0024, `ReportStore::issue_changes`), and writes the public list's pages by date
//! from it (docs/citizen-api.md, "The list index").
//!
//! **Never staler than the request.** Before a page is taken from the index, a read of the feed
//! that *started after the request arrived* must have been applied: the request waits for one
//! (reads are one at a time; a request that arrives while one is under way waits for the next).
//! So a page holds everything committed before the request, whichever replica wrote it, as the
//! database's statement would; only the walk is in memory. A read usually finds no change (one
//! index probe). The row's content comes from the row cache under the version the index holds.
//! The same read brings the vote feed (migration 0026) into the index's vote tally
//! (`votes.rs`), which counts each row's votes at the request's instant, as the statement would.
//!
//! **Until loaded, when too large, or after a failed read** the database answers (`page`
//! returns `None`): the first load reads every issue from position 0, then every vote token
//! active at its instant, in the background (the
//! readiness check waits for it); above `reports.index_max_items` issues the replica drops the
//! index for good and warns; a failed read of the feed drops it (warned), that page goes to
//! the database, and the next request starts a new load.
//!
//! **The rows' content** of a page from the index comes from the row cache or is read by id.
//! A [`Warm`] given with [`ListIndex::warm_with`] is handed the newest listed issues after each
//! load, before the replica reports ready: the row cache fills then, so that pages of random
//! places (nearest first) find their rows in memory when the cache holds them all.

mod admin;
mod feed;
mod grid;
mod heads;
mod metrics;
mod model;
mod nearest;
mod thread;
mod votes;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use service_kit::clock::Clock;
use service_kit::health::ReadinessCheck;
use tokio::sync::{watch, Mutex, Notify, RwLock};
use uuid::Uuid;

pub use admin::{AdminIssueRow, AdminRow};
pub use model::{Index, IndexRow};

use crate::store::admin::AdminFilter;
use crate::store::{Instant, ListPage, ReportFilter, ReportStore};
use feed::Applied;
use thread::IndexThread;

/// A row's list JSON with the issue and the version it was written from.
pub type HeadAt = (Uuid, i64, Arc<str>);

/// What fills a cache from the index after a load (module docs).
#[async_trait]
pub trait Warm: Send + Sync {
    /// At most how many issues to hand over.
    fn capacity(&self) -> usize;
    /// Takes listed issues (the newest, in place order: `Index::to_warm`; a batch at a time),
    /// each with the version the index holds, and hands back the list JSON it holds for them
    /// (id, version it was written from, JSON), which the index keeps with its entries
    /// ([`ListIndex::keep_heads`]). `None` stops the warming (a read failed: pages read what
    /// is missing as they go).
    async fn warm(&self, issues: &[(Uuid, i64)]) -> Option<Vec<HeadAt>>;
}

/// Issues handed to [`Warm::warm`] at a time.
const WARM_BATCH: usize = 10_000;

/// One replica's list index (module docs).
#[derive(Clone)]
pub struct ListIndex {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn ReportStore>,
    /// The instant a load reads the active vote tokens at.
    clock: Arc<dyn Clock>,
    max_items: usize,
    index: RwLock<Option<Index>>,
    /// Held while the feed is read and applied, and while a loaded index is installed.
    reading: Mutex<()>,
    /// Asks the index's thread for a feed read (`feed.rs`).
    wanted: Arc<Notify>,
    /// Held by a load for its duration (a second one waits for it, then finds the index).
    load: Mutex<()>,
    /// A background load is under way.
    loading: AtomicBool,
    /// Feed reads started and applied, numbered (a request needs one that started after it),
    /// and whether an index was held after the last one.
    started: AtomicU64,
    applied: watch::Sender<Applied>,
    /// The first load ended (however); a later load is due when the index is missing.
    loaded: watch::Sender<bool>,
    too_large: AtomicBool,
    warm: OnceLock<Arc<dyn Warm>>,
    /// Pages served from the index and by the database, for metrics: the public list's and
    /// the officers'.
    pages_index: AtomicU64,
    pages_database: AtomicU64,
    admin_pages_index: AtomicU64,
    admin_pages_database: AtomicU64,
    /// Anonymous details' keys (version and vote count) from the index and by the database.
    detail_keys_index: AtomicU64,
    detail_keys_database: AtomicU64,
    /// Where feed reads and loads run (`thread.rs`).
    thread: IndexThread,
}

impl ListIndex {
    /// `None` when `max_items` is 0 (the index is off).
    pub fn new(
        store: Arc<dyn ReportStore>,
        max_items: usize,
        clock: Arc<dyn Clock>,
    ) -> Option<Self> {
        if max_items == 0 {
            return None;
        }
        let this = Self {
            inner: Arc::new(Inner {
                store,
                clock,
                max_items,
                index: RwLock::new(None),
                reading: Mutex::new(()),
                wanted: Arc::new(Notify::new()),
                load: Mutex::new(()),
                loading: AtomicBool::new(false),
                started: AtomicU64::new(0),
                applied: watch::Sender::new(Applied::default()),
                loaded: watch::Sender::new(false),
                too_large: AtomicBool::new(false),
                warm: OnceLock::new(),
                pages_index: AtomicU64::new(0),
                pages_database: AtomicU64::new(0),
                admin_pages_index: AtomicU64::new(0),
                admin_pages_database: AtomicU64::new(0),
                detail_keys_index: AtomicU64::new(0),
                detail_keys_database: AtomicU64::new(0),
                thread: IndexThread::start(),
            }),
        };
        let reads = feed::serve(Arc::downgrade(&this.inner), this.inner.wanted.clone());
        this.inner.thread.spawn_detached(reads);
        Some(this)
    }

    /// Hands the newest listed issues to `warm` after each load (the first call counts).
    pub fn warm_with(&self, warm: Arc<dyn Warm>) {
        let _ = self.inner.warm.set(warm);
    }

    /// Starts a load in the background (on the index's thread), unless one is under way.
    pub fn start(&self) {
        if self.inner.loading.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = self.clone();
        self.inner.thread.spawn_detached(async move {
            this.load().await;
            this.inner.loading.store(false, Ordering::Release);
        });
    }

    /// Loads the index on the caller's task, unless one is held or the data is too large (a
    /// load under way is waited for): what [`Self::start`] runs in the background.
    pub async fn load_now(&self) {
        self.load().await;
    }

    /// Reads every issue (position 0) unless an index is held or the data is too large. Pages
    /// keep coming from the database meanwhile; the next page after the install reads the feed
    /// from the loaded position first.
    async fn load(&self) {
        let inner = &self.inner;
        let _load = inner.load.lock().await;
        if inner.index.read().await.is_none() && !inner.too_large.load(Ordering::Acquire) {
            // Each issue goes into the index as it arrives; past the cap the read stops.
            let mut index = Index::new(inner.store.nearest_order());
            // The entries hold the row cache's heads, up to its size (`Index::keep_head`).
            index.keep_heads_up_to(inner.warm.get().map_or(0, |warm| warm.capacity()));
            let max_items = inner.max_items;
            let read = inner
                .store
                .issue_changes_each(0, &mut |issue| {
                    index.put(issue);
                    index.len() <= max_items
                })
                .await;
            // Then every vote token active now, each into the tally as it arrives.
            let read = match read {
                Ok(Some(mark)) => {
                    let (now, votes) = (inner.clock.now(), &mut index.votes);
                    let read = inner
                        .store
                        .vote_changes_each(0, now, &mut |token| {
                            votes.put(token);
                        })
                        .await;
                    read.map(|next| {
                        votes.set_position(next);
                        Some(mark)
                    })
                }
                other => other,
            };
            match read {
                Ok(None) => self.drop_too_large(),
                Ok(Some(mark)) => {
                    index.set_mark(mark);
                    index.copy_votes();
                    index.locate();
                    tracing::info!(
                        issues = index.len(),
                        vote_tokens = index.votes.len(),
                        "list index loaded"
                    );
                    let newest = inner
                        .warm
                        .get()
                        .map(|w| (w.clone(), index.to_warm(w.capacity())));
                    {
                        let _reading = inner.reading.lock().await;
                        *inner.index.write().await = Some(index);
                    }
                    if let Some((warm, issues)) = newest {
                        let mut count = 0;
                        for batch in issues.chunks(WARM_BATCH) {
                            let Some(heads) = warm.warm(batch).await else {
                                break;
                            };
                            count += heads.len();
                            self.keep_heads(heads).await;
                        }
                        tracing::info!(rows = count, "list rows warmed");
                    }
                }
                Err(err) => tracing::warn!(
                    error = format!("{err:#}"),
                    "loading the list index failed; the database answers the lists"
                ),
            }
        }
        inner.loaded.send_replace(true);
    }

    fn drop_too_large(&self) {
        self.inner.too_large.store(true, Ordering::Release);
        tracing::warn!(
            max_items = self.inner.max_items,
            "more issues than reports.index_max_items: the database answers the lists"
        );
    }

    /// The page of `filter` from the index, after a read of the feed that started after this
    /// call, with each row's vote count at `now`; `None` when the database is to answer (module
    /// docs).
    pub async fn page(&self, filter: &ReportFilter, now: Instant) -> Option<ListPage<IndexRow>> {
        if !Index::serves(filter) {
            return None;
        }
        let inner = &self.inner;
        let page = self.after_feed(|i| i.page(filter, now)).await;
        let counter = match page {
            Some(_) => &inner.pages_index,
            None => &inner.pages_database,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        page
    }

    /// Keeps list JSON (issue id, the version it was written from, JSON) with the index's
    /// entries held at that version (`Index::keep_head`): pages from the index hand it with
    /// their rows.
    pub async fn keep_heads(&self, heads: impl IntoIterator<Item = HeadAt>) {
        if let Some(index) = self.inner.index.read().await.as_ref() {
            for (issue_id, version, head) in heads {
                index.keep_head(issue_id, version, head);
            }
        }
    }

    /// What the public detail of `report_id` is kept under (its issues' version sum and its vote
    /// count at `now`, `Index::detail_key`), after a read of the feed that started after this
    /// call, as for a page: the detail then needs no statement when its JSON is kept. `None`
    /// when the database is to answer (no index held, or no issue of that report in it).
    pub async fn detail_key(&self, report_id: Uuid, now: Instant) -> Option<(i64, i64)> {
        let inner = &self.inner;
        let key = self.after_feed(|i| i.detail_key(report_id, now)).await;
        let counter = match key {
            Some(_) => &inner.detail_keys_index,
            None => &inner.detail_keys_database,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        key
    }

    /// Applies a read of the feed that started after this call (as before a public page) and
    /// answers the categories' generation it saw; `None` when no index is held (the database
    /// answers then).
    pub async fn sync(&self) -> Option<i64> {
        self.after_feed(|i| Some(i.categories())).await
    }

    /// `read` of the index after a read of the feed that started after this call (`feed.rs`);
    /// `None` when no index is held (a load is started then, unless the data is too large) or
    /// the read failed: the database answers then.
    async fn after_feed<T>(&self, read: impl FnOnce(&Index) -> Option<T>) -> Option<T> {
        let inner = &self.inner;
        let arrived = inner.started.load(Ordering::SeqCst);
        if inner.index.read().await.is_none() {
            self.start_if_due();
            return None;
        }
        let mut applied = inner.applied.subscribe();
        inner.wanted.notify_one();
        let held = applied.wait_for(|a| a.number > arrived).await.ok()?.held;
        if !held {
            return None;
        }
        inner.index.read().await.as_ref().and_then(read)
    }

    /// Starts a load when the index is missing after the first load ended, unless the data is
    /// too large.
    fn start_if_due(&self) {
        let inner = &self.inner;
        if *inner.loaded.borrow() && !inner.too_large.load(Ordering::Acquire) {
            self.start();
        }
    }

    /// The officers' page of `filter` from the index (by date, `list_index/admin.rs`), as of
    /// the last feed read, with each report's vote count at the filter's instant: call
    /// [`Self::sync`] first. `deadlines` are the statement deadlines of
    /// the categories that have one. `None` when the database is to answer.
    pub async fn admin_page(
        &self,
        filter: &AdminFilter,
        deadlines: &HashMap<Uuid, u32>,
    ) -> Option<ListPage<AdminRow>> {
        self.inner
            .index
            .read()
            .await
            .as_ref()
            .and_then(|i| i.admin_page(filter, deadlines))
    }

    /// Counts an officers' page by date as written from the index or by the database (the
    /// caller knows: a page from the index can still be left to the database when written).
    pub fn count_admin_page(&self, from_index: bool) {
        let inner = &self.inner;
        let counter = match from_index {
            true => &inner.admin_pages_index,
            false => &inner.admin_pages_database,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Ready once the first load ended (a failed or too large one too: the database answers).
    pub fn readiness(&self) -> Arc<dyn ReadinessCheck> {
        Arc::new(FirstLoad(self.clone()))
    }
}

struct FirstLoad(ListIndex);

#[async_trait]
impl ReadinessCheck for FirstLoad {
    fn name(&self) -> &'static str {
        "list_index"
    }

    /// The load runs in the background, never inside the check: a check ends at its time-out
    /// (2 s), which a load of a large city with its warming outlasts, and a load cancelled there
    /// would start again from nothing at every check. The check starts one unless one runs and
    /// waits for the first to end within its time.
    async fn check(&self) -> anyhow::Result<()> {
        let inner = &self.0.inner;
        let mut loaded = inner.loaded.subscribe();
        if !*loaded.borrow() {
            self.0.start();
            loaded.wait_for(|done| *done).await?;
        }
        Ok(())
    }
}
