//! The index's pages against a brute-force oracle: every issue as last written, filtered,
//! sorted by (filing time, id) in the asked direction, skipped and cut, over random cities with
//! ties in filing time, moves and changes applied in several reads.

use chrono::{DateTime, TimeDelta, Utc};
use domain::geo::{LocationParam, LonLat};
use domain::issues::IssueStatus;
use domain::limits::Page;
use domain::reports::{Direction, Order, OrderBy};
use uuid::Uuid;

use super::{Index, IndexRow};
use crate::store::{IssueChanges, IssueState, ReportFilter};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: [&str; 5] = ["lampa", "vytluk", "lavicka", "graffiti", "strom"];
const STATUSES: [IssueStatus; 5] = [
    IssueStatus::Open,
    IssueStatus::Accepted,
    IssueStatus::Resolved,
    IssueStatus::Duplicate,
    IssueStatus::Moved,
];

fn at(second: i64) -> DateTime<Utc> {
    DateTime::<Utc>::UNIX_EPOCH + TimeDelta::seconds(1_700_000_000 + second)
}

fn issue(rng: &mut Rng, categories: &[Uuid], n: u32) -> IssueState {
    IssueState {
        issue_id: Uuid::from_u128(u128::from(n) * 7_919 % 10_007),
        report_id: Uuid::from_u128(1_000_000 + u128::from(n)),
        category_id: categories[rng.below(categories.len())],
        status: STATUSES[rng.below(STATUSES.len())],
        // Few distinct instants: many ties, broken by id.
        filed_at: at(rng.below(40) as i64),
        point: (rng.below(3) > 0).then_some(LonLat {
            lon: 14.4,
            lat: 50.1,
        }),
        version: rng.below(5) as i64,
        search: format!(
            "{} {} {n}",
            WORDS[rng.below(WORDS.len())],
            WORDS[rng.below(WORDS.len())]
        ),
    }
}

fn oracle(issues: &[IssueState], filter: &ReportFilter) -> (Vec<IndexRow>, bool) {
    let mut rows: Vec<&IssueState> = issues
        .iter()
        .filter(|i| i.status != IssueStatus::Moved)
        .filter(|i| filter.categories.is_empty() || filter.categories.contains(&i.category_id))
        .filter(|i| filter.statuses.is_empty() || filter.statuses.contains(&i.status))
        .filter(|i| filter.q.as_deref().is_none_or(|q| i.search.contains(q)))
        .filter(|i| filter.date_from.is_none_or(|from| i.filed_at >= from))
        .filter(|i| filter.date_to.is_none_or(|to| i.filed_at <= to))
        .collect();
    rows.sort_by_key(|i| (i.filed_at, i.issue_id));
    if filter.order.direction == Direction::Desc {
        rows.reverse();
    }
    let rest: Vec<IndexRow> = rows
        .into_iter()
        .skip(filter.page.offset as usize)
        .map(|i| IndexRow {
            issue_id: i.issue_id,
            report_id: i.report_id,
            version: i.version,
            point: i.point,
        })
        .collect();
    let has_next = rest.len() > filter.page.limit as usize;
    (
        rest.into_iter().take(filter.page.limit as usize).collect(),
        has_next,
    )
}

fn filter(rng: &mut Rng, categories: &[Uuid]) -> ReportFilter {
    let pick =
        |rng: &mut Rng, n: usize| (0..rng.below(3)).map(|_| rng.below(n)).collect::<Vec<_>>();
    let from = (rng.below(3) == 0).then(|| at(rng.below(40) as i64));
    let to = (rng.below(3) == 0).then(|| at(rng.below(40) as i64));
    ReportFilter {
        categories: pick(rng, categories.len())
            .into_iter()
            .map(|k| categories[k])
            .collect(),
        statuses: pick(rng, STATUSES.len())
            .into_iter()
            .map(|k| STATUSES[k])
            .collect(),
        q: (rng.below(3) == 0).then(|| WORDS[rng.below(WORDS.len())][1..4].to_owned()),
        near: (rng.below(4) == 0).then_some(LocationParam {
            point: LonLat {
                lon: 14.42,
                lat: 50.08,
            },
            radius_m: None,
        }),
        date_from: from,
        date_to: to,
        order: Order {
            by: OrderBy::Date,
            direction: if rng.below(2) == 0 {
                Direction::Desc
            } else {
                Direction::Asc
            },
        },
        page: Page {
            limit: 1 + rng.below(12) as u32,
            offset: rng.below(8) as u32,
        },
    }
}

#[test]
fn pages_equal_the_oracle_over_ties_moves_and_changes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let categories: Vec<Uuid> = (1..=4).map(Uuid::from_u128).collect();
    let mut index = Index::default();
    let mut current: Vec<IssueState> = Vec::new();
    for round in 0..6u32 {
        // Each read: new issues, and changes of some held ones (a move, a step, a new version).
        let mut read = Vec::new();
        for n in 0..40 {
            read.push(issue(&mut rng, &categories, round * 40 + n));
        }
        for _ in 0..current.len() / 4 {
            let mut changed = current[rng.below(current.len())].clone();
            changed.status = STATUSES[rng.below(STATUSES.len())];
            changed.category_id = categories[rng.below(categories.len())];
            changed.version += 1;
            read.push(changed);
        }
        for state in &read {
            match current.iter_mut().find(|i| i.issue_id == state.issue_id) {
                Some(held) => *held = state.clone(),
                None => current.push(state.clone()),
            }
        }
        index.apply(IssueChanges {
            next: i64::from(round) + 1,
            issues: read,
        });
        assert_eq!(index.position(), i64::from(round) + 1);
        assert_eq!(index.len(), current.len());
        for _ in 0..200 {
            let filter = filter(&mut rng, &categories);
            let page = index.page(&filter).expect("served");
            let (rows, has_next) = oracle(&current, &filter);
            assert_eq!((page.rows, page.has_next), (rows, has_next), "{filter:?}");
        }
    }
}

#[test]
fn orders_by_location_votes_or_within_a_radius_are_left_to_the_database() {
    let mut rng = Rng(7);
    let categories = [Uuid::from_u128(1)];
    let mut base = filter(&mut rng, &categories);
    base.near = None;
    assert!(Index::default().page(&base).is_some());
    for by in [OrderBy::Location, OrderBy::Votes] {
        let mut other = base.clone();
        other.order.by = by;
        assert!(Index::default().page(&other).is_none(), "{by:?}");
    }
    let mut within = base.clone();
    within.near = Some(LocationParam {
        point: LonLat {
            lon: 14.42,
            lat: 50.08,
        },
        radius_m: Some(500.0),
    });
    assert!(Index::default().page(&within).is_none());
}
