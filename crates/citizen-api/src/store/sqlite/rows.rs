//! Reading report, issue and media rows (SQLite): the records both backends share, and the
//! `IN (…)` list of ids.

use sqlx::{QueryBuilder, Sqlite};
use uuid::Uuid;

pub(super) use crate::store::records::{list_row, LIST_COLUMNS, REPORT_COLUMNS};

/// ` IN (?, ?, …)` over `ids` (never empty: an empty list matches nothing).
pub(super) fn push_in(q: &mut QueryBuilder<'_, Sqlite>, ids: &[Uuid]) {
    q.push(" IN (");
    if ids.is_empty() {
        q.push("NULL");
    }
    let mut list = q.separated(", ");
    for id in ids {
        list.push_bind(id.to_string());
    }
    q.push(")");
}
