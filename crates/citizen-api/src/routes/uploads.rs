//! The `media` files of a multipart form (a report's filing, an officer's statement, an
//! editor's upload), stored as they arrive: each file is streamed to the media store and counted
//! against `media.max_total_bytes`; when the form is refused, every file stored so far is
//! removed again and the rest of the body is read, so a failed request leaves no file behind.
//!
//! Each file's pending-upload row (`store::uploads`) is committed before its first byte is
//! written: the transaction that inserts the file's `media` row deletes it, so a request that
//! dies between the two (a killed process) leaves a file the pending-upload sweep finds
//! (`app::pending_uploads`), never one no row names.

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
    /// Stores `file` (its pending-upload row first), then counts its uploaded bytes: over
    /// `media.max_total_bytes` is a 400 `TOTAL_MEDIA_SIZE_TOO_LARGE`. The file is recorded
    /// before it is counted, so that refusal removes it too ([`StoredFiles::discard`]).
    pub async fn store(
        &mut self,
        state: &AppState,
        file: &mut FilePart<'_>,
    ) -> Result<(), ApiError> {
        let sniffed = state.media.sniff(file).await?;
        let media_id = sniffed.media_id;
        state
            .stores
            .uploads
            .record_pending(media_id, state.clock.now())
            .await?;
        let stored = match state.media.write(file, sniffed).await {
            Ok(stored) => stored,
            Err(err) => {
                // Nothing was written under the id (the upload is aborted).
                forget(state, &[media_id]).await;
                return Err(err.into());
            }
        };
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

    /// After a refused form: removes the stored files (then their pending rows) and reads the
    /// rest of the body (a client that sends the whole form before reading gets the answer
    /// too).
    pub async fn discard(&self, state: &AppState, reader: &mut MultipartReader) {
        let stored = self.ids();
        state.media.discard(&stored).await;
        forget(state, &stored).await;
        reader.discard_rest().await;
    }

    /// The files are kept without a `media` row (an editor's upload, answered with their
    /// addresses): their pending rows go, so the sweep leaves them.
    pub async fn keep(&self, state: &AppState) -> Result<(), ApiError> {
        state.stores.uploads.forget_pending(&self.ids()).await?;
        Ok(())
    }

    fn ids(&self) -> Vec<Uuid> {
        self.media.iter().map(|m| m.id).collect()
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

/// Deletes the pending rows of files that are not there (any more); a failure is logged at warn,
/// as the request is failing already, and the sweep deletes the rows later.
async fn forget(state: &AppState, media_ids: &[Uuid]) {
    if let Err(err) = state.stores.uploads.forget_pending(media_ids).await {
        tracing::warn!(error = %err, "could not delete pending-upload rows");
    }
}
