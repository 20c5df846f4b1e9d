//! The page nearest first (`orderBy=location`, ascending, no radius) from the index, in the
//! database's order: the located rows by the backend's key (`domain::geo::Nearness`), ties by
//! issue id, then the rows without a point by issue id.
//!
//! In the search space the Euclidean distance never exceeds the key
//! ([`domain::geo::Nearness::floor`]). The page is read from a box around the list's point: its
//! points are taken from the grid first (`grid.rs`; no entry read), ordered by Euclidean distance, and
//! then walked in that order, keeping the `needed` best matching rows by (key, id), until a
//! point's floor is past the worst row kept (no later point can enter). So an entry, a cache miss each among a city's million, is read
//! only for a point that may enter the page: reading each point's entry as the R-tree handed it
//! over was most of the walk's time (docs/benchmarks.md, evening of 2026-11-26). A point
//! outside the box is farther than its half side (the reach) in some coordinate, so its key is
//! at least the floor of the reach: when the worst row kept is below that floor, no point
//! outside can enter the page, ties included, and the page is exact. Else the reach grows (by
//! the share of matches found) and the box is read again. A box query reads far less than a
//! nearest-neighbour walk of a tree, which keeps a heap of every node it met (measured with an
//! R-tree: 15 µs for a box of 200 points against 40 µs for the 160 nearest of 1 000 000).

use std::collections::BinaryHeap;

use domain::geo::LonLat;

use super::grid::{Bounds, Grid};
use super::heads::rows;
use super::model::{Entry, Index, IndexRow};
use crate::store::{ListPage, ReportFilter};

/// A located row by the page's order: key, then issue id, each as an integer that orders as
/// it does ([`ordered_bits`]; a `Uuid` orders as its big-endian `u128`). Compared field by field
/// without a comparison function: the heap's and the final sort's comparisons of `f64::total_cmp`
/// and the id's bytes were an eighth of the walk's instructions (`callgrind`, 2026-11-27).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Ranked {
    key: u64,
    issue_id: u128,
    slot: u32,
}

impl Ranked {
    fn key(&self) -> f64 {
        from_ordered_bits(self.key)
    }
}

/// `x`'s bits made to order as `f64::total_cmp` orders `x` (its sign bit set when positive,
/// every bit flipped when negative).
fn ordered_bits(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// The number [`ordered_bits`] was taken from.
fn from_ordered_bits(bits: u64) -> f64 {
    f64::from_bits(if bits >> 63 == 1 {
        bits & !(1 << 63)
    } else {
        !bits
    })
}

/// The squared Euclidean distance of two places in the search space.
fn squared(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// A point's place in the walk's order: its squared distance ([`ordered_bits`]) above its place
/// `at` among the box's points; points at the same distance are walked in any order (each is
/// compared by key and id as it comes).
fn ranked_place(distance2: f64, at: usize) -> u128 {
    (u128::from(ordered_bits(distance2)) << 64) | at as u128
}

/// The squared distance and place that [`ranked_place`] put together.
fn unranked(ranked: u128) -> (f64, usize) {
    (
        from_ordered_bits((ranked >> 64) as u64),
        ranked as u64 as usize,
    )
}

/// A reach whose box holds about 1.7 times `needed` points where points are as dense as on
/// average over the points' envelope (the two widest sides of it; the sphere's unit vectors of a
/// city lie almost in a plane): its half side is then 1.15 times the radius of the circle that
/// holds `needed` (the corners hold no page row). In a space fitted to the city's latitude
/// (`SearchSpace::around`) that circle is a circle; in degrees as they are it was an ellipse,
/// and the box had to hold four times `needed`. Timed on a million uniform points, pages of
/// 100: 42–45 µs a page against 62–63 µs with the plain space and four times `needed`
/// (docs/benchmarks.md).
fn first_reach(grid: &Grid, needed: usize) -> f64 {
    let mut sides = grid.envelope().sides();
    sides.sort_by(|a, b| b.total_cmp(a));
    let area = sides[0] * sides[1].max(sides[0] * 1e-3);
    let points = grid.len().max(1) as f64;
    let reach = (1.7 * needed as f64 * area / points).sqrt() / 2.0;
    if reach.is_finite() && reach > 0.0 {
        reach
    } else {
        1e-6
    }
}

/// Reads the entries of `points` ahead of the walk, in a loop of independent loads the
/// processor overlaps: entries lie anywhere in a city's vector, and the walk, which decides at
/// each entry whether to go on, would wait on memory for them one after another. An entry
/// spans three or four cache lines, so every field the walk and the row read is read here:
/// reading the version alone left the walk's read of the id half of its time, and reading
/// only the two left the row's reads of the rest (its vote instants, its head) a tenth of the
/// page's own time (`perf annotate`, 2026-11-27).
fn touch_entries(entries: &[Entry], slots: impl Iterator<Item = u32>) {
    let mut any = 0u64;
    for slot in slots {
        if let Some(entry) = entries.get(slot as usize) {
            any ^= entry.version as u64
                ^ entry.issue_id.as_u64_pair().0
                ^ entry.report_id.as_u64_pair().0
                ^ entry.point.map_or(0, |point| point.lon.to_bits())
                ^ entry.votes.len() as u64
                ^ entry.head.get().map_or(0, |head| head.len() as u64);
        }
    }
    std::hint::black_box(any);
}

impl Index {
    /// The page nearest first, vote counts at `now` (microseconds); `None` until the grid is
    /// built.
    pub(super) fn nearest_page(
        &self,
        filter: &ReportFilter,
        now: i64,
    ) -> Option<ListPage<IndexRow>> {
        let near = filter.near.as_ref()?;
        let grid = self.located.as_ref()?;
        let (offset, limit) = (filter.page.offset as usize, filter.page.limit as usize);
        let needed = offset + limit + 1;
        let nearness = self.space.nearness(near.point);
        let origin = nearness.position();
        let everything = grid.envelope();
        let mut reach = first_reach(grid, needed);
        // The box's points (slot and point), and their order by Euclidean distance from the
        // origin: each a number, the squared distance's bits above the point's place in
        // `boxed_points` (the first box holds about 1.7 times `needed`: `first_reach`).
        let mut boxed_points: Vec<(u32, LonLat)> = Vec::with_capacity(4 * needed);
        let mut by_distance: Vec<u128> = Vec::with_capacity(4 * needed);
        // The best so far: gathered as they come until there are `needed` (points come about in
        // order, so pushing each on a heap would carry each to its top), then made a heap, the
        // worst on top, whose top a better row replaces.
        let mut filling: Vec<Ranked> = Vec::with_capacity(needed);
        let mut best: BinaryHeap<Ranked> = BinaryHeap::new();
        loop {
            filling.clear();
            best.clear();
            boxed_points.clear();
            by_distance.clear();
            let boxed = Bounds {
                lower: origin.map(|c| c - reach),
                upper: origin.map(|c| c + reach),
            };
            // First the points alone (each cell's side by side)...
            grid.each_in(&boxed, |located| {
                let distance2 = squared(&located.position, &origin);
                by_distance.push(ranked_place(distance2, boxed_points.len()));
                boxed_points.push((located.slot, located.point));
            });
            // Numbers sort without a comparison function: sorting the 32-byte points by a key
            // was as much of the walk as reading the grid (`callgrind`, 2026-11-27).
            by_distance.sort_unstable();
            let walk = by_distance.iter().filter_map(|ranked| {
                let (distance2, at) = unranked(*ranked);
                let (slot, point) = boxed_points.get(at)?;
                Some((distance2, *slot, *point))
            });
            // ...then their entries, nearest first in the search space: a point whose floor is
            // past the worst row kept ends the walk, so an entry is read (a cache miss each in a
            // city's million) only for a point that may enter the page.
            let mut matched = 0usize;
            touch_entries(
                &self.entries,
                walk.clone().take(needed + 8).map(|(_, slot, _)| slot),
            );
            for (distance2, slot, point) in walk {
                let worst = best.peek().map(Ranked::key);
                if worst.is_some_and(|worst| nearness.floor(distance2) > worst) {
                    break;
                }
                let key = nearness.key(point);
                if worst.is_some_and(|worst| key > worst) {
                    continue;
                }
                let Some(entry) = self.entries.get(slot as usize) else {
                    continue;
                };
                if !entry.matches(filter) {
                    continue;
                }
                matched += 1;
                let ranked = Ranked {
                    key: ordered_bits(key),
                    issue_id: entry.issue_id.as_u128(),
                    slot,
                };
                if best.is_empty() {
                    filling.push(ranked);
                    if filling.len() == needed {
                        best = BinaryHeap::from(std::mem::take(&mut filling));
                    }
                } else if let Some(mut worst) = best.peek_mut() {
                    if ranked < *worst {
                        *worst = ranked;
                    }
                }
            }
            // The corners are rounded: a point outside is farther than a hair less than the
            // reach.
            let inner = reach * (1.0 - 1e-9) - 1e-12;
            let beyond = nearness.floor(inner.max(0.0).powi(2));
            let complete = boxed.contains_bounds(&everything)
                || best.peek().is_some_and(|worst| worst.key() < beyond);
            if complete {
                break;
            }
            // Grow the box's area by the share of matches still missing (at least twice).
            let wanted = needed as f64 / matched.max(1) as f64;
            reach *= (wanted * 1.5).sqrt().clamp(std::f64::consts::SQRT_2, 8.0);
        }
        let mut located = if best.is_empty() {
            filling
        } else {
            best.into_vec()
        };
        located.sort_unstable();
        let located = located.into_iter().map(|ranked| ranked.slot);
        let unlocated = self.unlocated.iter().map(|(_, slot)| *slot);
        let entries = located
            .chain(unlocated.filter(|slot| {
                self.entries
                    .get(*slot as usize)
                    .is_some_and(|entry| entry.matches(filter))
            }))
            .filter_map(|slot| self.entries.get(slot as usize))
            .skip(offset)
            .take(limit + 1)
            .collect();
        Some(ListPage::from_overfetch(
            rows(entries, now),
            filter.page.limit,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits order as `f64::total_cmp` orders the numbers, and give the numbers back.
    #[test]
    fn ordered_bits_order_as_total_cmp() {
        let values = [
            f64::NEG_INFINITY,
            -1e300,
            -1.5,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            1e-300,
            0.1 + 0.2,
            2.5e6,
            f64::MAX,
            f64::INFINITY,
            f64::NAN,
        ];
        for a in values {
            assert_eq!(from_ordered_bits(ordered_bits(a)).to_bits(), a.to_bits());
            for b in values {
                assert_eq!(
                    ordered_bits(a).cmp(&ordered_bits(b)),
                    a.total_cmp(&b),
                    "{a} {b}"
                );
            }
        }
        let (distance2, at) = unranked(ranked_place(0.25, 7));
        assert_eq!((distance2, at), (0.25, 7));
    }
}
