//! `GET /data-exports/{token}`: an export's archive, streamed.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use domain::i18n::Message;
use serde::Deserialize;
use service_kit::docs::responses::ServiceUnavailable;
use service_kit::extract::Path;
use service_kit::ApiError;
use utoipa::IntoParams;

use super::super::AppState;

/// The bytes of the pipe between the archive's writer and the response.
const PIPE_BYTES: usize = 64 * 1024;

/// `/data-exports/{token}`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ExportTokenPath {
    /// The token of the link `POST /me/data-export` handed out.
    pub token: String,
}

/// Download an export.
///
/// The archive (ZIP) of the export whose link this is, written while it downloads; the link is
/// the credential, no sign-in is needed. `account.json` lists the other files.
#[utoipa::path(
    get, path = "/data-exports/{token}", tag = "me", operation_id = "downloadDataExport",
    params(ExportTokenPath),
    responses(
        (status = 200, description = "The archive", content_type = "application/zip",
            body = Vec<u8>),
        (status = 404, description = "`NOT_FOUND`: no such link, or it has expired", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "download_data_export", skip_all)]
pub async fn download(
    path: Path<ExportTokenPath>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let now = state.clock.now();
    let export = state
        .stores
        .privacy
        .export_by_token(&path.token, now)
        .await?
        .ok_or_else(|| ApiError::not_found(Message::new("data-export-not-found")))?;
    // Read before the answer starts, so that a database that is down answers 503; what follows
    // is read while it downloads, and a fault there cuts the archive short (logged).
    let account = crate::app::export::account(&state.stores, &export.subject).await?;
    let (reader, writer) = tokio::io::duplex(PIPE_BYTES);
    let (stores, media) = (state.stores.clone(), state.media.clone());
    actix_web::rt::spawn(async move {
        if let Err(err) = super::archive::write(writer, &stores, account, &media, now).await {
            // The client went away, or a read failed: the archive is cut short.
            tracing::warn!(error = %err, "a data export's archive stopped");
        }
    });
    let filename = format!("citizen-data-{}.zip", now.format("%Y-%m-%d"));
    Ok(HttpResponse::Ok()
        .content_type("application/zip")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .streaming(tokio_util::io::ReaderStream::new(reader)))
}
