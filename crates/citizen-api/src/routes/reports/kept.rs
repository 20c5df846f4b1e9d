//! JSON a replica keeps by id and by the version of what it was written from: the public list's
//! rows (by issue, `issues.row_version`) and the public detail (by report, the sum of its issue
//! rows' versions). A version moves with every change of what the JSON shows (triggers,
//! migration 0021), and a request reads the current version before it looks here, so kept JSON
//! is used only while it is still what the database holds; nothing needs to be told of a
//! write. What changes with the request (the vote count, whose expiry is against the request's
//! instant, and a list row's distance) is never kept: a kept head is a report's JSON up to,
//! without, its `votes_count`, and [`finish`] writes the rest.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use service_kit::metrics::Metrics;
use uuid::Uuid;

use super::super::model::Report;
use crate::id_map::IdMap;

/// What [`head`] leaves off the end of a report's JSON: the vote count the serialisation ends
/// with when written with no votes and no distance (`votes_count` is the last field of the
/// model that is always there, `distance` the only one after it).
const TAIL: &str = ",\"votes_count\":0}";

#[derive(Debug, Clone)]
struct Entry {
    version: i64,
    head: Arc<str>,
}

/// The heads, and their ids in the order they were first kept: past the capacity the oldest
/// goes (first in, first out).
struct Kept {
    by_id: IdMap<Entry>,
    order: VecDeque<Uuid>,
    capacity: usize,
}

/// Heads kept by id (at most the configured number; none when 0), and how many lookups found
/// their version and how many read the database.
///
/// One lock for all: a page takes it once to look up its 100 rows, with no atomic operation
/// per row. A page nearest first asks for rows no page touched lately, each a few cache misses
/// (its slot, then its head); looked up one by one through a sharded cache, each row's misses
/// waited on the row before, behind the atomic count of the head's `Arc`. Here the slots are
/// found, then every head's memory is read in one loop of independent loads the processor
/// overlaps, and only then are the `Arc`s counted (docs/benchmarks.md).
pub struct KeptJson {
    entries: Option<RwLock<Kept>>,
    hits: Arc<AtomicU64>,
    misses: Arc<AtomicU64>,
}

impl KeptJson {
    /// At most `entries` heads (0: none kept).
    pub fn new(entries: usize) -> Self {
        Self {
            entries: (entries > 0).then(|| {
                RwLock::new(Kept {
                    by_id: IdMap::default(),
                    order: VecDeque::new(),
                    capacity: entries,
                })
            }),
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
        let kept = entries.read().unwrap_or_else(PoisonError::into_inner);
        let found: Vec<Option<&Entry>> = keys
            .map(|(id, version)| kept.by_id.get(&id).filter(|entry| entry.version == version))
            .collect();
        crate::touch::texts(found.iter().flatten().map(|entry| &*entry.head));
        let heads: Vec<Option<Arc<str>>> = found
            .iter()
            .map(|entry| entry.map(|entry| entry.head.clone()))
            .collect();
        drop(kept);
        let found = heads.iter().filter(|head| head.is_some()).count();
        self.count(true, found);
        self.count(false, heads.len() - found);
        heads
    }

    /// The head kept for `id` and the version it was written from, whatever that is (not
    /// counted: the caller says what it served with [`KeptJson::count`]).
    pub fn peek(&self, id: Uuid) -> Option<(i64, Arc<str>)> {
        let kept = self
            .entries
            .as_ref()?
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        let entry = kept.by_id.get(&id)?;
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
            let mut kept = entries.write().unwrap_or_else(PoisonError::into_inner);
            if kept.by_id.insert(id, Entry { version, head }).is_none() {
                kept.order.push_back(id);
                while kept.by_id.len() > kept.capacity {
                    let Some(oldest) = kept.order.pop_front() else {
                        break;
                    };
                    kept.by_id.remove(&oldest);
                }
            }
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
        write_metres(out, distance)?;
    }
    out.push(b'}');
    Ok(())
}

/// Writes `metres` as serde_json does. A row's distance is rounded to the centimetre
/// (`DistancesFrom::rounded_cm`), so below 10¹¹ m its shortest form is its whole centimetres
/// with the point put in and trailing zeros of the fraction dropped (at least one digit after
/// the point): written so, without the general float formatting that was 2 % of a page
/// nearest first (`perf`, 2026-11-27). Anything else goes to serde_json.
fn write_metres(out: &mut Vec<u8>, metres: f64) -> Result<(), serde_json::Error> {
    let cm = (metres * 100.0).round();
    let on_the_cm = metres.is_sign_positive() && cm < 1e13 && cm / 100.0 == metres;
    if !on_the_cm {
        return serde_json::to_writer(&mut *out, &metres);
    }
    // Checked above: 0 ≤ cm < 10¹³, a whole number.
    let cm = cm as u64;
    serde_json::to_writer(&mut *out, &(cm / 100))?;
    let fraction = (cm % 100) as u8;
    out.push(b'.');
    out.push(b'0' + fraction / 10);
    if !fraction.is_multiple_of(10) {
        out.push(b'0' + fraction % 10);
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn past_its_capacity_the_first_kept_goes_first() {
        let kept = KeptJson::new(2);
        let [a, b, c, d] = [1u128, 2, 3, 4].map(Uuid::from_u128);
        let head = |s: &str| Arc::<str>::from(s);
        kept.put(a, 1, head("a"));
        kept.put(b, 1, head("b"));
        kept.put(c, 1, head("c"));
        assert!(kept.peek(a).is_none());
        assert_eq!(kept.peek(b).unwrap(), (1, head("b")));
        // A newer version replaces the head in place: `b` is still the oldest.
        kept.put(b, 2, head("b2"));
        assert_eq!(kept.peek(b).unwrap(), (2, head("b2")));
        kept.put(d, 1, head("d"));
        assert!(kept.peek(b).is_none());
        let found = kept.get_all([(c, 1), (d, 1), (d, 2), (a, 1)].into_iter());
        assert_eq!(found, [Some(head("c")), Some(head("d")), None, None]);
        assert_eq!(kept.counts(), (2, 2));
    }

    /// Distances on the centimetre (every whole centimetre up to 2 km, then samples up to
    /// 10¹¹ m) and off it are written as serde_json writes them.
    #[test]
    fn distances_are_written_as_serde_json_writes_them() {
        let written = |metres: f64| {
            let mut out = Vec::new();
            write_metres(&mut out, metres).unwrap();
            String::from_utf8(out).unwrap()
        };
        let mut cms: Vec<u64> = (0..200_000).collect();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cms.push(x % 10u64.pow(1 + (x % 13) as u32));
        }
        for cm in cms {
            let metres = (cm as f64 / 100.0 * 100.0).round() / 100.0;
            assert_eq!(
                written(metres),
                serde_json::to_string(&metres).unwrap(),
                "{cm} cm"
            );
        }
        for metres in [
            -0.0,
            -1.5,
            0.005,
            1.0 / 3.0,
            123.456,
            1e11,
            9.99e12,
            1e13,
            1e20,
            f64::MAX,
        ] {
            assert_eq!(
                written(metres),
                serde_json::to_string(&metres).unwrap(),
                "{metres}"
            );
        }
    }

    #[test]
    fn with_no_capacity_nothing_is_kept() {
        let kept = KeptJson::new(0);
        let id = Uuid::from_u128(1);
        kept.put(id, 1, Arc::from("a"));
        assert!(kept.peek(id).is_none());
        assert_eq!(kept.get_all([(id, 1)].into_iter()), [None]);
        assert_eq!(kept.counts(), (0, 1));
    }
}
