//! Why a file was not stored, and what the client is told.

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::ApiError;

use super::MediaType;

/// A file that could not be stored or read back.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// The file part has no bytes at all → 400 `NO_MEDIA` (`media-empty`).
    #[error("the file part is empty")]
    Empty,
    /// The request body broke off or was malformed inside the file part → 400 `NO_MEDIA`
    /// (`media-unreadable`); the reader's own error is logged.
    #[error("the file part cannot be read: {0}")]
    Unreadable(ApiError),
    /// The file is declared as one of our types by its first bytes but its structure is broken
    /// (truncated, a segment longer than the file, no end marker) → 400 `NO_MEDIA`
    /// (`media-corrupt`).
    #[error("the {0:?} file is corrupt: {1}")]
    Corrupt(MediaType, &'static str),
    /// The first bytes are none of the accepted types → 400 `VALIDATION_ERROR`
    /// (`media-unsupported-type`, naming the accepted types).
    #[error("the file is of no accepted type")]
    UnsupportedType,
    /// The file carries metadata in a form we cannot remove safely (an HEIF Exif/XMP item
    /// stored in another item or with an open-ended extent) → 400 `VALIDATION_ERROR`
    /// (`media-metadata-not-removable`).
    #[error("the {0:?} file has metadata that cannot be removed: {1}")]
    MetadataNotRemovable(MediaType, &'static str),
    /// The request itself was refused by the multipart reader (a size or count limit: 413,
    /// `TOTAL_MEDIA_SIZE_TOO_LARGE`, …); answered as the reader decided.
    #[error("{0}")]
    Request(ApiError),
    /// The object store failed → 503 `SERVICE_UNAVAILABLE` (logged at warn); the client may
    /// retry.
    #[error("object store: {0}")]
    Storage(#[from] object_store::Error),
    /// A stored object does not start like any accepted type (it was not written by us) → 500.
    #[error("stored object {0} is of no accepted type")]
    StoredUnknown(String),
}

impl MediaError {
    /// Sorts an error of [`service_kit::multipart::FilePart::chunk`]: limits pass through,
    /// a body that cannot be read any further is [`MediaError::Unreadable`].
    pub fn from_reader(err: ApiError) -> Self {
        let malformed = err
            .message()
            .is_some_and(|m| m.key == "multipart-malformed");
        if malformed {
            Self::Unreadable(err)
        } else {
            Self::Request(err)
        }
    }
}

impl From<MediaError> for ApiError {
    fn from(err: MediaError) -> Self {
        match err {
            MediaError::Empty => ApiError::new(ErrorCode::NoMedia, Message::new("media-empty")),
            MediaError::Unreadable(cause) => {
                tracing::info!(error = %cause, "file part broke off");
                ApiError::new(ErrorCode::NoMedia, Message::new("media-unreadable"))
            }
            MediaError::Corrupt(media_type, reason) => {
                tracing::info!(%media_type, reason, "corrupt file refused");
                ApiError::new(
                    ErrorCode::NoMedia,
                    Message::new("media-corrupt").arg("type", media_type.label()),
                )
            }
            MediaError::UnsupportedType => ApiError::validation(
                Message::new("media-unsupported-type").arg("types", MediaType::accepted_labels()),
            ),
            MediaError::MetadataNotRemovable(media_type, reason) => {
                tracing::info!(%media_type, reason, "file with unremovable metadata refused");
                ApiError::validation(
                    Message::new("media-metadata-not-removable").arg("type", media_type.label()),
                )
            }
            MediaError::Request(err) => err,
            MediaError::Storage(cause) => ApiError::unavailable(cause),
            MediaError::StoredUnknown(key) => ApiError::internal(anyhow::anyhow!(
                "stored object {key} is of no accepted type"
            )),
        }
    }
}
