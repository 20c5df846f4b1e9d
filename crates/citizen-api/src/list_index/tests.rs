//! The index's pages against a brute-force oracle: every issue as last written, filtered,
//! sorted by (filing time, id) in the asked direction, skipped and cut, over random cities with
//! ties in filing time, moves and changes applied in several reads; nearest first, every point
//! measured by the backend's key and sorted with its ties by id, then the rows without a point.

use std::collections::HashMap;

use chrono::{DateTime, TimeDelta, Utc};
use domain::geo::{LocationParam, LonLat, NearestOrder, Nearness};
use domain::issues::IssueStatus;
use domain::limits::Page;
use domain::reports::{Direction, Order, OrderBy};
use test_support::XorShift;
use uuid::Uuid;

use super::{Index, IndexRow};
use crate::store::{IssueChanges, IssueState, ReportFilter, VoteChanges, VoteState};

const WORDS: [&str; 5] = ["lampa", "vytluk", "lavicka", "graffiti", "strom"];
/// Every status an issue may be read with (shared with the officers' oracle).
pub(in crate::list_index) const STATUSES: [IssueStatus; 5] = [
    IssueStatus::Open,
    IssueStatus::Accepted,
    IssueStatus::Resolved,
    IssueStatus::Duplicate,
    IssueStatus::Moved,
];

/// What the oracle holds after a read of the feed: each issue read replaces the one held, or
/// is added (shared with the officers' oracle).
pub(in crate::list_index) fn hold(current: &mut Vec<IssueState>, read: &[IssueState]) {
    for state in read {
        match current.iter_mut().find(|i| i.issue_id == state.issue_id) {
            Some(held) => *held = state.clone(),
            None => current.push(state.clone()),
        }
    }
}

fn at(second: i64) -> DateTime<Utc> {
    DateTime::<Utc>::UNIX_EPOCH + TimeDelta::seconds(1_700_000_000 + second)
}

fn issue(rng: &mut XorShift, city: LonLat, categories: &[Uuid], n: u32) -> IssueState {
    IssueState {
        issue_id: Uuid::from_u128(u128::from(n) * 7_919 % 10_007),
        report_id: Uuid::from_u128(1_000_000 + u128::from(n)),
        category_id: categories[rng.below(categories.len())],
        status: STATUSES[rng.below(STATUSES.len())],
        // Few distinct instants: many ties, broken by id.
        filed_at: at(rng.below(40) as i64),
        point: point(rng, city),
        version: rng.below(5) as i64,
        search: format!(
            "{} {} {n}",
            WORDS[rng.below(WORDS.len())],
            WORDS[rng.below(WORDS.len())]
        ),
        placed_at: at(40 + rng.below(40) as i64),
        has_possible_duplicates: rng.below(2) == 0,
        parent_id: None,
    }
}

/// A third without a point; the others on a small grid from the city's corner, so that points
/// repeat (ties by id).
fn point(rng: &mut XorShift, city: LonLat) -> Option<LonLat> {
    (rng.below(3) > 0).then(|| LonLat {
        lon: wrap(city.lon + 0.01 * rng.below(6) as f64),
        lat: city.lat + 0.007 * rng.below(6) as f64,
    })
}

/// A longitude past 180 on the other side (a city across the antimeridian).
fn wrap(lon: f64) -> f64 {
    if lon > 180.0 {
        lon - 360.0
    } else {
        lon
    }
}

/// The oracle's page of `filter`; `votes` are the active tokens by report at the page's
/// instant.
fn oracle(
    order: NearestOrder,
    issues: &[IssueState],
    votes: &HashMap<Uuid, i64>,
    filter: &ReportFilter,
) -> (Vec<IndexRow>, bool) {
    let mut rows: Vec<&IssueState> = issues
        .iter()
        .filter(|i| i.status != IssueStatus::Moved)
        .filter(|i| filter.categories.is_empty() || filter.categories.contains(&i.category_id))
        .filter(|i| filter.statuses.is_empty() || filter.statuses.contains(&i.status))
        .filter(|i| filter.q.as_deref().is_none_or(|q| i.search.contains(q)))
        .filter(|i| filter.date_from.is_none_or(|from| i.filed_at >= from))
        .filter(|i| filter.date_to.is_none_or(|to| i.filed_at <= to))
        .collect();
    match (filter.order.by, &filter.near) {
        (OrderBy::Location, Some(near)) => {
            let nearness = Nearness::new(order, near.point);
            let key = |i: &IssueState| i.point.map(|p| nearness.key(p));
            rows.sort_by(|a, b| match (key(a), key(b)) {
                (Some(x), Some(y)) => x.total_cmp(&y).then(a.issue_id.cmp(&b.issue_id)),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => a.issue_id.cmp(&b.issue_id),
            });
        }
        _ => {
            rows.sort_by_key(|i| (i.filed_at, i.issue_id));
            if filter.order.direction == Direction::Desc {
                rows.reverse();
            }
        }
    }
    let rest: Vec<IndexRow> = rows
        .into_iter()
        .skip(filter.page.offset as usize)
        .map(|i| IndexRow {
            votes_count: votes.get(&i.report_id).copied().unwrap_or(0),
            issue_id: i.issue_id,
            report_id: i.report_id,
            version: i.version,
            point: i.point,
            head: None,
        })
        .collect();
    let has_next = rest.len() > filter.page.limit as usize;
    (
        rest.into_iter().take(filter.page.limit as usize).collect(),
        has_next,
    )
}

fn filter(rng: &mut XorShift, city: LonLat, categories: &[Uuid]) -> ReportFilter {
    let pick =
        |rng: &mut XorShift, n: usize| (0..rng.below(3)).map(|_| rng.below(n)).collect::<Vec<_>>();
    let from = (rng.below(3) == 0).then(|| at(rng.below(40) as i64));
    let to = (rng.below(3) == 0).then(|| at(rng.below(40) as i64));
    let near = rng.below(2) == 0;
    let nearest = near && rng.below(3) > 0;
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
        near: near.then(|| LocationParam {
            point: LonLat {
                lon: wrap(city.lon - 0.01 + 0.005 * rng.below(14) as f64),
                lat: city.lat - 0.01 + 0.005 * rng.below(10) as f64,
            },
            radius_m: None,
        }),
        date_from: from,
        date_to: to,
        order: if nearest {
            Order {
                by: OrderBy::Location,
                direction: Direction::Asc,
            }
        } else {
            Order {
                by: OrderBy::Date,
                direction: if rng.below(2) == 0 {
                    Direction::Desc
                } else {
                    Direction::Asc
                },
            }
        },
        page: Page {
            limit: 1 + rng.below(12) as u32,
            offset: rng.below(8) as u32,
        },
    }
}

#[test]
fn pages_equal_the_oracle_over_ties_moves_and_changes() {
    // Prague; a city across the antimeridian; one by the North Pole.
    let cities = [(14.40, 50.05), (179.97, -16.5), (10.0, 89.9)];
    for (lon, lat) in cities {
        for order in [NearestOrder::LocalPlane, NearestOrder::Sphere] {
            // The grid built before any read, and after the first (as a load builds it).
            for locate_after in [0, 1] {
                pages_equal_the_oracle(LonLat { lon, lat }, order, locate_after);
            }
        }
    }
}

fn pages_equal_the_oracle(city: LonLat, order: NearestOrder, locate_after: u32) {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let categories: Vec<Uuid> = (1..=4).map(Uuid::from_u128).collect();
    let mut index = Index::new(order);
    let mut current: Vec<IssueState> = Vec::new();
    let mut tokens: HashMap<Uuid, VoteState> = HashMap::new();
    for round in 0..6u32 {
        if round == locate_after {
            index.locate();
        }
        // Each read: new issues, and changes of some held ones (a move, a step, a new place,
        // a new version).
        let mut read = Vec::new();
        for n in 0..40 {
            let mut new = issue(&mut rng, city, &categories, round * 40 + n);
            // Some in a report held already (as a move adds one): reports of several issues.
            if !current.is_empty() && rng.below(4) == 0 {
                new.report_id = current[rng.below(current.len())].report_id;
            }
            read.push(new);
        }
        for _ in 0..current.len() / 4 {
            let mut changed = current[rng.below(current.len())].clone();
            changed.status = STATUSES[rng.below(STATUSES.len())];
            changed.category_id = categories[rng.below(categories.len())];
            if rng.below(4) == 0 {
                changed.point = point(&mut rng, city);
            }
            changed.version += 1;
            read.push(changed);
        }
        hold(&mut current, &read);
        index.apply(IssueChanges {
            next: i64::from(round) + 1,
            categories: 1,
            issues: read,
        });
        assert_eq!(index.position(), i64::from(round) + 1);
        assert_eq!(index.len(), current.len());
        let read = vote_changes(&mut rng, &current, &mut tokens, round);
        index.apply_votes(VoteChanges {
            next: i64::from(round) + 1,
            tokens: read,
        });
        let votes = active_by_report(&tokens);
        // Each report's detail key: the sum of `row_version + 1` over all its issues.
        for held in &current {
            let version: i64 = current
                .iter()
                .filter(|i| i.report_id == held.report_id)
                .map(|i| i.version + 1)
                .sum();
            let count = votes.get(&held.report_id).copied().unwrap_or(0);
            assert_eq!(
                index.detail_key(held.report_id, at(0)),
                Some((version, count)),
                "{order:?} round {round}"
            );
        }
        assert_eq!(index.detail_key(Uuid::from_u128(7), at(0)), None);
        for _ in 0..300 {
            let filter = filter(&mut rng, city, &categories);
            let page = index.page(&filter, at(0));
            if filter.order.by == OrderBy::Location && round < locate_after {
                assert!(page.is_none(), "nearest first waits for the grid");
                continue;
            }
            let page = page.expect("served");
            let (rows, has_next) = oracle(order, &current, &votes, &filter);
            assert_eq!(
                (page.rows, page.has_next),
                (rows, has_next),
                "{order:?} {filter:?}"
            );
        }
    }
    // A load: every issue, then every token into the tally, then the tally to the entries.
    let mut loaded = Index::new(order);
    for issue in &current {
        loaded.put(issue.clone());
    }
    for token in tokens.values() {
        loaded.votes.put(token.clone());
    }
    loaded.copy_votes();
    loaded.locate();
    let votes = active_by_report(&tokens);
    for _ in 0..300 {
        let filter = filter(&mut rng, city, &categories);
        let page = loaded.page(&filter, at(0)).expect("served");
        let (rows, has_next) = oracle(order, &current, &votes, &filter);
        assert_eq!(
            (page.rows, page.has_next),
            (rows, has_next),
            "loaded {filter:?}"
        );
    }
}

/// A read of the vote feed: new tokens on held reports and on one not held yet (its issue
/// comes later), some expired at the pages' instant, and revokes of held ones; `tokens` is the
/// database after it.
fn vote_changes(
    rng: &mut XorShift,
    current: &[IssueState],
    tokens: &mut HashMap<Uuid, VoteState>,
    round: u32,
) -> Vec<VoteState> {
    let mut read = Vec::new();
    for n in 0..30u32 {
        let target = match current.get(rng.below(current.len() + 3)) {
            Some(issue) => issue.report_id,
            None => Uuid::from_u128(1_000_000 + u128::from((round + 1) * 40 + n % 40)),
        };
        let token = VoteState {
            token_id: Uuid::from_u128(5_000_000 + u128::from(round * 100 + n)),
            target_id: target,
            expires_at: [None, Some(at(-1)), Some(at(5))][rng.below(3)],
            revoked: false,
        };
        read.push(token.clone());
        tokens.insert(token.token_id, token);
    }
    let held: Vec<Uuid> = tokens.keys().copied().collect();
    for _ in 0..held.len() / 5 {
        if let Some(token) = tokens.get_mut(&held[rng.below(held.len())]) {
            token.revoked = true;
            read.push(token.clone());
        }
    }
    read
}

/// The active tokens by report at `at(0)`, as the database counts them.
fn active_by_report(tokens: &HashMap<Uuid, VoteState>) -> HashMap<Uuid, i64> {
    let mut counts = HashMap::new();
    for token in tokens.values() {
        if !token.revoked && token.expires_at.is_none_or(|e| e > at(0)) {
            *counts.entry(token.target_id).or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn votes_farthest_first_or_within_a_radius_are_left_to_the_database() {
    let mut rng = XorShift(7);
    let categories = [Uuid::from_u128(1)];
    let mut index = Index::new(NearestOrder::LocalPlane);
    index.locate();
    let prague = LonLat {
        lon: 14.40,
        lat: 50.05,
    };
    let mut base = filter(&mut rng, prague, &categories);
    base.near = Some(LocationParam {
        point: LonLat {
            lon: 14.42,
            lat: 50.08,
        },
        radius_m: None,
    });
    for (by, direction, served) in [
        (OrderBy::Date, Direction::Desc, true),
        (OrderBy::Date, Direction::Asc, true),
        (OrderBy::Location, Direction::Asc, true),
        (OrderBy::Location, Direction::Desc, false),
        (OrderBy::Votes, Direction::Desc, false),
    ] {
        let mut other = base.clone();
        other.order = Order { by, direction };
        assert_eq!(
            index.page(&other, at(0)).is_some(),
            served,
            "{by:?} {direction:?}"
        );
        let mut within = other.clone();
        if let Some(near) = within.near.as_mut() {
            near.radius_m = Some(500.0);
        }
        assert!(
            index.page(&within, at(0)).is_none(),
            "{by:?} {direction:?} radius"
        );
    }
}
