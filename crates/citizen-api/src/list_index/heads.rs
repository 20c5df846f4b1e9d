//! The row cache's heads held with the index's entries (`Entry::head`): a page from the index
//! hands each row's list JSON with the row, without a lookup in the row cache's map of a
//! million ids, a cache miss a row (docs/citizen-api.md, "The list index").

use std::sync::atomic::Ordering;
use std::sync::Arc;

use uuid::Uuid;

use super::model::{Entry, Index, IndexRow};

/// The rows of `entries` with their vote counts at `now` (microseconds), their kept JSON read
/// ahead first (`crate::touch`): each head's `Arc` is counted as it is handed over, an atomic
/// write to the head's first line, which would otherwise wait on memory row after row.
pub(super) fn rows(entries: Vec<&Entry>, now: i64) -> Vec<IndexRow> {
    crate::touch::texts(
        entries
            .iter()
            .filter_map(|entry| entry.head.get().map(|h| &**h)),
    );
    entries.into_iter().map(|entry| entry.row(now)).collect()
}

impl Index {
    /// The listed issues a row cache of `capacity` holds after a load (the newest), with the
    /// version each is held at, in the order of the grid's cells (row by row; issues without
    /// a point last): warmed in this order, the heads of neighbouring rows are written one
    /// after the other and lie side by side in memory, so a page nearest first reads a few runs
    /// of memory rather than a hundred places (the processor's prefetcher follows a run).
    pub fn to_warm(&self, capacity: usize) -> Vec<(Uuid, i64)> {
        let mut issues = self.newest(capacity);
        if let Some(grid) = &self.located {
            let cell = |issue_id: &Uuid| {
                self.slots
                    .get(issue_id)
                    .and_then(|slot| self.entries.get(*slot as usize))
                    .and_then(|entry| entry.point)
                    .map_or(usize::MAX, |point| {
                        grid.cell_of(&self.space.position(point))
                    })
            };
            // Stable: newest first within a cell.
            issues.sort_by_cached_key(|(issue_id, _)| cell(issue_id));
        }
        issues
    }

    /// Lets up to `max` entries hold their row's head ([`Self::keep_head`]).
    pub fn keep_heads_up_to(&mut self, max: usize) {
        self.max_heads = max;
    }

    /// Entries holding a head.
    pub fn heads(&self) -> usize {
        self.heads.load(Ordering::Relaxed)
    }

    /// Keeps `head`, the list JSON of issue `issue_id` written from `version`, with the entry
    /// when the index holds the issue at that version (else it is dropped: a newer read of the
    /// issue is held, or the head was written from a newer one than the index has read yet)
    /// and fewer than [`Self::keep_heads_up_to`] entries hold one.
    /// Through a shared reference: a page may keep what it read while others walk.
    pub fn keep_head(&self, issue_id: Uuid, version: i64, head: Arc<str>) {
        let entry = self
            .slots
            .get(&issue_id)
            .and_then(|slot| self.entries.get(*slot as usize));
        let Some(entry) = entry.filter(|entry| entry.version == version) else {
            return;
        };
        if entry.head.get().is_some() {
            return;
        }
        // Counted before it is set, so keepers at the same time never pass the bound; set once
        // (two pages keeping one row's head at the same version keep the same JSON).
        if self.heads.fetch_add(1, Ordering::Relaxed) >= self.max_heads
            || entry.head.set(head).is_err()
        {
            self.heads.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use chrono::DateTime;
    use domain::geo::{LonLat, NearestOrder};
    use domain::issues::IssueStatus;

    use super::*;
    use crate::store::IssueState;

    fn issue(n: u128, version: i64) -> IssueState {
        IssueState {
            issue_id: Uuid::from_u128(n),
            report_id: Uuid::from_u128(1_000 + n),
            category_id: Uuid::from_u128(7),
            status: IssueStatus::Open,
            filed_at: DateTime::UNIX_EPOCH,
            point: Some(LonLat {
                lon: 14.4 + n as f64 * 1e-3,
                lat: 50.0,
            }),
            version,
            search: String::new(),
            placed_at: DateTime::UNIX_EPOCH,
            has_possible_duplicates: false,
            parent_id: None,
        }
    }

    fn head_of(index: &Index, n: u128) -> Option<Arc<str>> {
        let slot = index.slots.get(&Uuid::from_u128(n)).unwrap();
        index.entries[*slot as usize].head.get().cloned()
    }

    #[test]
    fn a_head_is_held_at_its_version_within_the_bound_and_goes_with_its_entry() {
        let mut index = Index::new(NearestOrder::Sphere);
        for n in 1..=3 {
            index.put(issue(n, 1));
        }
        index.keep_head(Uuid::from_u128(1), 1, Arc::from("one"));
        assert_eq!(head_of(&index, 1), None, "no heads before a bound is set");
        index.keep_heads_up_to(2);
        // Another version than the entry's (older or newer), or an issue not held: dropped.
        index.keep_head(Uuid::from_u128(1), 0, Arc::from("old"));
        index.keep_head(Uuid::from_u128(1), 2, Arc::from("new"));
        index.keep_head(Uuid::from_u128(9), 1, Arc::from("none"));
        assert_eq!((head_of(&index, 1), index.heads()), (None, 0));
        index.keep_head(Uuid::from_u128(1), 1, Arc::from("one"));
        // Kept once: a second head at the same version leaves the first.
        index.keep_head(Uuid::from_u128(1), 1, Arc::from("again"));
        index.keep_head(Uuid::from_u128(2), 1, Arc::from("two"));
        // Past the bound: dropped.
        index.keep_head(Uuid::from_u128(3), 1, Arc::from("three"));
        assert_eq!(head_of(&index, 1).as_deref(), Some("one"));
        assert_eq!(head_of(&index, 3), None);
        assert_eq!(index.heads(), 2);
        // A new read of issue 1 replaces its entry and the head with it, freeing a place.
        index.put(issue(1, 2));
        assert_eq!((head_of(&index, 1), index.heads()), (None, 1));
        index.keep_head(Uuid::from_u128(3), 1, Arc::from("three"));
        assert_eq!(head_of(&index, 3).as_deref(), Some("three"));
        // Pages hand the held heads with their rows.
        index.locate();
        let rows = rows(index.entries.iter().collect(), 0);
        let heads: Vec<Option<&str>> = rows.iter().map(|row| row.head.as_deref()).collect();
        assert_eq!(heads, [None, Some("two"), Some("three")]);
    }

    #[test]
    fn issues_to_warm_are_the_newest_in_the_grids_order() {
        let mut index = Index::new(NearestOrder::Sphere);
        for n in 1..=50 {
            let mut state = issue(n, 1);
            state.filed_at = DateTime::UNIX_EPOCH + chrono::TimeDelta::seconds(n as i64);
            if n % 10 == 0 {
                state.point = None;
            }
            index.put(state);
        }
        index.locate();
        let grid = index.located.as_ref().unwrap();
        let warm = index.to_warm(30);
        let mut newest: Vec<Uuid> = index.newest(30).into_iter().map(|(id, _)| id).collect();
        let mut got: Vec<Uuid> = warm.iter().map(|(id, _)| *id).collect();
        let cells: Vec<usize> = got
            .iter()
            .map(|id| {
                let entry = &index.entries[*index.slots.get(id).unwrap() as usize];
                entry.point.map_or(usize::MAX, |point| {
                    grid.cell_of(&index.space.position(point))
                })
            })
            .collect();
        assert!(cells.windows(2).all(|w| w[0] <= w[1]), "{cells:?}");
        assert_eq!(cells.last(), Some(&usize::MAX), "no point last");
        newest.sort();
        got.sort();
        assert_eq!(got, newest);
    }
}
