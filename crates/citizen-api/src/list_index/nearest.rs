//! The page nearest first (`orderBy=location`, ascending, no radius) from the index, in the
//! database's order: the located rows by the backend's key (`domain::geo::Nearness`), ties by
//! issue id, then the rows without a point by issue id.
//!
//! The R-tree hands out points in Euclidean order of the search space, where the distance never
//! exceeds the key ([`Nearness::floor`]). The walk keeps the `needed` best rows by (key, id) and
//! stops at the first point whose floor is above the worst of them: every point after it is at
//! least as far in the search space, so its key is above too. A point whose floor equals the
//! worst key may still tie with a smaller id, so the walk goes on past it.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use domain::geo::Nearness;
use uuid::Uuid;

use super::model::{Index, IndexRow};
use crate::store::{ListPage, ReportFilter};

/// A located row by the page's order: key, then issue id.
struct Ranked {
    key: f64,
    issue_id: Uuid,
    slot: u32,
}

impl Ranked {
    fn cmp_order(&self, other: &Self) -> Ordering {
        self.key
            .total_cmp(&other.key)
            .then(self.issue_id.cmp(&other.issue_id))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_order(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_order(other)
    }
}

impl Index {
    /// The page nearest first; `None` until the R-tree is built.
    pub(super) fn nearest_page(&self, filter: &ReportFilter) -> Option<ListPage<IndexRow>> {
        let near = filter.near.as_ref()?;
        let tree = self.located.as_ref()?;
        let (offset, limit) = (filter.page.offset as usize, filter.page.limit as usize);
        let needed = offset + limit + 1;
        let nearness = Nearness::new(self.order, near.point);
        // The `needed` best so far, the worst on top.
        let mut best: BinaryHeap<Ranked> = BinaryHeap::with_capacity(needed + 1);
        for (located, distance2) in tree.nearest_neighbor_iter_with_distance_2(&nearness.position())
        {
            if best.len() == needed
                && best
                    .peek()
                    .is_some_and(|worst| nearness.floor(distance2) > worst.key)
            {
                break;
            }
            let slot = located.data;
            let Some(entry) = self.entries.get(slot as usize) else {
                continue;
            };
            let Some(point) = entry.point else { continue };
            if !entry.matches(filter) {
                continue;
            }
            best.push(Ranked {
                key: nearness.key(point),
                issue_id: entry.issue_id,
                slot,
            });
            if best.len() > needed {
                best.pop();
            }
        }
        let located = best.into_sorted_vec().into_iter().map(|ranked| ranked.slot);
        let unlocated = self.unlocated.iter().map(|(_, slot)| *slot);
        let rows = located
            .chain(unlocated.filter(|slot| {
                self.entries
                    .get(*slot as usize)
                    .is_some_and(|entry| entry.matches(filter))
            }))
            .filter_map(|slot| self.entries.get(slot as usize))
            .skip(offset)
            .take(limit + 1)
            .map(|entry| entry.row())
            .collect();
        Some(ListPage::from_overfetch(rows, filter.page.limit))
    }
}
