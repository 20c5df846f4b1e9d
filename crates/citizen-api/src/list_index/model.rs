//! The index itself: every issue as the issue feed last read it, and the listed ones (not moved)
//! in the public list's date order, so a page by date is a walk of memory with the same filters,
//! order and ties as the database's statement (`store/*/reports.rs`).

use std::collections::{BTreeSet, HashMap};

use domain::geo::LonLat;
use domain::issues::IssueStatus;
use domain::reports::{Direction, OrderBy};
use uuid::Uuid;

use crate::store::{IssueChanges, IssueState, ListPage, ReportFilter};

/// One issue as the index keeps it.
struct Entry {
    report_id: Uuid,
    category_id: Uuid,
    status: IssueStatus,
    /// Its report's filing time, in microseconds (the list's date order).
    filed: i64,
    point: Option<LonLat>,
    version: i64,
    search: Box<str>,
}

/// A row of a page served from the index: what the page's statement would have read, but the
/// vote count (counted at the request's instant).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexRow {
    pub issue_id: Uuid,
    pub report_id: Uuid,
    pub version: i64,
    pub point: Option<LonLat>,
}

/// Every issue, and the listed ones by (filing time, issue id): the list's order by date, ties
/// by id in the same direction. Entries sit in one vector (a map of 1 000 000 whole entries
/// would take twice the room in empty slots); the map and the order name their slot.
#[derive(Default)]
pub struct Index {
    slots: HashMap<Uuid, u32>,
    entries: Vec<Entry>,
    by_date: BTreeSet<(i64, Uuid, u32)>,
    /// The feed position to read from next.
    position: i64,
}

impl Index {
    /// The feed position to read from next.
    pub fn position(&self) -> i64 {
        self.position
    }

    /// After a read handed to [`Self::put`] issue by issue: the position it answered.
    pub fn set_position(&mut self, position: i64) {
        self.position = position;
    }

    /// Issues held (moved ones too).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Applies one read of the feed: each issue read replaces what was held of it.
    pub fn apply(&mut self, changes: IssueChanges) {
        for issue in changes.issues {
            self.put(issue);
        }
        self.position = changes.next;
    }

    /// Holds `issue` as read, in place of what was held of it.
    pub fn put(&mut self, issue: IssueState) {
        let IssueState {
            issue_id,
            report_id,
            category_id,
            status,
            filed_at,
            point,
            version,
            search,
        } = issue;
        let filed = filed_at.timestamp_micros();
        let entry = Entry {
            report_id,
            category_id,
            status,
            filed,
            point,
            version,
            search: search.into_boxed_str(),
        };
        let slot = match self.slots.get(&issue_id) {
            Some(&slot) => {
                if let Some(old) = self.entries.get_mut(slot as usize) {
                    self.by_date.remove(&(old.filed, issue_id, slot));
                    *old = entry;
                }
                slot
            }
            None => {
                // More than u32::MAX issues is far past any cap (`reports.index_max_items`).
                let slot = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
                self.entries.push(entry);
                self.slots.insert(issue_id, slot);
                slot
            }
        };
        if status != IssueStatus::Moved {
            self.by_date.insert((filed, issue_id, slot));
        }
    }

    /// Whether a page of `filter` is served from the index: the order by date (with or without
    /// a point for the rows' distance), and no radius, which the database measures.
    pub fn serves(filter: &ReportFilter) -> bool {
        filter.order.by == OrderBy::Date
            && filter.near.as_ref().is_none_or(|n| n.radius_m.is_none())
    }

    /// The page of `filter` (`None` when the index does not serve it, [`Self::serves`]).
    pub fn page(&self, filter: &ReportFilter) -> Option<ListPage<IndexRow>> {
        if !Self::serves(filter) {
            return None;
        }
        let from = filter.date_from.map_or(i64::MIN, |t| t.timestamp_micros());
        let to = filter.date_to.map_or(i64::MAX, |t| t.timestamp_micros());
        if from > to {
            return Some(ListPage::from_overfetch(Vec::new(), filter.page.limit));
        }
        let range = self
            .by_date
            .range((from, Uuid::nil(), 0)..=(to, Uuid::max(), u32::MAX));
        let listed: Box<dyn Iterator<Item = &(i64, Uuid, u32)>> = match filter.order.direction {
            Direction::Desc => Box::new(range.rev()),
            Direction::Asc => Box::new(range),
        };
        let q = filter.q.as_deref();
        let rows = listed
            .filter_map(|(_, id, slot)| self.entries.get(*slot as usize).map(|entry| (*id, entry)))
            .filter(|(_, e)| {
                (filter.categories.is_empty() || filter.categories.contains(&e.category_id))
                    && (filter.statuses.is_empty() || filter.statuses.contains(&e.status))
                    && q.is_none_or(|q| e.search.contains(q))
            })
            .skip(filter.page.offset as usize)
            .take(filter.page.limit as usize + 1)
            .map(|(issue_id, e)| IndexRow {
                issue_id,
                report_id: e.report_id,
                version: e.version,
                point: e.point,
            })
            .collect();
        Some(ListPage::from_overfetch(rows, filter.page.limit))
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
