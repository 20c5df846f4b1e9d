//! `POST /media`: an editor uploads pictures and documents for news items and projects, then
//! links their `public_url` (a news item's `image`, a project's `media`).

use actix_web::{web, HttpRequest, HttpResponse};
use domain::i18n::Message;
use serde::Serialize;
use service_kit::docs::responses::Unauthorized;
use service_kit::multipart::{MultipartReader, Part};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::scopes::MediaEditor;
use super::super::uploads::{media_only, StoredFiles};
use super::super::AppState;
use crate::routes::responses::UploadErrors;

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
        UploadErrors,
    )
)]
#[tracing::instrument(name = "upload_media", skip_all)]
pub async fn upload(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
    _editor: MediaEditor,
) -> Result<HttpResponse, ApiError> {
    let spec = media_only(state.form_limits);
    let mut reader = MultipartReader::from_request(&req, body, spec)?;
    let mut files = StoredFiles::default();
    let read = read(&state, &mut reader, &mut files).await;
    let kept = match read {
        Ok(()) => files.keep(&state).await,
        Err(err) => Err(err),
    };
    files.discard_if_refused(&state, &mut reader, kept).await?;
    if files.media.is_empty() {
        return Err(ApiError::validation(
            Message::new("multipart-missing-field").arg("field", "media"),
        ));
    }
    Ok(HttpResponse::Created().json(Uploaded {
        media: files
            .media
            .into_iter()
            .map(|m| UploadedFile {
                public_url: state.media.public_url(m.id),
                media_id: m.id,
                filename: m.filename,
                media_type: m.media_type,
            })
            .collect(),
    }))
}

async fn read(
    state: &AppState,
    reader: &mut MultipartReader,
    files: &mut StoredFiles,
) -> Result<(), ApiError> {
    while let Some(part) = reader.next().await? {
        if let Part::File(mut file) = part {
            files.store(state, &mut file).await?;
        }
    }
    Ok(())
}
