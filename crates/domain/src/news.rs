//! News (spec 2.4, 2.5, 4.3): the `pagecursor` of the news list, the category tree's rules, and
//! the limits of what editors write.
//!
//! The list has two orders. Without a location: newest `date` first, then id descending; the
//! cursor is `[date, news_id]`. With a location: items with a location nearest first (then id
//! ascending), then the items without a location (newest id first, UUID v7 ids follow their
//! creation); the cursor is `[distance in metres, news_id]`, or `["null", news_id]` in the second
//! part. A cursor is the position of the last item of a page; the next page starts strictly
//! after it, so pages never overlap or skip, also under ties. A cursor of one string stands
//! for the position after every item with that key: `[date]` continues with items older than
//! `date`, `[distance]` with items farther than `distance`, `["null"]` with the first item
//! without a location.
//!
//! Dates and ids are parsed by the caller's functions (this crate knows no date or UUID type).

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::i18n::Message;
use crate::limits::LimitError;

/// Longest category name, in characters.
pub const CATEGORY_NAME_MAX_CHARS: usize = 100;
/// Longest category description, in characters.
pub const CATEGORY_DESCRIPTION_MAX_CHARS: usize = 1000;
/// Longest news or project title, in characters.
pub const TITLE_MAX_CHARS: usize = 256;
/// Longest news or project description, in characters.
pub const DESCRIPTION_MAX_CHARS: usize = 20_000;
/// Longest image or media URL, in characters.
pub const URL_MAX_CHARS: usize = 2048;
/// Most categories on one news item, and most media on one project.
pub const ITEMS_MAX: usize = 20;
/// Most entries in one PATCH of subscriptions.
pub const SUBSCRIPTION_CHANGES_MAX: usize = 500;

/// Where a news page continues.
#[derive(Debug, Clone, PartialEq)]
pub enum NewsCursor<D, I> {
    /// Without a location: after `(date, id)` in the order newest first; `id` absent: after
    /// every item of that date.
    Date { date: D, id: Option<I> },
    /// With a location, in the part with a location: after `(distance, id)` in the order
    /// nearest first; `id` absent: after every item at that distance.
    Distance { metres: f64, id: Option<I> },
    /// With a location, in the part without one: after `id` (newest id first); `id` absent:
    /// at the start of that part.
    Unlocated { id: Option<I> },
}

fn malformed() -> LimitError {
    LimitError::new("pagecursor", Message::new("news-cursor-invalid"))
}

/// Parses the strings of `pagecursor` (one or two). `with_location`: whether the request has a
/// `location` (it decides which cursor is expected).
pub fn parse_news_cursor<D, I>(
    strings: &[String],
    with_location: bool,
    parse_date: impl Fn(&str) -> Option<D>,
    parse_id: impl Fn(&str) -> Option<I>,
) -> Result<NewsCursor<D, I>, LimitError> {
    let (first, id) = match strings {
        [first] => (first.as_str(), None),
        [first, id] => (
            first.as_str(),
            Some(parse_id(id.trim()).ok_or_else(malformed)?),
        ),
        _ => return Err(malformed()),
    };
    let first = first.trim();
    if with_location {
        if first == "null" {
            return Ok(NewsCursor::Unlocated { id });
        }
        let metres: f64 = first.parse().map_err(|_| malformed())?;
        if !metres.is_finite() || metres < 0.0 {
            return Err(malformed());
        }
        Ok(NewsCursor::Distance { metres, id })
    } else {
        let date = parse_date(first).ok_or_else(malformed)?;
        Ok(NewsCursor::Date { date, id })
    }
}

/// Whether an item with a location, `metres` from the list's point, with id `id`, comes after
/// `cursor` in the nearest-first order (distance, then id). No cursor, or one of another part,
/// puts every located item after it (the caller decides whether that part is read at all).
pub fn located_after<D, I: Ord>(cursor: Option<&NewsCursor<D, I>>, metres: f64, id: &I) -> bool {
    match cursor {
        Some(NewsCursor::Distance {
            metres: at,
            id: Some(after),
        }) => metres > *at || (metres == *at && id > after),
        Some(NewsCursor::Distance {
            metres: at,
            id: None,
        }) => metres > *at,
        _ => true,
    }
}

/// The `nextCursor` strings for a position: `[date, id]`, `[distance, id]` or `["null", id]`.
/// Distances are written in Rust's shortest form that reads back to the same number, so the
/// next page starts exactly after the last item.
pub fn news_cursor_strings(position: NewsCursor<String, String>) -> Vec<String> {
    let (first, id) = match position {
        NewsCursor::Date { date, id } => (date, id),
        NewsCursor::Distance { metres, id } => (metres.to_string(), id),
        NewsCursor::Unlocated { id } => ("null".to_owned(), id),
    };
    std::iter::once(first).chain(id).collect()
}

/// Why a category cannot get a parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParentError {
    /// No category has the parent id.
    ParentNotFound,
    /// The parent is the category itself or one of its descendants.
    Cycle,
}

impl ParentError {
    pub fn message(&self) -> Message {
        match self {
            Self::ParentNotFound => Message::new("news-category-parent-not-found"),
            Self::Cycle => Message::new("news-category-cycle"),
        }
    }
}

/// Checks that `category` may get `parent` given every category's current parent (`parents`:
/// id → parent id). For a new category pass an id not in `parents`.
pub fn check_parent<I: Eq + Hash + Copy>(
    category: I,
    parent: I,
    parents: &HashMap<I, Option<I>>,
) -> Result<(), ParentError> {
    if !parents.contains_key(&parent) {
        return Err(ParentError::ParentNotFound);
    }
    // Walk up from the new parent: meeting the category means it would be its own ancestor.
    let mut seen = HashSet::new();
    let mut at = Some(parent);
    while let Some(id) = at {
        if id == category || !seen.insert(id) {
            return Err(ParentError::Cycle);
        }
        at = parents.get(&id).copied().flatten();
    }
    Ok(())
}

/// `chosen` with all their descendants (each once, chosen ones first): what a `category`
/// filter matches. Ids not in `parents` are kept (they match nothing).
pub fn with_descendants<I: Eq + Hash + Copy>(
    chosen: &[I],
    parents: &HashMap<I, Option<I>>,
) -> Vec<I> {
    let mut children: HashMap<I, Vec<I>> = HashMap::new();
    for (id, parent) in parents {
        if let Some(parent) = parent {
            children.entry(*parent).or_default().push(*id);
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<I> = chosen.iter().rev().copied().collect();
    while let Some(id) = stack.pop() {
        if seen.insert(id) {
            out.push(id);
            if let Some(kids) = children.get(&id) {
                stack.extend(kids.iter().copied());
            }
        }
    }
    out
}

/// A text an editor wrote: trimmed, non-empty (when `required`) and at most `max` characters.
pub fn check_text(
    field: &'static str,
    value: &str,
    required: bool,
    max: usize,
) -> Result<(), Message> {
    let chars = value.trim().chars().count();
    if required && chars == 0 {
        return Err(Message::new("news-field-empty").arg("field", field));
    }
    if value.chars().count() > max {
        return Err(Message::new("news-field-too-long")
            .arg("field", field)
            .arg("max", max));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn located_after_follows_distance_then_id() {
        let at = |metres: f64, id: Option<u32>| NewsCursor::<(), u32>::Distance { metres, id };
        let unlocated = NewsCursor::<(), u32>::Unlocated { id: Some(1) };
        for (cursor, metres, id, want) in [
            (None, 0.0, 1, true),
            (Some(at(10.0, Some(5))), 10.0, 5, false),
            (Some(at(10.0, Some(5))), 10.0, 6, true),
            (Some(at(10.0, Some(5))), 10.0, 4, false),
            (Some(at(10.0, Some(5))), 10.5, 1, true),
            (Some(at(10.0, Some(5))), 9.5, 9, false),
            (Some(at(10.0, None)), 10.0, 9, false),
            (Some(at(10.0, None)), 10.01, 0, true),
            (Some(unlocated), 0.0, 0, true),
        ] {
            assert_eq!(
                located_after(cursor.as_ref(), metres, &id),
                want,
                "{metres} {id}"
            );
        }
    }

    fn date(s: &str) -> Option<u32> {
        s.strip_prefix('d')?.parse().ok()
    }

    fn id(s: &str) -> Option<u32> {
        s.strip_prefix('i')?.parse().ok()
    }

    fn cursor(strings: &[&str], located: bool) -> Result<NewsCursor<u32, u32>, LimitError> {
        let strings: Vec<String> = strings.iter().map(|s| s.to_string()).collect();
        parse_news_cursor(&strings, located, date, id)
    }

    #[test]
    fn cursors_of_one_and_two_strings() {
        for (strings, located, want) in [
            (
                &["d5", "i7"][..],
                false,
                NewsCursor::Date {
                    date: 5,
                    id: Some(7),
                },
            ),
            (&["d5"][..], false, NewsCursor::Date { date: 5, id: None }),
            (
                &["12.5", "i1"][..],
                true,
                NewsCursor::Distance {
                    metres: 12.5,
                    id: Some(1),
                },
            ),
            (
                &["0"][..],
                true,
                NewsCursor::Distance {
                    metres: 0.0,
                    id: None,
                },
            ),
            (
                &["null", "i3"][..],
                true,
                NewsCursor::Unlocated { id: Some(3) },
            ),
            (&["null"][..], true, NewsCursor::Unlocated { id: None }),
        ] {
            assert_eq!(cursor(strings, located).unwrap(), want, "{strings:?}");
        }
    }

    #[test]
    fn malformed_cursors_name_pagecursor() {
        for (strings, located) in [
            (&[][..], false),
            (&["d1", "i1", "i1"][..], false),
            (&["x", "i1"][..], false),
            (&["d1", "x"][..], false),
            (&["12.5", "i1"][..], false),
            (&["null", "i1"][..], false),
            (&["d1", "i1"][..], true),
            (&["-1", "i1"][..], true),
            (&["NaN", "i1"][..], true),
            (&["inf"][..], true),
            (&["null", "x"][..], true),
        ] {
            let err = cursor(strings, located).unwrap_err();
            assert_eq!(err.parameter, "pagecursor", "{strings:?}");
        }
    }

    #[test]
    fn handed_out_cursors_read_back_exactly() {
        for metres in [0.0, 0.1 + 0.2, 1_234.567_890_123_4, 1e-7, 40_000_000.0] {
            let strings = news_cursor_strings(NewsCursor::Distance {
                metres,
                id: Some("i1".to_owned()),
            });
            assert_eq!(
                cursor(&[&strings[0], &strings[1]], true).unwrap(),
                NewsCursor::Distance {
                    metres,
                    id: Some(1)
                }
            );
        }
        assert_eq!(
            news_cursor_strings(NewsCursor::Unlocated {
                id: Some("i2".into())
            }),
            ["null", "i2"]
        );
        assert_eq!(
            news_cursor_strings(NewsCursor::Date {
                date: "d1".into(),
                id: None
            }),
            ["d1"]
        );
    }

    fn tree() -> HashMap<u32, Option<u32>> {
        // 1 ─ 2 ─ 3, 4 alone
        HashMap::from([(1, None), (2, Some(1)), (3, Some(2)), (4, None)])
    }

    #[test]
    fn a_parent_must_exist_and_not_be_a_descendant() {
        let t = tree();
        for (category, parent, want) in [
            (4, 1, Ok(())),
            (3, 4, Ok(())),
            (9, 3, Ok(())), // a new category under a leaf
            (1, 1, Err(ParentError::Cycle)),
            (1, 2, Err(ParentError::Cycle)),
            (1, 3, Err(ParentError::Cycle)),
            (2, 3, Err(ParentError::Cycle)),
            (1, 8, Err(ParentError::ParentNotFound)),
        ] {
            assert_eq!(
                check_parent(category, parent, &t),
                want,
                "{category} under {parent}"
            );
        }
    }

    #[test]
    fn a_stored_cycle_does_not_hang() {
        let t = HashMap::from([(1, Some(2)), (2, Some(1)), (3, None)]);
        assert_eq!(check_parent(3, 1, &t), Err(ParentError::Cycle));
    }

    #[test]
    fn descendants_of_chosen_categories() {
        let t = tree();
        let mut d = with_descendants(&[1], &t);
        d.sort();
        assert_eq!(d, [1, 2, 3]);
        assert_eq!(with_descendants(&[3, 3], &t), [3]);
        let mut d = with_descendants(&[2, 4, 7], &t);
        d.sort();
        assert_eq!(d, [2, 3, 4, 7]);
    }

    #[test]
    fn texts_are_required_and_bounded() {
        assert!(check_text("name", "a", true, 3).is_ok());
        assert!(check_text("name", "žžž", true, 3).is_ok());
        assert!(check_text("name", " ", true, 3).is_err());
        assert!(check_text("name", "", false, 3).is_ok());
        assert!(check_text("name", "abcd", true, 3).is_err());
    }
}
