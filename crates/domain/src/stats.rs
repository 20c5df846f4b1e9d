//! The figures officers are judged by (issue 56, docs/officers-guide.md "Figures"): per
//! category and period, what was received, accepted, resolved and closed as a duplicate, what is
//! overdue now, and how long the city took to its first public statement and to resolution.
//!
//! The store reads the facts (one row per issue received in the period, the changes of the
//! period, the overdue issues); these rules turn them into figures, so the API, the CSV and the
//! tests compute them one way.

use std::collections::BTreeMap;

/// Longest period the figures are computed over, in days (a year and a day: a calendar year
/// with a leap day fits).
pub const MAX_PERIOD_DAYS: i64 = 366;

/// An issue placed in its category within the period: when, and when (if yet) it had its first
/// public statement and its resolution. Instants in microseconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Received<K> {
    pub category: K,
    pub placed_at: i64,
    pub first_statement_at: Option<i64>,
    pub resolved_at: Option<i64>,
}

/// A step an officer took within the period that the figures count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Accepted,
    Resolved,
    Duplicate,
}

/// The median and the 90th percentile of a set of durations (nearest rank: the smallest
/// duration at least that share of the set does not exceed), in seconds, and how many there
/// were; both `None` for an empty set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Durations {
    pub measured: u64,
    pub median_seconds: Option<i64>,
    pub p90_seconds: Option<i64>,
}

impl Durations {
    /// The summary of `micros` (durations in microseconds, any order), rounded down to seconds.
    pub fn of(mut micros: Vec<i64>) -> Self {
        micros.sort_unstable();
        let seconds = |value: Option<&i64>| value.map(|m| m.div_euclid(1_000_000));
        Self {
            measured: micros.len() as u64,
            median_seconds: seconds(nearest_rank(&micros, 50)),
            p90_seconds: seconds(nearest_rank(&micros, 90)),
        }
    }
}

/// The nearest-rank `percent` percentile of `sorted` (ascending): the value at rank
/// ⌈percent/100 × n⌉, counted from 1; `None` when empty.
pub fn nearest_rank(sorted: &[i64], percent: u32) -> Option<&i64> {
    let n = sorted.len() as u64;
    if n == 0 {
        return None;
    }
    let rank = (u64::from(percent) * n).div_ceil(100).clamp(1, n);
    sorted.get(usize::try_from(rank - 1).ok()?)
}

/// One row of figures: a category's, or the total over every category shown.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Figures {
    pub received: u64,
    pub accepted: u64,
    pub resolved: u64,
    pub duplicates: u64,
    pub overdue_now: u64,
    pub first_statement: Durations,
    pub resolution: Durations,
}

/// The figures of every category in `categories` (each one, with or without facts) and their
/// total, from the period's facts; facts of other categories count nowhere.
pub fn figures<K: Ord + Copy>(
    categories: &[K],
    received: &[Received<K>],
    steps: &[(K, Step)],
    overdue: &[(K, u64)],
) -> (BTreeMap<K, Figures>, Figures) {
    #[derive(Default)]
    struct Gathered {
        figures: Figures,
        to_statement: Vec<i64>,
        to_resolution: Vec<i64>,
    }
    let mut by_category: BTreeMap<K, Gathered> = categories
        .iter()
        .map(|k| (*k, Gathered::default()))
        .collect();
    let mut total = Gathered::default();
    for issue in received {
        let Some(row) = by_category.get_mut(&issue.category) else {
            continue;
        };
        for gathered in [row, &mut total] {
            gathered.figures.received += 1;
            if let Some(at) = issue.first_statement_at {
                gathered.to_statement.push(at - issue.placed_at);
            }
            if let Some(at) = issue.resolved_at {
                gathered.to_resolution.push(at - issue.placed_at);
            }
        }
    }
    for (category, step) in steps {
        let Some(row) = by_category.get_mut(category) else {
            continue;
        };
        for gathered in [row, &mut total] {
            match step {
                Step::Accepted => gathered.figures.accepted += 1,
                Step::Resolved => gathered.figures.resolved += 1,
                Step::Duplicate => gathered.figures.duplicates += 1,
            }
        }
    }
    for (category, count) in overdue {
        let Some(row) = by_category.get_mut(category) else {
            continue;
        };
        for gathered in [row, &mut total] {
            gathered.figures.overdue_now += count;
        }
    }
    let finish = |gathered: Gathered| Figures {
        first_statement: Durations::of(gathered.to_statement),
        resolution: Durations::of(gathered.to_resolution),
        ..gathered.figures
    };
    (
        by_category
            .into_iter()
            .map(|(k, gathered)| (k, finish(gathered)))
            .collect(),
        finish(total),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: i64 = 1_000_000;

    #[test]
    fn nearest_rank_is_the_smallest_value_covering_the_share() {
        let cases: [(&[i64], u32, Option<i64>); 9] = [
            (&[], 50, None),
            (&[7], 50, Some(7)),
            (&[7], 90, Some(7)),
            (&[1, 2], 50, Some(1)),
            (&[1, 2], 90, Some(2)),
            (&[1, 2, 3, 4], 50, Some(2)),
            (&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, Some(9)),
            (&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90, Some(10)),
            (&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0, Some(1)),
        ];
        for (sorted, percent, expected) in cases {
            assert_eq!(
                nearest_rank(sorted, percent).copied(),
                expected,
                "{percent} % of {sorted:?}"
            );
        }
    }

    #[test]
    fn durations_sort_and_round_down_to_seconds() {
        let summary = Durations::of(vec![30 * S + 999_999, 10 * S, 20 * S]);
        assert_eq!(
            summary,
            Durations {
                measured: 3,
                median_seconds: Some(20),
                p90_seconds: Some(30),
            }
        );
        assert_eq!(Durations::of(Vec::new()), Durations::default());
    }

    #[test]
    fn figures_per_category_and_in_total() {
        let received = [
            Received {
                category: 'a',
                placed_at: 0,
                first_statement_at: Some(60 * S),
                resolved_at: Some(3_600 * S),
            },
            Received {
                category: 'a',
                placed_at: 100 * S,
                first_statement_at: None,
                resolved_at: None,
            },
            Received {
                category: 'b',
                placed_at: 0,
                first_statement_at: Some(120 * S),
                resolved_at: None,
            },
            // A category the caller may not see is in no row and not in the total.
            Received {
                category: 'z',
                placed_at: 0,
                first_statement_at: None,
                resolved_at: None,
            },
        ];
        let steps = [
            ('a', Step::Accepted),
            ('a', Step::Resolved),
            ('b', Step::Duplicate),
            ('b', Step::Accepted),
        ];
        let overdue = [('b', 4), ('z', 9)];
        let (rows, total) = figures(&['a', 'b', 'c'], &received, &steps, &overdue);
        assert_eq!(rows.len(), 3, "every category, with figures or without");
        assert_eq!(rows[&'c'], Figures::default());
        let a = &rows[&'a'];
        assert_eq!(
            (
                a.received,
                a.accepted,
                a.resolved,
                a.duplicates,
                a.overdue_now
            ),
            (2, 1, 1, 0, 0)
        );
        assert_eq!(a.first_statement.measured, 1);
        assert_eq!(a.first_statement.median_seconds, Some(60));
        assert_eq!(a.resolution.p90_seconds, Some(3_600));
        assert_eq!(
            (
                total.received,
                total.accepted,
                total.duplicates,
                total.overdue_now
            ),
            (3, 2, 1, 4)
        );
        // The total's percentiles are over every issue, not of the categories' figures.
        assert_eq!(total.first_statement.measured, 2);
        assert_eq!(total.first_statement.median_seconds, Some(60));
        assert_eq!(total.first_statement.p90_seconds, Some(120));
    }
}
