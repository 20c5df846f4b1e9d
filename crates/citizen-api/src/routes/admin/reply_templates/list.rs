//! `GET /admin/reply-templates`: the templates of the caller's categories.

use actix_web::web;
use serde::Deserialize;
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::IntoParams;
use uuid::Uuid;

use super::super::super::params::category_ids;
use super::super::super::AppState;
use super::super::{access, ReportReader};
use super::{ReplyTemplateItem, ReplyTemplates};
use crate::routes::responses::ReaderErrors;
use crate::store::admin::Access;

/// The parameters of `GET /admin/reply-templates`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TemplateListParams {
    /// Category ids (repeat the parameter for several): only the templates of these of the
    /// caller's categories.
    #[serde(default)]
    #[param(value_type = Option<Vec<Uuid>>)]
    category: Vec<String>,
}

/// The categories to read: those asked for (all when none is) that the caller works; `None`
/// for every category.
fn shown(access: &Access, asked: Vec<Uuid>) -> Option<Vec<Uuid>> {
    match (access, asked.is_empty()) {
        (Access::All, true) => None,
        (Access::All, false) => Some(asked),
        (Access::Categories(mine), true) => Some(mine.clone()),
        (Access::Categories(_), false) => {
            Some(asked.into_iter().filter(|id| access.allows(*id)).collect())
        }
    }
}

/// The reply templates of the caller's categories.
///
/// Every template of the categories the caller works (every category with
/// `cityuser:report-categories:access-all`), or of those of them `category` names (another
/// category named there adds nothing), ordered by category name, then by title.
#[utoipa::path(
    get,
    path = "/admin/reply-templates",
    tag = "admin",
    operation_id = "listReplyTemplates",
    params(TemplateListParams),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The templates", body = ReplyTemplates),
        (status = 400, description = "`VALIDATION_ERROR`: a category id is malformed", body = service_kit::ErrorBody),
        ReaderErrors,
    )
)]
#[tracing::instrument(name = "list_reply_templates", skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    auth: ReportReader,
    Query(params): Query<TemplateListParams>,
) -> Result<Json<ReplyTemplates>, ApiError> {
    let asked = category_ids(&params.category)?;
    let access = access(&state, &auth.0).await?;
    let categories = shown(&access, asked);
    let templates = state
        .stores
        .reply_templates
        .reply_templates(categories.as_deref())
        .await?;
    Ok(Json(ReplyTemplates {
        templates: templates.into_iter().map(ReplyTemplateItem::from).collect(),
    }))
}
