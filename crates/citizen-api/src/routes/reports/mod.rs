//! The report endpoints (`/reports…`), a file per action.

pub mod create;
pub mod detail;
pub mod list;
pub mod status;

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::ApiError;
use uuid::Uuid;

/// 404 `REPORT_NOT_FOUND`.
pub fn report_not_found() -> ApiError {
    ApiError::new(ErrorCode::ReportNotFound, Message::new("report-not-found"))
}

/// The report id of a path: a text that is no UUID names no report (404, like an unknown one).
pub fn report_id(raw: &str) -> Result<Uuid, ApiError> {
    raw.parse().map_err(|_| report_not_found())
}
