//! The schema and limits of a form, and the cap on raw body bytes.

use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_multipart::MultipartError;
use actix_web::error::PayloadError;
use actix_web::web::{self, Bytes};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use futures::{Stream, StreamExt};

use crate::error::ApiError;

/// Wire bytes allowed beyond `max_total_bytes` for boundaries and part headers: this much for
/// the body, plus [`PART_OVERHEAD`] for every part the schema can hold.
const BODY_OVERHEAD: u64 = 64 * 1024;
/// See [`BODY_OVERHEAD`].
const PART_OVERHEAD: u64 = 16 * 1024;

/// Size limits, checked while the body streams in. Sizes count part contents, not headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultipartLimits {
    /// Largest text field, in bytes.
    pub max_text_bytes: u64,
    /// Largest file, in bytes.
    pub max_file_bytes: u64,
    /// Most file parts in one body (all file fields together).
    pub max_files: usize,
    /// Largest sum of all parts (text and files), in bytes.
    pub max_total_bytes: u64,
}

/// The fields a form may have, and its limits.
#[derive(Debug, Clone)]
pub struct MultipartSpec {
    /// Text fields with whether each is required.
    pub(super) texts: Vec<(&'static str, bool)>,
    pub(super) files: Vec<&'static str>,
    pub(super) limits: MultipartLimits,
    total_code: ErrorCode,
}

impl MultipartSpec {
    /// A schema with no fields yet; a body over `max_total_bytes` is a 413 `PAYLOAD_TOO_LARGE`.
    pub fn new(limits: MultipartLimits) -> Self {
        Self {
            texts: Vec::new(),
            files: Vec::new(),
            limits,
            total_code: ErrorCode::PayloadTooLarge,
        }
    }

    /// Allows the optional text field `name` (at most once).
    #[must_use]
    pub fn text(mut self, name: &'static str) -> Self {
        self.texts.push((name, false));
        self
    }

    /// Allows the text field `name` (exactly once); its absence is a 400 at the end of the body.
    #[must_use]
    pub fn required_text(mut self, name: &'static str) -> Self {
        self.texts.push((name, true));
        self
    }

    /// Allows any number of files (up to `max_files` in all) in the field `name`.
    #[must_use]
    pub fn files(mut self, name: &'static str) -> Self {
        self.files.push(name);
        self
    }

    /// The code answered when the parts together exceed `max_total_bytes` (e.g. citizen-api's
    /// `TOTAL_MEDIA_SIZE_TOO_LARGE`); the message stays `multipart-total-too-large`.
    #[must_use]
    pub fn total_too_large_code(mut self, code: ErrorCode) -> Self {
        self.total_code = code;
        self
    }

    /// The limits.
    pub fn limits(&self) -> MultipartLimits {
        self.limits
    }

    pub(super) fn total_too_large(&self) -> ApiError {
        ApiError::new(
            self.total_code,
            Message::new("multipart-total-too-large").arg("limit", self.limits.max_total_bytes),
        )
    }

    /// A failure of the multipart stream (`wire_exceeded`: [`WireLimit`] cut the body).
    pub(super) fn stream_error(&self, err: MultipartError, wire_exceeded: bool) -> ApiError {
        if wire_exceeded {
            return self.total_too_large();
        }
        match err {
            MultipartError::ContentTypeMissing
            | MultipartError::ContentTypeParse
            | MultipartError::ContentTypeIncompatible => ApiError::new(
                ErrorCode::UnsupportedMediaType,
                Message::new("multipart-content-type"),
            ),
            err => malformed(err),
        }
    }

    /// The most wire bytes a body within the limits can take.
    pub(super) fn wire_budget(&self) -> u64 {
        let parts = (self.texts.len() as u64).saturating_add(self.limits.max_files as u64);
        self.limits
            .max_total_bytes
            .saturating_add(BODY_OVERHEAD)
            .saturating_add(parts.saturating_mul(PART_OVERHEAD))
    }
}

/// 400 `multipart-malformed`.
pub(super) fn malformed(reason: impl std::fmt::Display) -> ApiError {
    ApiError::validation(Message::new("multipart-malformed").arg("reason", reason))
}

/// The request body, ending in an error once more than `budget` bytes came.
pub(super) struct WireLimit {
    /// Shared with the reader, which takes it to discard what is left of a refused body
    /// ([`super::MultipartReader::discard_rest`]); taken, the stream ends.
    pub(super) inner: Rc<RefCell<Option<web::Payload>>>,
    pub(super) read: u64,
    pub(super) budget: u64,
    pub(super) exceeded: Rc<Cell<bool>>,
}

impl Stream for WireLimit {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.exceeded.get() {
            return Poll::Ready(Some(Err(PayloadError::Overflow)));
        }
        let polled = match self.inner.borrow_mut().as_mut() {
            Some(payload) => payload.poll_next_unpin(cx),
            None => Poll::Ready(None),
        };
        if let Poll::Ready(Some(Ok(chunk))) = &polled {
            self.read = self.read.saturating_add(chunk.len() as u64);
            if self.read > self.budget {
                self.exceeded.set(true);
                return Poll::Ready(Some(Err(PayloadError::Overflow)));
            }
        }
        polled
    }
}
