//! Reading report, issue and media rows (PostgreSQL): the records both backends share.

pub(super) use crate::store::records::{list_row, LIST_COLUMNS, REPORT_COLUMNS};
