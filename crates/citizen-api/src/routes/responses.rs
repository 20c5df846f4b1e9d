//! The error responses several of this service's routes document alike, each written once (as
//! `service_kit::docs::responses` does for those of every service): a route lists them by type
//! among its own tuples. Each is the [`service_kit::ErrorBody`] under its status, with the description the
//! routes wrote inline, so the OpenAPI description is the same as with the tuples.
//!
//! The responses that go together on many routes (who may call, how a body is refused) are
//! groups a route lists as one: a group's responses are those of its members, which answer
//! distinct statuses.

use service_kit::docs::responses::{
    Forbidden, InvalidJsonBody, NotApplicationJson, NotJson, OverJsonLimit, PayloadTooLarge,
    ServiceUnavailable, Unauthorized, UnsupportedMediaType,
};

service_kit::error_responses! {
    /// 403 of the workflow routes (`cityuser:reports:manage`).
    ManageForbidden: 403, "`FORBIDDEN`: the token lacks `cityuser:reports:manage`";
    /// 403 of the officers' reads (`cityuser:reports:read` or `cityuser:reports:manage`).
    ReadForbidden: 403, "`FORBIDDEN`: the token has neither `cityuser:reports:read` nor `cityuser:reports:manage`";
    /// 403 of the report categories' management (`cityuser:report-categories:manage`).
    CategoriesForbidden: 403, "`FORBIDDEN`: the token lacks `cityuser:report-categories:manage`";
    /// 403 of an editor's write, whose description names the scope.
    ScopeForbidden: 403, "`FORBIDDEN`: the token lacks the scope";
    /// 404 `ISSUE_NOT_FOUND` of an issue in the path.
    IssueNotFound: 404, "`ISSUE_NOT_FOUND`: no such issue, or not in the caller's categories";
    /// 404 `CATEGORY_NOT_FOUND` of a report category in the path.
    CategoryNotFound: 404, "`CATEGORY_NOT_FOUND`";
    /// 404 `REPLY_TEMPLATE_NOT_FOUND` of a reply template in the path.
    ReplyTemplateNotFound: 404, "`REPLY_TEMPLATE_NOT_FOUND`: no such reply template, or not in the caller's categories";
    /// 404 `REPORT_NOT_FOUND`.
    ReportNotFound: 404, "`REPORT_NOT_FOUND`";
    /// 404 `NEWS_ITEM_NOT_FOUND`.
    NewsItemNotFound: 404, "`NEWS_ITEM_NOT_FOUND`";
    /// 404 `PROJECT_NOT_FOUND`.
    ProjectNotFound: 404, "`PROJECT_NOT_FOUND`";
    /// 413 of an editor's write (`EDITOR_BODY_LIMIT`).
    OverEditorLimit: 413, "`PAYLOAD_TOO_LARGE`: the body is over 1 MiB";
    /// 413 of a multipart form with files ([`super::uploads`]).
    FileTooLarge: 413, "`PAYLOAD_TOO_LARGE`: a file over the per-file limit";
    /// 415 of a multipart form with files ([`super::uploads`]).
    NotMultipart: 415, "`UNSUPPORTED_MEDIA_TYPE`: not multipart/form-data, or a file type that is not accepted";
}

service_kit::response_group! {
    /// 401, 403 and 503 of the officers' reads (`cityuser:reports:read` or
    /// `cityuser:reports:manage`).
    pub struct ReaderErrors(Unauthorized, ReadForbidden, ServiceUnavailable);
    /// 401, 403 and 503 of the workflow routes (`cityuser:reports:manage`).
    pub struct ManagerErrors(Unauthorized, ManageForbidden, ServiceUnavailable);
    /// [`ManagerErrors`] and the 404 of a workflow route on an issue in the path.
    pub struct IssueManagerErrors(ManagerErrors, IssueNotFound);
    /// [`ManagerErrors`] and the 404 of a reply template in the path.
    pub struct TemplateManagerErrors(ManagerErrors, ReplyTemplateNotFound);
    /// 401, 403, 404 and 503 of the management of a report category in the path.
    pub struct CategoryManagerErrors(Unauthorized, CategoriesForbidden, CategoryNotFound, ServiceUnavailable);
    /// 401 and the bare 403 of an editor's change (the route's description names the scope).
    pub struct EditorErrors(Unauthorized, Forbidden);
    /// 400, 413 and 415 of the officers' JSON bodies where the route checks nothing more it
    /// would name.
    pub struct JsonObjectErrors(InvalidJsonBody, PayloadTooLarge, NotJson);
    /// 413 and 415 of a JSON body under the JSON limit, in the words of the citizens' routes.
    pub struct OwnJsonErrors(OverJsonLimit, NotApplicationJson);
    /// 413 and 415 of an editor's JSON body (`EDITOR_BODY_LIMIT`).
    pub struct EditorJsonErrors(OverEditorLimit, UnsupportedMediaType);
    /// 413 and 415 of a JSON body, bare.
    pub struct JsonErrors(PayloadTooLarge, UnsupportedMediaType);
    /// 413 and 415 of a multipart form with files ([`super::uploads`]).
    pub struct UploadErrors(FileTooLarge, NotMultipart);
}
