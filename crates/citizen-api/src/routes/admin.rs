//! The officers' side (`/admin/…`), a file per action: the admin report list and its counts per
//! status, the issues of a report, the workflow steps on an issue, duplicate suggestions,
//! statements, reply templates, media deletion, the audit trail, and the management of report
//! categories and their officers.
//!
//! Access: an officer works the issues of the categories they are assigned to; the scope
//! `cityuser:report-categories:access-all` works every category. An issue, report or file the
//! officer may not see answers 404 exactly like one that does not exist, so nothing about other
//! categories leaks.

pub mod audit;
pub mod categories;
pub mod conditional;
pub mod dto;
pub mod duplicates;
pub mod explicit;
pub mod issues;
pub mod list;
pub mod media;
pub mod officers;
pub mod reply_templates;
pub mod report;
pub mod statement;
pub mod stats;
pub mod status_counts;
pub mod workflow;

use actix_web::web;
use service_kit::auth::Principal;
use service_kit::ApiError;
use utoipa::OpenApi;
use uuid::Uuid;

use super::params::{IssuePath, ReportPath};
use super::reports::report_not_found;
use super::{AppState, ACCESS_ALL_SCOPE};
use crate::store::admin::{Access, AdminIssue};
use crate::store::WorkflowError;

pub use super::scopes::{AnyOfficer, ReportCategoryManager, ReportManager, ReportReader};

/// Registers the `/admin/…` routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/admin/reports").route(web::get().to(list::list)))
        .service(
            web::resource("/admin/reports/status-counts")
                .route(web::get().to(status_counts::status_counts)),
        )
        .service(web::resource("/admin/stats").route(web::get().to(stats::stats)))
        .service(web::resource("/admin/reports/{report_id}").route(web::get().to(report::report)))
        .service(
            web::resource("/admin/reports/{report_id}/issues")
                .route(web::get().to(issues::issues))
                .route(web::post().to(issues::open)),
        )
        .service(
            web::resource("/admin/reports/{report_id}/audit").route(web::get().to(audit::audit)),
        )
        .service(
            web::resource("/admin/reports/{report_id}/explicit")
                .route(web::put().to(explicit::set)),
        )
        .service(
            web::resource("/admin/reports/{report_id}/media/{media_id}")
                .route(web::delete().to(media::delete)),
        )
        .service(
            web::resource("/admin/issues/{issue_id}/accept")
                .route(web::post().to(workflow::accept)),
        )
        .service(
            web::resource("/admin/issues/{issue_id}/resolve")
                .route(web::post().to(workflow::resolve)),
        )
        .service(
            web::resource("/admin/issues/{issue_id}/move")
                .route(web::post().to(workflow::move_issue)),
        )
        .service(
            web::resource("/admin/issues/{issue_id}/duplicate-of")
                .route(web::post().to(duplicates::mark_duplicate)),
        )
        .service(
            web::resource("/admin/issues/{issue_id}/duplicate-suggestions")
                .route(web::get().to(duplicates::suggestions))
                .route(web::delete().to(duplicates::dismiss)),
        )
        .service(
            web::resource("/admin/issues/{issue_id}/statements")
                .route(web::post().to(statement::add)),
        )
        .service(
            web::resource("/admin/reply-templates")
                .route(web::get().to(reply_templates::list::list))
                .route(web::post().to(reply_templates::create::create)),
        )
        .service(
            web::resource("/admin/reply-templates/{template_id}")
                .route(web::patch().to(reply_templates::update::update))
                .route(web::delete().to(reply_templates::delete::delete)),
        )
        .service(
            web::resource("/admin/report-categories")
                .route(web::get().to(categories::list))
                .route(web::post().to(categories::create)),
        )
        .service(
            web::resource("/admin/report-categories/{category_id}")
                .route(web::patch().to(categories::update))
                .route(web::delete().to(categories::delete)),
        )
        .service(
            web::resource("/admin/report-categories/{category_id}/officers")
                .route(web::get().to(officers::list)),
        )
        .service(
            web::resource("/admin/report-categories/{category_id}/officers/{subject}")
                .route(web::put().to(officers::add))
                .route(web::delete().to(officers::remove)),
        );
}

/// The categories the caller works in.
pub async fn access(state: &AppState, principal: &Principal) -> Result<Access, ApiError> {
    if principal.has_scope(ACCESS_ALL_SCOPE) {
        return Ok(Access::All);
    }
    let categories = state
        .stores
        .categories
        .officer_categories(&principal.subject)
        .await?;
    Ok(Access::Categories(
        categories.into_iter().map(|c| c.id).collect(),
    ))
}

pub use super::not_found::issue_not_found;

pub use super::not_found::category_not_found;

/// The issue of the path when the caller may work it; 404 otherwise (also for another
/// category's issue).
pub async fn accessible_issue(
    state: &AppState,
    principal: &Principal,
    path: &IssuePath,
) -> Result<(AdminIssue, Access), ApiError> {
    let id = path.id()?;
    let access = access(state, principal).await?;
    let found = state.stores.admin.issue(id).await?;
    match found {
        Some(item) if access.allows(item.issue.category_id) => Ok((item, access)),
        _ => Err(issue_not_found()),
    }
}

/// The report of the path and its not moved issues the caller may see; 404 when there is no
/// such report, or (without access to every category) none of its issues is in the caller's
/// categories.
pub async fn accessible_report(
    state: &AppState,
    principal: &Principal,
    path: &ReportPath,
) -> Result<(Uuid, Vec<AdminIssue>), ApiError> {
    let id = path.id()?;
    let access = access(state, principal).await?;
    let found = state.stores.admin.report_issues(id, &access).await?;
    let issues = found.ok_or_else(report_not_found)?;
    if issues.is_empty() && access != Access::All {
        return Err(report_not_found());
    }
    Ok((id, issues))
}

/// The answer to a refused workflow step.
pub fn workflow_error(err: WorkflowError) -> ApiError {
    match err {
        WorkflowError::IssueNotFound => issue_not_found(),
        WorkflowError::CategoryNotFound => category_not_found(),
        WorkflowError::Refused(refused) => ApiError::new(refused.code(), refused.message()),
        WorkflowError::Store(err) => err.into(),
    }
}

#[derive(OpenApi)]
#[openapi(
    paths(
        list::list, report::report, issues::issues, issues::open, workflow::accept, workflow::resolve, workflow::move_issue,
        duplicates::mark_duplicate, duplicates::suggestions, duplicates::dismiss, statement::add,
        media::delete, explicit::set, audit::audit, categories::list, categories::create, categories::update,
        categories::delete, officers::list, officers::add, officers::remove, stats::stats,
        status_counts::status_counts, reply_templates::list::list, reply_templates::create::create,
        reply_templates::update::update, reply_templates::delete::delete
    ),
    components(schemas(
        dto::AdminIssueItem, dto::AdminReport, dto::AdminReportList, dto::IssueDetail,
        dto::IssueDetails, dto::AdminStatement, dto::SuggestionItem, dto::Suggestions,
        dto::AuditItem, dto::AuditTrail, dto::AdminCategory, dto::AdminCategories,
        dto::Officers, explicit::Explicit, issues::OpenIssueRequest, workflow::MoveRequest, duplicates::DuplicateRequest,
        statement::StatementForm, categories::NewCategoryRequest, categories::CategoryPatch,
        stats::Stats, stats::CategoryStats, stats::StatsFigures, stats::StatsDurations,
        status_counts::ReportStatusCounts, status_counts::CountsByStatus,
        reply_templates::ReplyTemplateItem, reply_templates::ReplyTemplates,
        reply_templates::TemplateTexts, reply_templates::AppliesOnSchema,
        reply_templates::create::NewReplyTemplate, reply_templates::update::ReplyTemplatePatch
    )),
    tags((name = "admin", description = "The officers' side: the admin report list and its \
        counts per status, the workflow on issues, duplicate suggestions, statements, reply \
        templates, media, audit trail, report categories and their officers, the officers' \
        figures (sign-in with an officer's scope required)"))
)]
pub struct AdminDoc;
