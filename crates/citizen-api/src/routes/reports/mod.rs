//! The report endpoints (`/reports…`), a file per action.

pub mod create;
pub mod detail;
pub mod list;
pub mod status;

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::ApiError;

/// 404 `REPORT_NOT_FOUND`.
pub fn report_not_found() -> ApiError {
    ApiError::new(ErrorCode::ReportNotFound, Message::new("report-not-found"))
}
