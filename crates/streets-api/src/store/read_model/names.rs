//! The name search of the read model: matches in rank order without ranking every match.
//!
//! The order the API promises (docs/decisions.md) is: whole name, then name prefix, then word
//! prefix; within each, folded name (code-point order), then street number.
//!
//! - `by_name` lists the streets by (folded name, number). The streets whose name starts with
//!   the query are one run of it, found by binary search, and the run is already in order: a
//!   name equal to the query sorts before every longer name it starts (whole name first), the
//!   rest follow by name (name prefix).
//! - `words` lists every later word start of every name (the name's text from that word on) by
//!   that text. The word-prefix matches are one run of it, but in text order; what they must be
//!   served in is their street's position in `by_name`. `tree` answers "the smallest positions
//!   in a run" without sorting the run: a merge-sort tree over those positions (level `l` holds
//!   them sorted within blocks of `LEAF << l`), so any run is a few sorted slices, merged lazily
//!   until the page is full. A street with two words matching appears twice and is served once;
//!   a street already served as a name prefix is skipped.
//!
//! A page therefore costs a few binary searches plus O((offset + limit + log n) · log log n),
//! however many streets match.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Positions per block of the tree's lowest level.
const LEAF: usize = 64;

pub(super) struct NameIndex {
    /// Folded names by street index.
    folded: Vec<Box<str>>,
    /// Street indexes by (folded name, number).
    by_name: Vec<u32>,
    /// Later word starts: (street index, byte offset in its folded name), by text from there.
    words: Vec<(u32, u32)>,
    /// The `by_name` position of each word's street, in word order.
    raw: Vec<u32>,
    /// `tree[l]`: `raw`, sorted within blocks of `LEAF << l`.
    tree: Vec<Vec<u32>>,
}

impl NameIndex {
    /// `folded[i]` is the folded name of street `i`; streets are indexed by ascending number,
    /// so an index order is a number order.
    pub(super) fn new(folded: Vec<Box<str>>) -> Self {
        let mut by_name: Vec<u32> = (0..index(folded.len())).collect();
        by_name.sort_by(|&a, &b| folded[a as usize].cmp(&folded[b as usize]).then(a.cmp(&b)));
        let mut position = vec![0u32; folded.len()];
        for (pos, &street) in by_name.iter().enumerate() {
            position[street as usize] = index(pos);
        }
        let mut words: Vec<(u32, u32)> = folded
            .iter()
            .enumerate()
            .flat_map(|(street, name)| {
                name.match_indices(' ')
                    .map(move |(at, _)| (index(street), index(at + 1)))
            })
            .collect();
        let text = |&(street, at): &(u32, u32)| &folded[street as usize][at as usize..];
        words.sort_by(|a, b| text(a).cmp(text(b)).then(a.0.cmp(&b.0)));
        let raw: Vec<u32> = words.iter().map(|w| position[w.0 as usize]).collect();
        let mut tree: Vec<Vec<u32>> = Vec::new();
        let mut level = raw.clone();
        let mut block = LEAF;
        loop {
            for chunk in level.chunks_mut(block) {
                chunk.sort_unstable();
            }
            tree.push(level.clone());
            if block >= raw.len() {
                break;
            }
            block <<= 1;
        }
        Self {
            folded,
            by_name,
            words,
            raw,
            tree,
        }
    }

    pub(super) fn folded(&self, street: u32) -> &str {
        &self.folded[street as usize]
    }

    /// Streets whose folded name is `folded`, by number.
    pub(super) fn equal(&self, folded: &str) -> &[u32] {
        let name_of = |street: &u32| &*self.folded[*street as usize];
        let lo = self.by_name.partition_point(|s| name_of(s) < folded);
        let len = self.by_name[lo..].partition_point(|s| name_of(s) == folded);
        &self.by_name[lo..lo + len]
    }

    /// Streets matching the folded, non-empty `query`, in rank order, `offset` skipped, at most
    /// `limit`.
    pub(super) fn search(&self, query: &str, offset: usize, limit: usize) -> Vec<u32> {
        let name_of = |&street: &u32| &*self.folded[street as usize];
        let (lo, hi) = prefix_run(&self.by_name, query, name_of);
        let mut out: Vec<u32> = self
            .by_name
            .get(lo + offset.min(hi - lo)..hi)
            .unwrap_or_default()
            .iter()
            .take(limit)
            .copied()
            .collect();
        if out.len() == limit {
            return out;
        }
        let skip = offset.saturating_sub(hi - lo);
        let want = skip + limit - out.len();
        let text = |&(street, at): &(u32, u32)| &self.folded[street as usize][at as usize..];
        let (a, b) = prefix_run(&self.words, query, text);
        let skipped = (index(lo), index(hi));
        let positions = self.smallest_positions(a, b, skipped, want);
        out.extend(
            positions
                .into_iter()
                .skip(skip)
                .map(|pos| self.by_name[pos as usize]),
        );
        out
    }

    /// The `want` smallest distinct `by_name` positions of `words[a..b]` outside
    /// `skipped.0..skipped.1`, ascending.
    fn smallest_positions(&self, a: usize, b: usize, skipped: (u32, u32), want: usize) -> Vec<u32> {
        let mut runs: Vec<&[u32]> = Vec::new();
        let mut loose: Vec<u32> = Vec::new();
        let (first_block, end_block) = (a.div_ceil(LEAF), b / LEAF);
        if first_block >= end_block {
            loose.extend_from_slice(&self.raw[a..b]);
        } else {
            loose.extend_from_slice(&self.raw[a..first_block * LEAF]);
            loose.extend_from_slice(&self.raw[end_block * LEAF..b]);
            // Whole blocks first_block..end_block, as canonical tree nodes, bottom up.
            let (mut lo, mut hi, mut level) = (first_block, end_block, 0);
            while lo < hi {
                let width = LEAF << level;
                let node = |i: usize| {
                    let from = i * width;
                    &self.tree[level][from..(from + width).min(self.raw.len())]
                };
                if lo & 1 == 1 {
                    runs.push(node(lo));
                    lo += 1;
                }
                if hi & 1 == 1 {
                    hi -= 1;
                    runs.push(node(hi));
                }
                lo >>= 1;
                hi >>= 1;
                level += 1;
            }
        }
        loose.sort_unstable();
        runs.push(&loose);
        merge_smallest(&runs, skipped, want)
    }
}

/// Merges the sorted `runs`, skipping values in `skipped.0..skipped.1` and repeats, until `want`
/// values are out.
fn merge_smallest(runs: &[&[u32]], skipped: (u32, u32), want: usize) -> Vec<u32> {
    let mut cursors: Vec<usize> = vec![0; runs.len()];
    let mut heap: BinaryHeap<Reverse<(u32, usize)>> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, run)| run.first().map(|&v| Reverse((v, i))))
        .collect();
    let mut out: Vec<u32> = Vec::with_capacity(want.min(1024));
    while out.len() < want {
        let Some(Reverse((value, run))) = heap.pop() else {
            break;
        };
        let rest = &runs[run][cursors[run]..];
        let step = if (skipped.0..skipped.1).contains(&value) {
            rest.partition_point(|&v| v < skipped.1)
        } else {
            if out.last() != Some(&value) {
                out.push(value);
            }
            1
        };
        cursors[run] += step;
        if let Some(&next) = runs[run].get(cursors[run]) {
            heap.push(Reverse((next, run)));
        }
    }
    out
}

/// The run of `sorted` whose key starts with `query` (keys sorted ascending).
fn prefix_run<'k, T>(sorted: &[T], query: &str, key: impl Fn(&T) -> &'k str) -> (usize, usize) {
    let lo = sorted.partition_point(|t| key(t) < query);
    let len = sorted[lo..].partition_point(|t| key(t).starts_with(query));
    (lo, lo + len)
}

/// An index into a model of at most `u32::MAX` entries (the read model refuses larger sets).
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
