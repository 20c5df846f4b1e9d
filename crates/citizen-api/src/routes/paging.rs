//! The cursor-paged lists (news, projects, notifications, vote tokens): the page size they
//! read, and the page they answer, read from the store with one row more than asked for to
//! tell whether another page follows.

use domain::limits::{parse_int_in, LimitError, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN};

/// `limit`: 1–100, 100 when absent.
pub fn page_limit(raw: Option<&str>) -> Result<u32, LimitError> {
    Ok(parse_int_in("limit", raw, LIMIT_MIN, LIMIT_MAX)?.unwrap_or(LIMIT_DEFAULT))
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
