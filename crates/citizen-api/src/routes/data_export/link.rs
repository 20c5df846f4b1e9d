//! `POST /me/data-export` and `GET /me/data-export`: an export's link.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use domain::i18n::Message;
use service_kit::auth::Auth;
use service_kit::docs::responses::{ServiceUnavailable, Unauthorized};
use service_kit::ApiError;

use super::super::AppState;
use super::DataExportLink;

/// Export my data.
///
/// Hands out a link to an archive (ZIP) of everything the platform holds about the caller:
/// its reports with their timelines and photos, its vote tokens, notification settings,
/// subscriptions and feed, as JSON files whose schemas are in this description
/// (`ExportAccount`, `ExportReport`, `Token`, `NotificationItem`; docs/privacy.md). The archive
/// is written while it downloads, from the data at that moment, so it is ready at once. The
/// link works until `expires_at`; asking again replaces it.
#[utoipa::path(
    post, path = "/me/data-export", tag = "me", operation_id = "startDataExport",
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The link", body = DataExportLink,
            headers(("Location" = String, description = "`/me/data-export`"))),
        Unauthorized,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "start_data_export", skip_all)]
pub async fn start(state: web::Data<AppState>, auth: Auth) -> Result<HttpResponse, ApiError> {
    let export = crate::app::export::start(
        state.stores.privacy.as_ref(),
        &auth.0.subject,
        state.clock.now(),
        state.privacy.export_valid(),
    )
    .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            header::LOCATION,
            format!("{}/me/data-export", state.base_path),
        ))
        .json(DataExportLink::new(&export, &state.base_path)))
}

/// My export's link.
///
/// The link `POST /me/data-export` handed out, while it works.
#[utoipa::path(
    get, path = "/me/data-export", tag = "me", operation_id = "getDataExport",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The link", body = DataExportLink),
        Unauthorized,
        (status = 404, description = "`NOT_FOUND`: no export, or its link has expired", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "get_data_export", skip_all)]
pub async fn status(
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<web::Json<DataExportLink>, ApiError> {
    let export = state
        .stores
        .privacy
        .export_of(&auth.0.subject, state.clock.now())
        .await?
        .ok_or_else(|| ApiError::not_found(Message::new("data-export-not-found")))?;
    Ok(web::Json(DataExportLink::new(&export, &state.base_path)))
}
