//! The `media` files of a multipart form (a report's filing, an officer's statement, an
//! editor's upload), stored as they arrive: each file is streamed to the media store and counted
//! against `media.max_total_bytes`; when the form is refused, every file stored so far is
//! removed again and the rest of the body is read, so a failed request leaves no file behind.

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::multipart::{FilePart, MultipartLimits, MultipartReader, MultipartSpec};
use service_kit::ApiError;
use uuid::Uuid;

use super::AppState;
use crate::store::Media;

/// The form's `media` files after its text fields; over the form's total is a
/// `TOTAL_MEDIA_SIZE_TOO_LARGE`.
pub fn with_media(spec: MultipartSpec) -> MultipartSpec {
    spec.files("media")
        .total_too_large_code(ErrorCode::TotalMediaSizeTooLarge)
}

/// A form of `media` files only.
pub fn media_only(limits: MultipartLimits) -> MultipartSpec {
    with_media(MultipartSpec::new(limits))
}

/// The files of one form stored so far, in upload order.
#[derive(Debug, Default)]
pub struct StoredFiles {
    pub media: Vec<Media>,
    /// Bytes of the files so far, as uploaded.
    uploaded: u64,
}

impl StoredFiles {
    /// Stores `file`, then counts its uploaded bytes: over `media.max_total_bytes` is a 400
    /// `TOTAL_MEDIA_SIZE_TOO_LARGE`. The file is recorded before it is counted, so that refusal
    /// removes it too ([`StoredFiles::discard`]).
    pub async fn store(
        &mut self,
        state: &AppState,
        file: &mut FilePart<'_>,
    ) -> Result<(), ApiError> {
        let stored = state.media.store_upload(file).await?;
        self.media.push(Media {
            id: stored.media_id,
            filename: stored.filename,
            media_type: stored.media_type.mime().to_owned(),
            size_bytes: stored.size,
        });
        self.uploaded += file.bytes_read();
        if self.uploaded > state.max_media_total {
            return Err(ApiError::new(
                ErrorCode::TotalMediaSizeTooLarge,
                Message::new("multipart-total-too-large").arg("limit", state.max_media_total),
            ));
        }
        Ok(())
    }

    /// After a refused form: removes the stored files and reads the rest of the body (a client
    /// that sends the whole form before reading gets the answer too).
    pub async fn discard(&self, state: &AppState, reader: &mut MultipartReader) {
        let stored: Vec<Uuid> = self.media.iter().map(|m| m.id).collect();
        state.media.discard(&stored).await;
        reader.discard_rest().await;
    }

    /// Passes the form's `outcome` on; a refusal first discards the files
    /// ([`StoredFiles::discard`]).
    pub async fn discard_if_refused<T>(
        &self,
        state: &AppState,
        reader: &mut MultipartReader,
        outcome: Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        if outcome.is_err() {
            self.discard(state, reader).await;
        }
        outcome
    }
}
