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
use rstar::{RTree, AABB};

/// A street's bounding box with its index.
type Entry = GeomWithData<Rectangle<[f64; 2]>, u32>;

pub(super) struct RadiusIndex {
    tree: RTree<Entry>,
}

/// A hit: street index, distance interval; `exact` once measured exactly.
#[derive(Clone, Copy)]
struct Hit {
    street: u32,
    low: f64,
    high: f64,
    exact: Option<f64>,
}

impl RadiusIndex {
    /// `boxes[i]` is the bounding box of street `i`.
    pub(super) fn new(boxes: &[BBox]) -> Self {
        let entries = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let rect = Rectangle::from_corners([b[0], b[1]], [b[2], b[3]]);
                GeomWithData::new(rect, u32::try_from(i).unwrap_or(u32::MAX))
            })
            .collect();
        Self {
            tree: RTree::bulk_load(entries),
        }
    }

    /// Streets within `radius_m` of `point` that pass `keep`, nearest first (ties by index, i.e.
    /// by number), `offset` skipped, at most `limit`.
    pub(super) fn within<'a>(
        &self,
        point: LonLat,
        radius_m: f64,
        lines: impl Fn(u32) -> &'a [Vec<[f64; 2]>],
        keep: impl Fn(u32) -> bool,
        offset: usize,
        limit: usize,
    ) -> Vec<u32> {
        let b = bbox_around(point, radius_m);
        let envelope = AABB::from_corners([b[0], b[1]], [b[2], b[3]]);
        let exact = |street: u32| distance_to_lines_m(point, lines(street));
        let mut hits: Vec<Hit> = Vec::new();
        for entry in self.tree.locate_in_envelope_intersecting(&envelope) {
            let street = entry.data;
            if !keep(street) {
                continue;
            }
            let (low, high, measured) = match distance_to_lines_estimate_m(point, lines(street)) {
                Some((estimate, bound)) if estimate + bound <= radius_m => {
                    (estimate - bound, estimate + bound, None)
                }
                Some((estimate, bound)) if estimate - bound > radius_m => continue,
                _ => {
                    let d = exact(street);
                    (d, d, Some(d))
                }
            };
            if measured.is_some_and(|d| d > radius_m) {
                continue;
            }
            hits.push(Hit {
                street,
                low,
                high,
                exact: measured,
            });
        }
        // By the low end of the interval: a hit whose low end lies beyond every high end before
        // it is farther than all of them, so only groups of chain-overlapping intervals can be
        // out of order, and those are ordered by their exact distances.
        hits.sort_by(|a, b| a.low.total_cmp(&b.low).then(a.street.cmp(&b.street)));
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
                    hit.exact = Some(hit.exact.unwrap_or_else(|| exact(hit.street)));
                }
                group.sort_by(|a, b| {
                    let (da, db) = (a.exact.unwrap_or(a.low), b.exact.unwrap_or(b.low));
                    da.total_cmp(&db).then(a.street.cmp(&b.street))
                });
            }
            start = end;
        }
        hits.iter()
            .skip(offset)
            .take(limit)
            .map(|h| h.street)
            .collect()
    }
}
