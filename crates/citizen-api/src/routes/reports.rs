//! The report endpoints (`/reports…`), a file per action.

pub mod create;
pub mod detail;
mod idempotency;
pub mod list;
pub mod status;

pub use super::not_found::report_not_found;
