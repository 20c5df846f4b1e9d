//! `DELETE /admin/reports/{reportId}/media/{mediaId}`: removing a file of a report or of one of
//! its statements.

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::extract::Path;
use service_kit::ApiError;
use uuid::Uuid;

use super::super::params::ReportMediaPath;
use super::super::AppState;
use super::{access, ReportManager};
use crate::routes::responses::ManagerErrors;

fn media_not_found() -> ApiError {
    ApiError::new(ErrorCode::MediaNotFound, Message::new("media-not-found"))
}

/// Delete a file.
///
/// A report's own attachment (an officer of any category the report has a not moved issue in)
/// or a statement's file (an officer of the statement's issue's category); the stored file is
/// removed too, and the deletion is recorded in the audit trail. Citizens and the public see
/// the report or the statement without it from then on.
#[utoipa::path(
    delete,
    path = "/admin/reports/{reportId}/media/{mediaId}",
    tag = "admin",
    operation_id = "deleteAdminReportMedia",
    params(ReportMediaPath),
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 204, description = "Deleted"),
        ManagerErrors,
        (status = 404, description = "`MEDIA_NOT_FOUND`: no such file on this report or its statements, or not in the caller's categories", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "delete_admin_report_media", skip(state, auth))]
pub async fn delete(
    path: Path<ReportMediaPath>,
    state: web::Data<AppState>,
    auth: ReportManager,
) -> Result<HttpResponse, ApiError> {
    let (Ok(report_id), Ok(media_id)) = (path.report_id.parse::<Uuid>(), path.media_id.parse())
    else {
        return Err(media_not_found());
    };
    let access = access(&state, &auth.0).await?;
    let place = state.stores.admin.media_place(report_id, media_id).await?;
    let place = place.ok_or_else(media_not_found)?;
    if access.categories().is_some() && !place.categories.iter().any(|c| access.allows(*c)) {
        return Err(media_not_found());
    }
    let deleted = state
        .stores
        .admin
        .delete_media(report_id, media_id, &auth.0.subject, state.clock.now())
        .await?;
    if !deleted {
        return Err(media_not_found());
    }
    // The row is gone: the file is unreachable whatever happens next; a failure is only logged.
    state.media.discard(&[media_id]).await;
    Ok(HttpResponse::NoContent().finish())
}
