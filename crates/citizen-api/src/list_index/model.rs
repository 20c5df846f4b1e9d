//! The index itself: every issue as the issue feed last read it, and the listed ones (not moved)
//! in the public list's date order and in space, so a page by date or nearest first is a walk of
//! memory with the same filters, order and ties as the database's statement
//! (`store/*/reports.rs`, `store/*/nearest.rs`; the walk nearest first is `nearest.rs`).

use std::collections::BTreeSet;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, OnceLock};

use domain::geo::{LonLat, NearestOrder, SearchSpace};
use domain::issues::IssueStatus;
use domain::reports::{Direction, OrderBy};
use uuid::Uuid;

use super::grid::{Grid, Located};
use super::heads::rows;
use super::votes::{active, Expiries, VoteTally};
use crate::id_map::IdMap;
use crate::store::{
    FeedMark, Instant, IssueChanges, IssueState, ListPage, ReportFilter, VoteChanges,
};

/// One issue as the index keeps it.
pub(super) struct Entry {
    pub(super) issue_id: Uuid,
    pub(super) report_id: Uuid,
    pub(super) category_id: Uuid,
    pub(super) status: IssueStatus,
    /// Its report's filing time, in microseconds (the list's date order).
    pub(super) filed: i64,
    pub(super) point: Option<LonLat>,
    pub(super) version: i64,
    pub(super) search: Box<str>,
    /// Its report's active vote tokens' expiry instants, as the tally holds them
    /// (`Index::apply_votes`): a page counts a row's votes from the entry it has read anyway.
    pub(super) votes: Expiries,
    /// When the report was placed in the category, in microseconds (the admin list).
    pub(super) placed: i64,
    pub(super) has_possible_duplicates: bool,
    pub(super) parent_id: Option<Uuid>,
    /// The slot of the report's issue held before this one ([`NO_SLOT`]: none): a report's
    /// issues are a chain from [`Index::reports`] (an issue never changes report).
    pub(super) same_report: u32,
    /// The public list's JSON of this row written from `version` ([`Index::keep_head`]), handed
    /// with the row: the row cache's copy, found without a lookup in a map of a million (a
    /// cache miss a row). An entry read at another version is a new entry, without it.
    pub(super) head: OnceLock<Arc<str>>,
}

/// The end of a report's chain of issues.
const NO_SLOT: u32 = u32::MAX;

impl Entry {
    pub(super) fn listed(&self) -> bool {
        self.status != IssueStatus::Moved
    }

    /// Whether the list's filters other than the location select this issue.
    pub(super) fn matches(&self, filter: &ReportFilter) -> bool {
        (filter.categories.is_empty() || filter.categories.contains(&self.category_id))
            && (filter.statuses.is_empty() || filter.statuses.contains(&self.status))
            && filter.q.as_deref().is_none_or(|q| self.search.contains(q))
            && filter
                .date_from
                .is_none_or(|from| self.filed >= from.timestamp_micros())
            && filter
                .date_to
                .is_none_or(|to| self.filed <= to.timestamp_micros())
    }

    /// The row, with its vote count at `now` (microseconds).
    pub(super) fn row(&self, now: i64) -> IndexRow {
        IndexRow {
            issue_id: self.issue_id,
            report_id: self.report_id,
            version: self.version,
            point: self.point,
            votes_count: active(Some(&self.votes), now),
            head: self.head.get().cloned(),
        }
    }
}

/// A row of a page served from the index: what the page's statement would have read, with its
/// report's vote count at the request's instant, and its list JSON when the index holds it at
/// the row's version (`ListIndex::keep_heads`).
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub issue_id: Uuid,
    pub report_id: Uuid,
    pub version: i64,
    pub point: Option<LonLat>,
    pub votes_count: i64,
    pub head: Option<Arc<str>>,
}

/// Every issue, and the listed ones by (filing time, issue id): the list's order by date, ties
/// by id in the same direction; the listed ones with a point in a grid (`grid.rs`), those without by id
/// (they follow the located ones nearest first). Entries sit in one vector (a map of 1 000 000
/// whole entries would take twice the room in empty slots); the map and the orders name their
/// slot.
pub struct Index {
    pub(super) slots: IdMap<u32>,
    /// Each report's newest-held issue: the head of its chain (`Entry::same_report`).
    reports: IdMap<u32>,
    pub(super) entries: Vec<Entry>,
    pub(super) by_date: BTreeSet<(i64, Uuid, u32)>,
    /// Where `located` places points: the backend's order nearest first, the local plane fitted
    /// to the city's latitude when the grid is first built ([`Self::locate`]).
    pub(super) space: SearchSpace,
    /// Built at the end of the first load ([`Self::locate`]: the space is fitted and the cells
    /// sized to every point at once), kept up to date after it.
    pub(super) located: Option<Grid>,
    pub(super) unlocated: BTreeSet<(Uuid, u32)>,
    /// The feed position to read from next.
    position: i64,
    /// The categories' generation the last feed read saw.
    categories: i64,
    /// The active vote tokens by target, from the vote feed (`votes.rs`).
    pub(super) votes: VoteTally,
    /// Entries holding a head (`Entry::head`), and at most how many may: the row cache's size
    /// ([`Self::keep_heads_up_to`]; 0 until set), so the heads held here beside the row cache
    /// stay within its bound.
    pub(super) heads: AtomicUsize,
    pub(super) max_heads: usize,
}

impl Index {
    /// An empty index of a backend that orders nearest first by `order`.
    pub fn new(order: NearestOrder) -> Self {
        Self {
            slots: IdMap::default(),
            reports: IdMap::default(),
            entries: Vec::new(),
            by_date: BTreeSet::new(),
            space: SearchSpace::plain(order),
            located: None,
            unlocated: BTreeSet::new(),
            position: 0,
            categories: 0,
            votes: VoteTally::default(),
            heads: AtomicUsize::new(0),
            max_heads: 0,
        }
    }

    /// The listed issues newest first, at most `limit`, with the version each is held at.
    pub fn newest(&self, limit: usize) -> Vec<(Uuid, i64)> {
        self.by_date
            .iter()
            .rev()
            .filter_map(|(_, id, slot)| self.entries.get(*slot as usize).map(|e| (*id, e.version)))
            .take(limit)
            .collect()
    }

    /// Builds the grid of the listed issues with a point (after the first load), in the space
    /// fitted to the middle of their latitudes (kept for every later point).
    pub fn locate(&mut self) {
        let points = || {
            self.entries
                .iter()
                .zip(0u32..)
                .filter(|(entry, _)| entry.listed())
                .filter_map(|(entry, slot)| entry.point.map(|point| (slot, point)))
        };
        let (south, north) = points().fold((f64::MAX, f64::MIN), |(s, n), (_, point)| {
            (s.min(point.lat), n.max(point.lat))
        });
        let middle = if south <= north {
            (south + north) / 2.0
        } else {
            0.0
        };
        let space = SearchSpace::around(self.space.order(), middle);
        let located = points()
            .map(|(slot, point)| Located {
                position: space.position(point),
                slot,
                point,
            })
            .collect();
        self.space = space;
        self.located = Some(Grid::build(located));
    }

    /// The feed position to read from next.
    pub fn position(&self) -> i64 {
        self.position
    }

    /// After a read handed to [`Self::put`] issue by issue: where it ended.
    pub fn set_mark(&mut self, mark: FeedMark) {
        self.position = mark.next;
        self.categories = mark.categories;
    }

    /// The categories' generation the last feed read saw (migration 0025).
    pub fn categories(&self) -> i64 {
        self.categories
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
        self.categories = changes.categories;
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
            placed_at,
            has_possible_duplicates,
            parent_id,
        } = issue;
        let mut entry = Entry {
            issue_id,
            report_id,
            category_id,
            status,
            filed: filed_at.timestamp_micros(),
            point,
            version,
            search: search.into_boxed_str(),
            votes: self.votes.expiries(&report_id),
            placed: placed_at.timestamp_micros(),
            has_possible_duplicates,
            parent_id,
            same_report: NO_SLOT,
            head: OnceLock::new(),
        };
        let slot = match self.slots.get(&issue_id) {
            Some(&slot) => {
                if let Some(old) = self.entries.get_mut(slot as usize) {
                    entry.same_report = old.same_report;
                    let old = std::mem::replace(old, entry);
                    if old.head.get().is_some() {
                        *self.heads.get_mut() -= 1;
                    }
                    self.unlist(&old, slot);
                }
                slot
            }
            None => {
                // More than u32::MAX issues is far past any cap (`reports.index_max_items`).
                let slot = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
                entry.same_report = self.reports.insert(report_id, slot).unwrap_or(NO_SLOT);
                self.entries.push(entry);
                self.slots.insert(issue_id, slot);
                slot
            }
        };
        if let Some(entry) = self.entries.get(slot as usize) {
            if entry.listed() {
                self.by_date.insert((entry.filed, issue_id, slot));
                match entry.point {
                    Some(point) => {
                        if let Some(grid) = self.located.as_mut() {
                            grid.insert(Located {
                                position: self.space.position(point),
                                slot,
                                point,
                            });
                        }
                    }
                    None => {
                        self.unlocated.insert((issue_id, slot));
                    }
                }
            }
        }
    }

    /// Takes what was held of an issue out of the orders.
    fn unlist(&mut self, old: &Entry, slot: u32) {
        if !old.listed() {
            return;
        }
        self.by_date.remove(&(old.filed, old.issue_id, slot));
        match old.point {
            Some(point) => {
                if let Some(grid) = self.located.as_mut() {
                    grid.remove(&self.space.position(point), slot);
                }
            }
            None => {
                self.unlocated.remove(&(old.issue_id, slot));
            }
        }
    }

    /// Whether a page of `filter` is served from the index: the order by date (with or without
    /// a point for the rows' distance) and nearest first, with no radius (which the database
    /// measures on the ellipsoid).
    pub fn serves(filter: &ReportFilter) -> bool {
        let no_radius = filter.near.as_ref().is_none_or(|n| n.radius_m.is_none());
        let order = match filter.order.by {
            OrderBy::Date => true,
            OrderBy::Location => filter.near.is_some() && filter.order.direction == Direction::Asc,
            OrderBy::Votes => false,
        };
        order && no_radius
    }

    /// What the public detail of `report_id` is kept under, as `ReportStore::report_detail_key`
    /// reads it: the sum of `row_version + 1` over the report's issues (moved ones too), and
    /// its active vote tokens at `now`; `None` when no issue of it is held (no such report).
    pub fn detail_key(&self, report_id: Uuid, now: Instant) -> Option<(i64, i64)> {
        let mut slot = *self.reports.get(&report_id)?;
        let mut version = 0i64;
        while let Some(entry) = self.entries.get(slot as usize) {
            version = version.saturating_add(entry.version.saturating_add(1));
            slot = entry.same_report;
        }
        Some((version, self.votes.count(report_id, now)))
    }

    /// Applies one read of the vote feed to the tally, and copies what changed to the entries
    /// of the reports it changed.
    pub fn apply_votes(&mut self, changes: VoteChanges) {
        for report_id in self.votes.apply(changes) {
            let held = self.votes.expiries(&report_id);
            let mut slot = self.reports.get(&report_id).copied().unwrap_or(NO_SLOT);
            while let Some(entry) = self.entries.get_mut(slot as usize) {
                entry.votes = held.clone();
                slot = entry.same_report;
            }
        }
    }

    /// Copies the tally to every entry (after a load, which fills the tally token by token).
    pub fn copy_votes(&mut self) {
        let votes = &self.votes;
        for entry in &mut self.entries {
            entry.votes = votes.expiries(&entry.report_id);
        }
    }

    /// The page of `filter` (`None` when the index does not serve it, [`Self::serves`]), each
    /// row with its report's active vote tokens at `now`.
    pub fn page(&self, filter: &ReportFilter, now: Instant) -> Option<ListPage<IndexRow>> {
        if !Self::serves(filter) {
            return None;
        }
        let now = now.timestamp_micros();
        if filter.order.by == OrderBy::Location {
            return self.nearest_page(filter, now);
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
        let entries = listed
            .filter_map(|(_, _, slot)| self.entries.get(*slot as usize))
            .filter(|e| e.matches(filter))
            .skip(filter.page.offset as usize)
            .take(filter.page.limit as usize + 1)
            .collect();
        Some(ListPage::from_overfetch(
            rows(entries, now),
            filter.page.limit,
        ))
    }
}

#[cfg(test)]
#[path = "tests.rs"]
pub(super) mod tests;
