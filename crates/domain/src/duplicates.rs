//! Duplicate suggestions (issue 9): when an issue is opened (a report filed, or an issue moved
//! into a category), open or accepted issues of the same category that are near, recent and
//! worded alike are suggested to the officers as possible duplicates. Only a suggestion: the
//! flag `has_possible_duplicates` is set, nothing changes state.
//!
//! [`similarity`] compares two texts as sets of words: both are folded
//! ([`crate::text::fold`]: case and diacritics ignored), words shorter than
//! [`MIN_WORD_CHARS`] are dropped (articles, prepositions, house numbers), and the Jaccard index
//! of the two sets is the similarity (0 = no word in common, 1 = the same words).
//! [`DuplicateRule::suggests`] applies distance, time and similarity together.

use std::collections::BTreeSet;

use crate::text::fold;

/// Words with fewer characters take no part in the comparison.
pub const MIN_WORD_CHARS: usize = 3;

/// The folded words of `text` with at least [`MIN_WORD_CHARS`] characters.
pub fn words(text: &str) -> BTreeSet<String> {
    fold(text)
        .split(' ')
        .filter(|w| w.chars().count() >= MIN_WORD_CHARS)
        .map(str::to_owned)
        .collect()
}

/// The Jaccard index of the word sets of `a` and `b`, in 0..=1 (0 when either has no word).
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    if union == 0 {
        return 0.0;
    }
    let common = a.intersection(&b).count();
    common as f64 / union as f64
}

/// When a candidate counts as a possible duplicate (settings `duplicates.*`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DuplicateRule {
    /// Most metres between the two reports' locations.
    pub radius_m: f64,
    /// Most seconds between the two reports' filing times (either order).
    pub window_seconds: i64,
    /// Least [`similarity`] of the two texts.
    pub min_similarity: f64,
}

impl DuplicateRule {
    /// Whether a candidate `distance_m` metres and `seconds_apart` seconds away, with texts of
    /// similarity `similarity`, is suggested. Limits are inclusive.
    pub fn suggests(&self, distance_m: f64, seconds_apart: i64, similarity: f64) -> bool {
        distance_m <= self.radius_m
            && seconds_apart.unsigned_abs() <= self.window_seconds.unsigned_abs()
            && similarity >= self.min_similarity
    }
}

#[cfg(test)]
mod tests;
