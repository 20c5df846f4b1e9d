//! The officers' pages from the index against a brute-force oracle: every report with its
//! listed issues as last written, selected by access and by one accessible issue matching
//! category, status and `overdue`, sorted by (filing time, report id) in the asked direction,
//! skipped and cut; over random cities where reports hold one to three issues, many reports
//! share a filing instant, and issues change between reads.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, TimeDelta, Utc};
use domain::geo::{LonLat, NearestOrder};
use domain::issues::{is_overdue, IssueStatus};
use domain::limits::Page;
use domain::reports::{Direction, Order, OrderBy};
use test_support::XorShift;
use uuid::Uuid;

use super::super::model::tests::{hold, STATUSES};
use super::{AdminIssueRow, AdminRow, Index};
use crate::store::admin::{Access, AdminFilter};
use crate::store::{IssueChanges, IssueState, ReportFilter};

const DAY: i64 = 86_400;

fn at(second: i64) -> DateTime<Utc> {
    DateTime::<Utc>::UNIX_EPOCH + TimeDelta::seconds(1_700_000_000 + second)
}

/// Report `n` with one to three issues, filed at one of few instants (many ties), each issue
/// placed at or after the filing.
fn report(rng: &mut XorShift, categories: &[Uuid], n: u32) -> Vec<IssueState> {
    let filed = rng.below(30) as i64 * DAY / 10;
    let point = (rng.below(3) > 0).then(|| LonLat {
        lon: 14.4 + 0.001 * rng.below(20) as f64,
        lat: 50.08,
    });
    let search = format!("report {} {n}", ["lampa", "vytluk", "strom"][rng.below(3)]);
    (0..1 + rng.below(3))
        .map(|k| IssueState {
            issue_id: Uuid::from_u128(u128::from(n) * 7_919 % 10_007 * 4 + k as u128),
            // Report ids in another order than their issues' ids.
            report_id: Uuid::from_u128(1_000_000 - u128::from(n)),
            category_id: categories[rng.below(categories.len())],
            status: STATUSES[rng.below(STATUSES.len())],
            filed_at: at(filed),
            point,
            version: rng.below(5) as i64,
            search: search.clone(),
            placed_at: at(filed + rng.below(4) as i64 * DAY),
            has_possible_duplicates: rng.below(2) == 0,
            parent_id: (rng.below(4) == 0).then(|| Uuid::from_u128(7)),
        })
        .collect()
}

fn oracle(
    issues: &[IssueState],
    filter: &AdminFilter,
    deadlines: &HashMap<Uuid, u32>,
) -> (Vec<AdminRow>, bool) {
    let list = &filter.list;
    let mut reports: BTreeMap<Uuid, Vec<&IssueState>> = BTreeMap::new();
    for issue in issues.iter().filter(|i| i.status != IssueStatus::Moved) {
        reports.entry(issue.report_id).or_default().push(issue);
    }
    let now = filter.now.timestamp_micros();
    let mut rows: Vec<(DateTime<Utc>, AdminRow)> = Vec::new();
    for (report_id, mut listed) in reports {
        listed.sort_by_key(|i| (i.placed_at, i.issue_id));
        let first = listed[0];
        let accessible: Vec<&&IssueState> = listed
            .iter()
            .filter(|i| filter.access.allows(i.category_id))
            .collect();
        let matching = accessible.iter().any(|i| {
            (list.categories.is_empty() || list.categories.contains(&i.category_id))
                && (list.statuses.is_empty() || list.statuses.contains(&i.status))
                && filter.overdue.is_none_or(|want| {
                    let deadline = deadlines.get(&i.category_id).copied();
                    is_overdue(i.status, i.placed_at.timestamp_micros(), deadline, now) == want
                })
        });
        let text = list.q.as_deref().is_none_or(|q| first.search.contains(q));
        let dates = list.date_from.is_none_or(|from| first.filed_at >= from)
            && list.date_to.is_none_or(|to| first.filed_at <= to);
        if matching && text && dates {
            let issues = accessible
                .iter()
                .map(|i| AdminIssueRow {
                    issue_id: i.issue_id,
                    category_id: i.category_id,
                    status: i.status,
                    placed_at: i.placed_at.timestamp_micros(),
                    has_possible_duplicates: i.has_possible_duplicates,
                    parent_id: i.parent_id,
                })
                .collect();
            let row = AdminRow {
                report_id,
                head: (first.issue_id, first.version),
                point: first.point,
                issues,
                votes_count: 0,
            };
            rows.push((first.filed_at, row));
        }
    }
    rows.sort_by_key(|(filed, row)| (*filed, row.report_id));
    if list.order.direction == Direction::Desc {
        rows.reverse();
    }
    let rest: Vec<AdminRow> = rows
        .into_iter()
        .map(|(_, row)| row)
        .skip(list.page.offset as usize)
        .collect();
    let has_next = rest.len() > list.page.limit as usize;
    (
        rest.into_iter().take(list.page.limit as usize).collect(),
        has_next,
    )
}

fn filter(rng: &mut XorShift, categories: &[Uuid]) -> AdminFilter {
    let pick = |rng: &mut XorShift| {
        (0..rng.below(3))
            .map(|_| categories[rng.below(categories.len())])
            .collect::<Vec<_>>()
    };
    let access = match rng.below(3) {
        0 => Access::All,
        _ => Access::Categories(pick(rng)),
    };
    AdminFilter {
        list: ReportFilter {
            categories: pick(rng),
            statuses: (0..rng.below(3))
                .map(|_| STATUSES[rng.below(STATUSES.len())])
                .collect(),
            q: (rng.below(4) == 0).then(|| ["lampa", "vytluk", "strom"][rng.below(3)].to_owned()),
            near: None,
            date_from: (rng.below(4) == 0).then(|| at(rng.below(30) as i64 * DAY / 10)),
            date_to: (rng.below(4) == 0).then(|| at(rng.below(30) as i64 * DAY / 10)),
            order: Order {
                by: OrderBy::Date,
                direction: [Direction::Desc, Direction::Asc][rng.below(2)],
            },
            page: Page {
                limit: 1 + rng.below(12) as u32,
                offset: rng.below(10) as u32,
            },
        },
        overdue: [None, Some(true), Some(false)][rng.below(3)],
        access,
        // From before the first filing to days after the last placement.
        now: at(rng.below(80) as i64 * DAY / 10 - DAY),
    }
}

#[test]
fn admin_pages_equal_the_oracle_over_random_cities_and_changes() {
    let mut rng = XorShift(20_261_126);
    let categories: Vec<Uuid> = (1..=4).map(Uuid::from_u128).collect();
    let deadlines = HashMap::from([(categories[0], 1), (categories[1], 3)]);
    let mut index = Index::new(NearestOrder::LocalPlane);
    let mut current: Vec<IssueState> = Vec::new();
    for round in 0..4_u32 {
        let mut read: Vec<IssueState> = (0..40)
            .flat_map(|k| report(&mut rng, &categories, round * 40 + k))
            .collect();
        for _ in 0..current.len() / 4 {
            let mut changed = current[rng.below(current.len())].clone();
            changed.status = STATUSES[rng.below(STATUSES.len())];
            changed.category_id = categories[rng.below(categories.len())];
            changed.has_possible_duplicates = !changed.has_possible_duplicates;
            changed.version += 1;
            read.push(changed);
        }
        hold(&mut current, &read);
        index.apply(IssueChanges {
            next: i64::from(round) + 1,
            categories: 1,
            issues: read,
        });
        for _ in 0..400 {
            let filter = filter(&mut rng, &categories);
            let page = index.admin_page(&filter, &deadlines).expect("served");
            let (rows, has_next) = oracle(&current, &filter, &deadlines);
            assert_eq!((page.rows, page.has_next), (rows, has_next), "{filter:?}");
        }
    }
}

#[test]
fn admin_pages_by_place_or_votes_or_within_a_radius_are_left_to_the_database() {
    let mut rng = XorShift(3);
    let index = Index::new(NearestOrder::LocalPlane);
    let base = filter(&mut rng, &[Uuid::from_u128(1)]);
    let near = domain::geo::LocationParam {
        point: LonLat {
            lon: 14.42,
            lat: 50.08,
        },
        radius_m: None,
    };
    for (by, near, served) in [
        (OrderBy::Date, None, true),
        (OrderBy::Date, Some(near), true),
        (
            OrderBy::Date,
            Some(domain::geo::LocationParam {
                radius_m: Some(500.0),
                ..near
            }),
            false,
        ),
        (OrderBy::Location, Some(near), false),
        (OrderBy::Votes, None, false),
    ] {
        let mut other = base.clone();
        other.list.order.by = by;
        other.list.near = near;
        assert_eq!(
            index.admin_page(&other, &HashMap::new()).is_some(),
            served,
            "{by:?} {near:?}"
        );
    }
}
