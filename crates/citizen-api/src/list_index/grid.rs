//! The located rows in a flat grid of the search space: the box query of the page nearest
//! first (`nearest.rs`) reads the cells the box covers, each a run of points side by side in
//! memory.
//!
//! An R-tree of a million points answered the same box through eight levels of nodes of six,
//! a cache miss each, and its box query was a tenth of a page's time (the profile of
//! 2026-11-27 in docs/benchmarks.md). A city's points lie in a bounded area of about even
//! density, which a grid suits: cells are sized at the last build to hold about
//! [`PER_CELL`] points on average over the two widest sides of the points' envelope (the
//! sphere's unit vectors of a city lie almost in a plane), and a point outside the grid's
//! extent goes to the nearest edge cell, so any point can be held and every query stays exact
//! (cell numbers grow with the coordinate, so the cells from the box's lower corner's to its
//! upper corner's hold every point inside it). The grid is built again, in the same space,
//! when the points have doubled since (a first load of an empty city grows this way).

use domain::geo::LonLat;

/// The average points per cell at a build: a page's box of about 170 points then reads some
/// twenty cells.
const PER_CELL: f64 = 16.0;

/// At most this many cells (a grid of a few points per cell up to 16 million points).
const MAX_CELLS: usize = 1 << 20;

/// A located row: its place in the search space, its slot, its point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Located {
    pub(super) position: [f64; 3],
    pub(super) slot: u32,
    pub(super) point: LonLat,
}

/// An axis-aligned box of the search space, corners included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Bounds {
    pub(super) lower: [f64; 3],
    pub(super) upper: [f64; 3],
}

impl Bounds {
    const EMPTY: Self = Self {
        lower: [f64::INFINITY; 3],
        upper: [f64::NEG_INFINITY; 3],
    };

    fn contains(&self, position: &[f64; 3]) -> bool {
        (0..3).all(|k| self.lower[k] <= position[k] && position[k] <= self.upper[k])
    }

    /// Whether `other` lies inside (an empty `other` does).
    pub(super) fn contains_bounds(&self, other: &Bounds) -> bool {
        (0..3).all(|k| other.lower[k] > other.upper[k])
            || (0..3).all(|k| self.lower[k] <= other.lower[k] && other.upper[k] <= self.upper[k])
    }

    fn include(&mut self, position: &[f64; 3]) {
        for (k, coordinate) in position.iter().enumerate() {
            self.lower[k] = self.lower[k].min(*coordinate);
            self.upper[k] = self.upper[k].max(*coordinate);
        }
    }

    /// The sides' lengths, 0 for an empty box.
    pub(super) fn sides(&self) -> [f64; 3] {
        [0, 1, 2].map(|k| (self.upper[k] - self.lower[k]).max(0.0))
    }
}

/// One axis of the grid: cell `i` holds coordinates from `origin + i × side` (the first and
/// last cells hold everything beyond too).
#[derive(Debug, Clone, Copy)]
struct Axis {
    k: usize,
    origin: f64,
    side: f64,
    cells: usize,
}

impl Axis {
    fn cell(&self, coordinate: f64) -> usize {
        let at = ((coordinate - self.origin) / self.side).floor();
        // NaN and below 0 go to the first cell, beyond the last to the last.
        if at >= 0.0 {
            (at as usize).min(self.cells - 1)
        } else {
            0
        }
    }
}

/// The located rows by cell (module docs).
pub(super) struct Grid {
    axes: [Axis; 2],
    cells: Vec<Vec<Located>>,
    /// The envelope of every point held since the last build (it never shrinks: a query that
    /// covers it covers every point).
    envelope: Bounds,
    len: usize,
    /// Points held at the last build.
    built_for: usize,
}

impl Grid {
    /// A grid sized for `points` (module docs).
    pub(super) fn build(points: Vec<Located>) -> Self {
        let mut envelope = Bounds::EMPTY;
        for located in &points {
            envelope.include(&located.position);
        }
        let sides = envelope.sides();
        let mut widest = [0, 1, 2];
        widest.sort_by(|a, b| sides[*b].total_cmp(&sides[*a]));
        let (a, b) = (widest[0], widest[1]);
        // Cells of one side, square over the two widest sides, `PER_CELL` points each.
        let area = sides[a].max(1e-9) * sides[b].max(sides[a] * 1e-3).max(1e-9);
        let wanted = (points.len() as f64 / PER_CELL).clamp(1.0, MAX_CELLS as f64);
        let side = (area / wanted).sqrt();
        let axis = |k: usize| {
            let origin = if envelope.lower[k].is_finite() {
                envelope.lower[k]
            } else {
                0.0
            };
            let cells = (sides[k] / side).floor() + 1.0;
            Axis {
                k,
                origin,
                side,
                cells: if cells.is_finite() {
                    (cells as usize).clamp(1, MAX_CELLS)
                } else {
                    1
                },
            }
        };
        let first = axis(a);
        let mut second = axis(b);
        second.cells = second.cells.min((MAX_CELLS / first.cells).max(1));
        let mut grid = Self {
            axes: [first, second],
            cells: Vec::new(),
            envelope,
            len: 0,
            built_for: points.len(),
        };
        // Each cell sized for its points exactly.
        let mut counts = vec![0usize; first.cells * second.cells];
        for located in &points {
            if let Some(count) = counts.get_mut(grid.cell_of(&located.position)) {
                *count += 1;
            }
        }
        grid.cells = counts.into_iter().map(Vec::with_capacity).collect();
        for located in points {
            grid.place(located);
        }
        grid
    }

    /// The number of the cell that holds `position` (cells numbered row by row).
    pub(super) fn cell_of(&self, position: &[f64; 3]) -> usize {
        let [a, b] = &self.axes;
        a.cell(position[a.k]) * b.cells + b.cell(position[b.k])
    }

    /// Puts `located` in its cell (the envelope already holds it).
    fn place(&mut self, located: Located) {
        let cell = self.cell_of(&located.position);
        if let Some(points) = self.cells.get_mut(cell) {
            points.push(located);
            self.len += 1;
        }
    }

    /// Holds `located`; builds the grid again when the points have doubled since the last
    /// build.
    pub(super) fn insert(&mut self, located: Located) {
        self.envelope.include(&located.position);
        self.place(located);
        if self.len > 2 * self.built_for.max(512) {
            let points = std::mem::take(&mut self.cells)
                .into_iter()
                .flatten()
                .collect();
            *self = Self::build(points);
        }
    }

    /// Takes the point of `slot` at `position` away; false when it is not held.
    pub(super) fn remove(&mut self, position: &[f64; 3], slot: u32) -> bool {
        let cell = self.cell_of(position);
        let Some(points) = self.cells.get_mut(cell) else {
            return false;
        };
        match points.iter().position(|p| p.slot == slot) {
            Some(at) => {
                points.swap_remove(at);
                self.len -= 1;
                true
            }
            None => false,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// A box holding every point held.
    pub(super) fn envelope(&self) -> Bounds {
        self.envelope
    }

    /// Hands over each point inside `bounds` (corners included), cell by cell.
    ///
    /// The cells' points are read first in a loop of loads and nothing else: each cell is a
    /// run of its own on the heap, a cache miss to start, and the processor overlaps these
    /// misses only when no branch on the points' places stands between them (`perf annotate`
    /// put the first read of each cell at half the walk's own time, 2026-11-27).
    pub(super) fn each_in(&self, bounds: &Bounds, mut each: impl FnMut(&Located)) {
        let mut any = 0u64;
        for located in self.covering(bounds).flatten() {
            any ^= located.position[0].to_bits();
        }
        std::hint::black_box(any);
        for located in self.covering(bounds).flatten() {
            if bounds.contains(&located.position) {
                each(located);
            }
        }
    }

    /// The cells `bounds` covers, row by row.
    fn covering(&self, bounds: &Bounds) -> impl Iterator<Item = &Vec<Located>> + '_ {
        let [a, b] = self.axes;
        let rows = a.cell(bounds.lower[a.k])..=a.cell(bounds.upper[a.k]);
        let columns = b.cell(bounds.lower[b.k])..=b.cell(bounds.upper[b.k]);
        rows.flat_map(move |row| {
            let start = row * b.cells;
            self.cells
                .get(start + columns.start()..=start + columns.end())
                .unwrap_or_default()
        })
    }
}

#[cfg(test)]
#[path = "grid_tests.rs"]
mod tests;
