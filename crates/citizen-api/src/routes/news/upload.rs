//! `POST /media`: an editor uploads pictures and documents for news items and projects, then
//! links their `public_url` (a news item's `image`, a project's `media`).

use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::Serialize;
use service_kit::docs::responses::Unauthorized;
use service_kit::multipart::{MultipartReader, MultipartSpec, Part};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::editor::MediaEditor;
use super::super::AppState;

/// A stored file.
#[derive(Debug, Serialize, ToSchema)]
pub struct UploadedFile {
    pub media_id: Uuid,
    /// What to put into a news item's `image` or a project's `media`.
    pub public_url: String,
    pub filename: String,
    #[schema(example = "image/jpeg")]
    pub media_type: String,
}

/// The stored files, in upload order.
#[derive(Debug, Serialize, ToSchema)]
pub struct Uploaded {
    pub media: Vec<UploadedFile>,
}

/// The form of `POST /media` (documentation).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // read by utoipa only
pub struct UploadForm {
    /// JPEG, PNG, WebP, HEIC or PDF, decided by their bytes; location and camera data are
    /// removed from photos.
    #[schema(value_type = Vec<String>, format = Binary)]
    media: Vec<Vec<u8>>,
}

/// Upload files for news and projects.
///
/// Scope `cityuser:news:manage` or `cityuser:projects:manage`. `multipart/form-data` with one
/// or more `media` files, under the same limits as a report's attachments. Nothing is stored
/// when one file is refused.
#[utoipa::path(
    post, path = "/media", tag = "news", operation_id = "uploadMedia",
    request_body(content_type = "multipart/form-data", content = UploadForm),
    security(("bearer" = ["cityuser:news:manage"]), ("bearer" = ["cityuser:projects:manage"])),
    responses(
        (status = 201, description = "The stored files", body = Uploaded),
        (status = 400, description = "`VALIDATION_ERROR` (no file, an unknown field, too many files), `NO_MEDIA` (an empty or broken file), `TOTAL_MEDIA_SIZE_TOO_LARGE`", body = service_kit::ErrorBody),
        Unauthorized,
        (status = 403, description = "`FORBIDDEN`: the token has neither scope", body = service_kit::ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`: a file over the per-file limit", body = service_kit::ErrorBody),
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: not multipart/form-data, or a file type that is not accepted", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "upload_media", skip_all)]
pub async fn upload(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
    _editor: MediaEditor,
) -> Result<HttpResponse, ApiError> {
    let spec = MultipartSpec::new(state.form_limits)
        .files("media")
        .total_too_large_code(ErrorCode::TotalMediaSizeTooLarge);
    let mut reader = MultipartReader::from_request(&req, body, spec)?;
    let mut stored = Vec::new();
    let read = read(&state, &mut reader, &mut stored).await;
    match read {
        Ok(()) if !stored.is_empty() => {
            Ok(HttpResponse::Created().json(Uploaded { media: stored }))
        }
        Ok(()) => Err(ApiError::validation(
            Message::new("multipart-missing-field").arg("field", "media"),
        )),
        Err(err) => {
            let ids: Vec<Uuid> = stored.iter().map(|m| m.media_id).collect();
            state.media.discard(&ids).await;
            reader.discard_rest().await;
            Err(err)
        }
    }
}

async fn read(
    state: &AppState,
    reader: &mut MultipartReader,
    stored: &mut Vec<UploadedFile>,
) -> Result<(), ApiError> {
    let mut uploaded = 0u64;
    while let Some(part) = reader.next().await? {
        if let Part::File(mut file) = part {
            let media = state.media.store_upload(&mut file).await?;
            stored.push(UploadedFile {
                media_id: media.media_id,
                public_url: state.media.public_url(media.media_id),
                filename: media.filename,
                media_type: media.media_type.mime().to_owned(),
            });
            uploaded += file.bytes_read();
            if uploaded > state.max_media_total {
                return Err(ApiError::new(
                    ErrorCode::TotalMediaSizeTooLarge,
                    Message::new("multipart-total-too-large").arg("limit", state.max_media_total),
                ));
            }
        }
    }
    Ok(())
}
