//! The cursor-paged lists (news, projects, notifications, vote tokens): the page size and the
//! cursor they read, and the page they answer, read from the store with one row more than asked for to
//! tell whether another page follows.

use chrono::{DateTime, Utc};
use domain::limits::{parse_int_in, LimitError, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN};

/// `limit`: 1–100, 100 when absent.
pub fn page_limit(raw: Option<&str>) -> Result<u32, LimitError> {
    Ok(parse_int_in("limit", raw, LIMIT_MIN, LIMIT_MAX)?.unwrap_or(LIMIT_DEFAULT))
}

/// An RFC 3339 instant of a cursor or a parameter (an offset instead of `Z` is fine), in UTC.
pub fn instant(raw: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(raw)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// The position a cursor of two strings names (`?pagecursor=<a>&pagecursor=<b>`), each read by
/// its parser: `None` without a cursor; another count of strings, or a string its parser
/// refuses, is `bad`.
pub fn cursor_pair<A, B>(
    pagecursor: &[String],
    first: impl FnOnce(&str) -> Option<A>,
    second: impl FnOnce(&str) -> Option<B>,
    bad: impl Fn() -> LimitError,
) -> Result<Option<(A, B)>, LimitError> {
    match pagecursor {
        [] => Ok(None),
        [a, b] => match (first(a), second(b)) {
            (Some(a), Some(b)) => Ok(Some((a, b))),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// Keeps the first `limit` of `rows` (read with `limit + 1`); true when more followed.
pub fn keep_page<T>(rows: &mut Vec<T>, limit: u32) -> bool {
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    more
}

/// Keeps the first `limit` of `rows` (read with `limit + 1`) and answers the next page's
/// cursor: the position of the page's last row when more followed, `None` on the last page.
pub fn next_cursor<T, C>(
    rows: &mut Vec<T>,
    limit: u32,
    position: impl FnOnce(&T) -> C,
) -> Option<C> {
    if keep_page(rows, limit) {
        rows.last().map(position)
    } else {
        None
    }
}
