//! The feed reads of the list index, one at a time on the index's thread (`thread.rs`).
//!
//! A page (or detail key) notes how many reads had started when it arrived, asks for a read
//! and waits until one numbered above that was applied: that read started after it arrived,
//! so the page holds everything committed before. Reads run back to back while pages wait;
//! each serves every page that arrived while the one before was under way. Pages never run a
//! read themselves: on their HTTP worker, each of a read's hops waited behind the pages that
//! worker was writing (`thread.rs`).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use tokio::sync::Notify;

use super::{Inner, ListIndex};
use crate::store::{FeedChanges, FeedPositions};

/// The last read applied: its number, and whether an index was held after it (else the
/// database answers the pages that waited for it).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Applied {
    pub(super) number: u64,
    pub(super) held: bool,
}

/// Reads the feed each time a read is wanted, until the index is dropped. Each read is a task
/// of its own: one that panics (a bug) drops the index and answers its pages with the
/// database, and the next page starts a load, where the pages would otherwise wait for ever.
pub(super) async fn serve(inner: Weak<Inner>, wanted: Arc<Notify>) {
    loop {
        wanted.notified().await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        let index = ListIndex { inner };
        let read = tokio::spawn({
            let index = index.clone();
            async move { index.read_once().await }
        });
        if read.await.is_err() {
            tracing::error!("a read of the list index's feed panicked; the list index is dropped");
            let inner = &index.inner;
            *inner.index.write().await = None;
            let number = inner.started.load(Ordering::SeqCst);
            inner.applied.send_replace(Applied {
                number,
                held: false,
            });
        }
    }
}

impl Drop for Inner {
    /// Ends [`serve`] (it finds the index gone).
    fn drop(&mut self) {
        self.wanted.notify_one();
    }
}

impl ListIndex {
    /// One read of the issue and vote feeds from the index's positions, applied; announced
    /// with its number whatever its outcome.
    async fn read_once(&self) {
        let inner = &self.inner;
        let _reading = inner.reading.lock().await;
        let number = inner.started.fetch_add(1, Ordering::SeqCst) + 1;
        let held = self.read_and_apply().await;
        inner.applied.send_replace(Applied { number, held });
    }

    /// Whether an index is held after the read: not when none was (a load is started then,
    /// unless the data is too large), when the read failed or when the data became too large.
    async fn read_and_apply(&self) -> bool {
        let inner = &self.inner;
        let held = inner
            .index
            .read()
            .await
            .as_ref()
            .map(|i| (i.position(), i.votes.position()));
        let Some((position, votes_position)) = held else {
            self.start_if_due();
            return false;
        };
        let since = FeedPositions {
            issues: position,
            votes: votes_position,
        };
        let read = inner.store.feed_changes(since, inner.clock.now()).await;
        let FeedChanges { issues, votes } = match read {
            Ok(read) => read,
            Err(err) => {
                // The index can no longer be brought up to date from its position: the
                // database answers the waiting pages (or says why it cannot), the next starts
                // a load.
                tracing::warn!(
                    error = format!("{err:#}"),
                    "reading the issue or vote feed failed; the list index is dropped"
                );
                *inner.index.write().await = None;
                return false;
            }
        };
        let mut held = inner.index.write().await;
        if let Some(index) = held.as_mut() {
            index.apply(issues);
            index.apply_votes(votes);
            if index.len() > inner.max_items {
                *held = None;
                self.drop_too_large();
                return false;
            }
        }
        held.is_some()
    }
}
