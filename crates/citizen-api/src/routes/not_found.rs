//! The 404 answers of the resources a path names, in one module below every route module (the
//! path parameters in `params` and the resources' own routes both answer with them).

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::ApiError;

/// 404 `ISSUE_NOT_FOUND`.
pub fn issue_not_found() -> ApiError {
    ApiError::new(ErrorCode::IssueNotFound, Message::new("issue-not-found"))
}

/// 404 `CATEGORY_NOT_FOUND` of a report category.
pub fn category_not_found() -> ApiError {
    ApiError::new(
        ErrorCode::CategoryNotFound,
        Message::new("report-category-not-found"),
    )
}

/// 404 `PROJECT_NOT_FOUND`.
pub fn project_not_found() -> ApiError {
    ApiError::new(
        ErrorCode::ProjectNotFound,
        Message::new("project-not-found"),
    )
}

/// 404 `NEWS_ITEM_NOT_FOUND`.
pub fn news_item_not_found() -> ApiError {
    ApiError::new(
        ErrorCode::NewsItemNotFound,
        Message::new("news-item-not-found"),
    )
}

/// 404 `CATEGORY_NOT_FOUND` of a news category.
pub fn news_category_not_found() -> ApiError {
    ApiError::new(
        ErrorCode::CategoryNotFound,
        Message::new("news-category-not-found"),
    )
}

/// 404 `REPORT_NOT_FOUND`.
pub fn report_not_found() -> ApiError {
    ApiError::new(ErrorCode::ReportNotFound, Message::new("report-not-found"))
}

/// 404 `REPLY_TEMPLATE_NOT_FOUND` (also a template of another category than the caller's).
pub fn reply_template_not_found() -> ApiError {
    ApiError::new(
        ErrorCode::ReplyTemplateNotFound,
        Message::new("reply-template-not-found"),
    )
}
