//! The radius search of the read model: an R-tree of street bounding boxes, and distances that
//! are exactly those of `domain::geo::distance_to_lines_m` without computing most of them.
//!
//! Every candidate first gets a cheap estimate with an error bound
//! (`domain::geo::distance_to_lines_estimate_m`: the same closest points, measured in the local
//! tangent plane of the ellipsoid). A candidate whose whole interval lies beyond the radius is
//! out, one whose interval lies inside is in, and only one straddling the radius is measured
//! exactly. The hits are then ordered by interval; where intervals of neighbours overlap (they
//! could be in either order, or tie), that group is measured exactly and ordered by (distance,
//! number). So the order is exactly the one the exact distances give, while a typical query
//! measures no geodesic at all.

use domain::geo::{bbox_around, distance_to_lines_estimate_m, distance_to_lines_m, BBox, LonLat};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RStarInsertionStrategy, RTree, RTreeParams, AABB};

use crate::store::bbox::BoxFilter;

/// Where a street's lines are: its index, and the range of its lines in `line_starts`.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Slot {
    street: u32,
    lines: (u32, u32),
}

/// A street's bounding box with its slot.
type Entry = GeomWithData<Rectangle<[f64; 2]>, Slot>;

/// Wider nodes than rstar's default of 6 children: a query then walks about half as many levels,
/// and each node's children lie in one contiguous run that the prefetcher reads ahead. With the
/// default, the node reads were 40 % of the query's own time in `perf` (cache misses).
struct Params;

impl RTreeParams for Params {
    const MIN_SIZE: usize = 8;
    const MAX_SIZE: usize = 32;
    const REINSERTION_COUNT: usize = 8;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

/// The R-tree and every street's lines in one buffer.
///
/// The lines are stored in the order of the tree's leaves, so that the candidates of one query
/// (a few neighbouring leaves) lie next to each other in memory, and each entry carries the range
/// of its lines. Lines kept per street (`Vec<Vec<Vec<_>>>`, in number order) cost two dependent
/// cache misses per candidate, which `perf` showed as three quarters of the distance estimate's
/// time and the largest part of a radius query's CPU.
pub(super) struct RadiusIndex {
    tree: RTree<Entry, Params>,
    points: Vec<[f64; 2]>,
    /// Line `i` is `points[line_starts[i]..line_starts[i + 1]]`.
    line_starts: Vec<u32>,
}

/// A hit: street index, distance interval; `exact` once measured exactly.
#[derive(Clone, Copy)]
struct Hit {
    slot: Slot,
    low: f64,
    high: f64,
    exact: Option<f64>,
}

/// The buffers would exceed `u32` offsets (over 4 billion points).
#[derive(Debug)]
pub(super) struct TooLarge;

impl RadiusIndex {
    /// `boxes[i]` and `lines[i]` are the bounding box and the lines of street `i`.
    pub(super) fn new(boxes: &[BBox], lines: &[Vec<Vec<[f64; 2]>>]) -> Result<Self, TooLarge> {
        let index = |i: usize| u32::try_from(i).map_err(|_| TooLarge);
        let entries = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let rect = Rectangle::from_corners([b[0], b[1]], [b[2], b[3]]);
                let slot = Slot {
                    street: index(i)?,
                    lines: (0, 0),
                };
                Ok(GeomWithData::new(rect, slot))
            })
            .collect::<Result<Vec<_>, TooLarge>>()?;
        let mut tree = RTree::bulk_load_with_params(entries);
        let mut points = Vec::with_capacity(lines.iter().flatten().map(Vec::len).sum());
        let mut line_starts = vec![0];
        for entry in tree.iter_mut() {
            let first = index(line_starts.len() - 1)?;
            for line in lines.get(entry.data.street as usize).into_iter().flatten() {
                points.extend_from_slice(line);
                line_starts.push(index(points.len())?);
            }
            entry.data.lines = (first, index(line_starts.len() - 1)?);
        }
        Ok(Self {
            tree,
            points,
            line_starts,
        })
    }

    /// The lines of a slot.
    fn lines(&self, slot: Slot) -> impl Iterator<Item = &[[f64; 2]]> + '_ {
        (slot.lines.0 as usize..slot.lines.1 as usize).map(move |l| {
            let (start, end) = (self.line_starts[l], self.line_starts[l + 1]);
            &self.points[start as usize..end as usize]
        })
    }

    /// Streets whose lines intersect the filter's boxes and that pass `keep`, by index (number).
    pub(super) fn intersecting(&self, filter: &BoxFilter, keep: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for b in filter.boxes() {
            let envelope = AABB::from_corners([b[0], b[1]], [b[2], b[3]]);
            for entry in self.tree.locate_in_envelope_intersecting(&envelope) {
                let slot = entry.data;
                if keep(slot.street) && filter.intersects(self.lines(slot)) {
                    out.push(slot.street);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Streets within `radius_m` of `point` that pass `keep`, nearest first (ties by index, i.e.
    /// by number), `offset` skipped, at most `limit`.
    pub(super) fn within(
        &self,
        point: LonLat,
        radius_m: f64,
        keep: impl Fn(u32) -> bool,
        offset: usize,
        limit: usize,
    ) -> Vec<u32> {
        let b = bbox_around(point, radius_m);
        let envelope = AABB::from_corners([b[0], b[1]], [b[2], b[3]]);
        let exact = |slot: Slot| distance_to_lines_m(point, self.lines(slot));
        let mut hits: Vec<Hit> = Vec::new();
        for entry in self.tree.locate_in_envelope_intersecting(&envelope) {
            let slot = entry.data;
            if !keep(slot.street) {
                continue;
            }
            let (low, high, measured) = match distance_to_lines_estimate_m(point, self.lines(slot))
            {
                Some((estimate, bound)) if estimate + bound <= radius_m => {
                    (estimate - bound, estimate + bound, None)
                }
                Some((estimate, bound)) if estimate - bound > radius_m => continue,
                _ => {
                    let d = exact(slot);
                    (d, d, Some(d))
                }
            };
            if measured.is_some_and(|d| d > radius_m) {
                continue;
            }
            hits.push(Hit {
                slot,
                low,
                high,
                exact: measured,
            });
        }
        // By the low end of the interval: a hit whose low end lies beyond every high end before
        // it is farther than all of them, so only groups of chain-overlapping intervals can be
        // out of order, and those are ordered by their exact distances.
        hits.sort_by(|a, b| {
            a.low
                .total_cmp(&b.low)
                .then(a.slot.street.cmp(&b.slot.street))
        });
        let mut start = 0;
        while start < hits.len() {
            let mut end = start + 1;
            let mut reach = hits[start].high;
            while end < hits.len() && hits[end].low <= reach {
                reach = reach.max(hits[end].high);
                end += 1;
            }
            if end - start > 1 {
                let group = &mut hits[start..end];
                for hit in group.iter_mut() {
                    hit.exact = Some(hit.exact.unwrap_or_else(|| exact(hit.slot)));
                }
                group.sort_by(|a, b| {
                    let (da, db) = (a.exact.unwrap_or(a.low), b.exact.unwrap_or(b.low));
                    da.total_cmp(&db).then(a.slot.street.cmp(&b.slot.street))
                });
            }
            start = end;
        }
        hits.iter()
            .skip(offset)
            .take(limit)
            .map(|h| h.slot.street)
            .collect()
    }
}
