//! The error responses several of this service's routes document alike, each written once (as
//! `service_kit::docs::responses` does for those of every service): a route lists them by type
//! among its own tuples. Each is the [`ErrorBody`] under its status, with the description the
//! routes wrote inline, so the OpenAPI description is the same as with the tuples.

use service_kit::ErrorBody;
use utoipa::IntoResponses;

/// 403 of the workflow routes (`cityuser:reports:manage`).
#[derive(IntoResponses)]
#[response(
    status = 403,
    description = "`FORBIDDEN`: the token lacks `cityuser:reports:manage`"
)]
pub struct ManageForbidden(pub ErrorBody);

/// 403 of the officers' reads (`cityuser:reports:read` or `cityuser:reports:manage`).
#[derive(IntoResponses)]
#[response(
    status = 403,
    description = "`FORBIDDEN`: the token has neither `cityuser:reports:read` nor `cityuser:reports:manage`"
)]
pub struct ReadForbidden(pub ErrorBody);

/// 403 of the report categories' management (`cityuser:report-categories:manage`).
#[derive(IntoResponses)]
#[response(
    status = 403,
    description = "`FORBIDDEN`: the token lacks `cityuser:report-categories:manage`"
)]
pub struct CategoriesForbidden(pub ErrorBody);

/// 403 of an editor's write, whose description names the scope.
#[derive(IntoResponses)]
#[response(status = 403, description = "`FORBIDDEN`: the token lacks the scope")]
pub struct ScopeForbidden(pub ErrorBody);

/// 404 `ISSUE_NOT_FOUND` of an issue in the path.
#[derive(IntoResponses)]
#[response(
    status = 404,
    description = "`ISSUE_NOT_FOUND`: no such issue, or not in the caller's categories"
)]
pub struct IssueNotFound(pub ErrorBody);

/// 404 `CATEGORY_NOT_FOUND` of a report category in the path.
#[derive(IntoResponses)]
#[response(status = 404, description = "`CATEGORY_NOT_FOUND`")]
pub struct CategoryNotFound(pub ErrorBody);

/// 404 `REPORT_NOT_FOUND`.
#[derive(IntoResponses)]
#[response(status = 404, description = "`REPORT_NOT_FOUND`")]
pub struct ReportNotFound(pub ErrorBody);

/// 404 `NEWS_ITEM_NOT_FOUND`.
#[derive(IntoResponses)]
#[response(status = 404, description = "`NEWS_ITEM_NOT_FOUND`")]
pub struct NewsItemNotFound(pub ErrorBody);

/// 404 `PROJECT_NOT_FOUND`.
#[derive(IntoResponses)]
#[response(status = 404, description = "`PROJECT_NOT_FOUND`")]
pub struct ProjectNotFound(pub ErrorBody);

/// 413 of an editor's write (`EDITOR_BODY_LIMIT`).
#[derive(IntoResponses)]
#[response(
    status = 413,
    description = "`PAYLOAD_TOO_LARGE`: the body is over 1 MiB"
)]
pub struct OverEditorLimit(pub ErrorBody);

/// 413 of a multipart form with files ([`super::uploads`]).
#[derive(IntoResponses)]
#[response(
    status = 413,
    description = "`PAYLOAD_TOO_LARGE`: a file over the per-file limit"
)]
pub struct FileTooLarge(pub ErrorBody);

/// 415 of a multipart form with files ([`super::uploads`]).
#[derive(IntoResponses)]
#[response(
    status = 415,
    description = "`UNSUPPORTED_MEDIA_TYPE`: not multipart/form-data, or a file type that is not accepted"
)]
pub struct NotMultipart(pub ErrorBody);
