//! `DELETE /admin/reply-templates/{templateId}`.

use actix_web::{web, HttpResponse};
use service_kit::extract::Path;
use service_kit::ApiError;

use super::super::super::params::ReplyTemplatePath;
use super::super::super::AppState;
use super::super::{access, ReportManager};
use super::template_error;
use crate::app::reply_templates;
use crate::routes::responses::TemplateManagerErrors;

/// Delete a reply template.
///
/// A template of a category the caller works (else 404 like one that does not exist).
#[utoipa::path(
    delete,
    path = "/admin/reply-templates/{templateId}",
    tag = "admin",
    operation_id = "deleteReplyTemplate",
    params(ReplyTemplatePath),
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 204, description = "Deleted"),
        TemplateManagerErrors,
    )
)]
#[tracing::instrument(name = "delete_reply_template", skip(state, auth))]
pub async fn delete(
    path: Path<ReplyTemplatePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
) -> Result<HttpResponse, ApiError> {
    let id = path.id()?;
    let access = access(&state, &auth.0).await?;
    reply_templates::delete(state.stores.reply_templates.as_ref(), &access, id)
        .await
        .map_err(template_error)?;
    Ok(HttpResponse::NoContent().finish())
}
