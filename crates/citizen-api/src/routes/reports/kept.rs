//! JSON a replica keeps by id and by the version of what it was written from: the public list's
//! rows (by issue, `issues.row_version`) and the public detail (by report, the sum of its issue
//! rows' versions). A version moves with every change of what the JSON shows (triggers,
//! migration 0021), and a request reads the current version before it looks here, so kept JSON
//! is used only while it is still what the database holds; nothing needs to be told of a
//! write. What changes with the request (the vote count, whose expiry is against the request's
//! instant, and a list row's distance) is never kept: a kept head is a report's JSON up to,
//! without, its `votes_count`, and [`finish`] writes the rest.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use quick_cache::sync::Cache;
use service_kit::metrics::Metrics;
use uuid::Uuid;

use super::super::model::Report;

/// What [`head`] leaves off the end of a report's JSON: the vote count the serialisation ends
/// with when written with no votes and no distance (`votes_count` is the last field of the
/// model that is always there, `distance` the only one after it).
const TAIL: &str = ",\"votes_count\":0}";

/// Held in the cache by value: the head's `Arc` sits in the cache's own slot, not behind a
/// second `Arc`.
#[derive(Debug, Clone)]
struct Entry {
    version: i64,
    head: Arc<str>,
}

/// Heads kept by id (at most the configured number; none when 0), and how many lookups found
/// their version and how many read the database.
pub struct KeptJson {
    entries: Option<Cache<Uuid, Entry>>,
    hits: Arc<AtomicU64>,
    misses: Arc<AtomicU64>,
}

impl KeptJson {
    /// At most `entries` heads (0: none kept).
    pub fn new(entries: usize) -> Self {
        Self {
            entries: (entries > 0).then(|| Cache::new(entries)),
            hits: Arc::default(),
            misses: Arc::default(),
        }
    }

    /// Registers the counter `name{source="cache"|"database"}`, filled at every scrape.
    pub fn watch(&self, metrics: &Metrics, name: &str, help: &str) -> anyhow::Result<()> {
        let counters =
            prometheus::IntCounterVec::new(prometheus::Opts::new(name, help), &["source"])?;
        metrics.registry().register(Box::new(counters.clone()))?;
        let (hits, misses) = (self.hits.clone(), self.misses.clone());
        metrics.add_collector(move |_| {
            for (label, total) in [("cache", &hits), ("database", &misses)] {
                let counter = counters.with_label_values(&[label]);
                counter.inc_by(total.load(Ordering::Relaxed).saturating_sub(counter.get()));
            }
        });
        Ok(())
    }

    /// The heads kept for `keys` (id and version) each if it was written from that version, in
    /// their order; counted once for all, as hits and misses.
    pub fn get_all(
        &self,
        keys: impl ExactSizeIterator<Item = (Uuid, i64)>,
    ) -> Vec<Option<Arc<str>>> {
        let Some(entries) = &self.entries else {
            self.count(false, keys.len());
            return keys.map(|_| None).collect();
        };
        let heads: Vec<Option<Arc<str>>> = keys
            .map(|(id, version)| {
                entries
                    .get(&id)
                    .filter(|entry| entry.version == version)
                    .map(|entry| entry.head)
            })
            .collect();
        let found = heads.iter().filter(|head| head.is_some()).count();
        self.count(true, found);
        self.count(false, heads.len() - found);
        heads
    }

    /// The head kept for `id` and the version it was written from, whatever that is (not
    /// counted: the caller says what it served with [`KeptJson::count`]).
    pub fn peek(&self, id: Uuid) -> Option<(i64, Arc<str>)> {
        let entry = self.entries.as_ref()?.get(&id)?;
        Some((entry.version, entry.head.clone()))
    }

    /// Counts `n` answers written from kept JSON (`kept`) or read from the database.
    pub fn count(&self, kept: bool, n: usize) {
        let counter = if kept { &self.hits } else { &self.misses };
        counter.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Keeps `head`, written from `version`, for `id`.
    pub fn put(&self, id: Uuid, version: i64, head: Arc<str>) {
        if let Some(entries) = &self.entries {
            entries.insert(id, Entry { version, head });
        }
    }

    #[cfg(test)]
    pub(super) fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }
}

/// `report` as JSON up to, without, its vote count (an open object: [`finish`] closes it).
/// `votes_count` and `distance` of `report` are not written.
pub fn head(mut report: Report) -> Result<String, serde_json::Error> {
    report.votes_count = 0;
    report.distance = None;
    let mut json = serde_json::to_string(&report)?;
    match json.strip_suffix(TAIL) {
        Some(head) => {
            json.truncate(head.len());
            Ok(json)
        }
        None => Err(serde::ser::Error::custom(
            "a report's JSON does not end with its vote count",
        )),
    }
}

/// Writes the rest of a report after its [`head`]: the vote count, the distance when there is
/// one, and the closing brace.
pub fn finish(
    out: &mut Vec<u8>,
    votes_count: i64,
    distance: Option<f64>,
) -> Result<(), serde_json::Error> {
    out.extend_from_slice(b",\"votes_count\":");
    serde_json::to_writer(&mut *out, &votes_count)?;
    if let Some(distance) = distance {
        out.extend_from_slice(b",\"distance\":");
        serde_json::to_writer(&mut *out, &distance)?;
    }
    out.push(b'}');
    Ok(())
}
