//! A streaming reader of `multipart/form-data` bodies with a declared schema and size limits.
//!
//! [`MultipartReader`] reads the parts in order. Text fields come out whole as
//! [`Part::Text`] (decoded as UTF-8); files come out as [`Part::File`], a [`FilePart`] whose bytes
//! the caller pulls chunk by chunk with [`FilePart::chunk`] and writes to storage as they arrive,
//! so a file is never held in memory whole. Every limit of [`MultipartLimits`] is checked as each
//! chunk arrives: the first chunk that goes over a limit ends the reading with the error, so a
//! 2 GB upload costs no more memory than one chunk. Errors:
//!
//! | problem | code | message key |
//! |---|---|---|
//! | body is not `multipart/form-data` | 415 `UNSUPPORTED_MEDIA_TYPE` | `multipart-content-type` |
//! | field not in the [`MultipartSpec`] | 400 `VALIDATION_ERROR` | `multipart-unknown-field` |
//! | text field over `max_text_bytes` | 413 `PAYLOAD_TOO_LARGE` | `multipart-field-too-large` |
//! | file over `max_file_bytes` | 413 `PAYLOAD_TOO_LARGE` | `multipart-file-too-large` |
//! | more than `max_files` files | 400 `VALIDATION_ERROR` | `multipart-too-many-files` |
//! | all parts together over `max_total_bytes` | 413, or [`MultipartSpec::total_too_large_code`] | `multipart-total-too-large` |
//! | text field not UTF-8 | 400 `VALIDATION_ERROR` | `multipart-not-utf8` |
//! | required text field absent | 400 `VALIDATION_ERROR` | `multipart-missing-field` |
//! | text field repeated, broken framing, client gone | 400 `VALIDATION_ERROR` | `multipart-malformed` |
//!
//! A part that the caller leaves unread is read (and counted) by the next [`MultipartReader::next`].
//! After an error the reader answers that same error again and reads nothing more.
//!
//! ```
//! use actix_web::{web, HttpRequest};
//! use domain::error_code::ErrorCode;
//! use service_kit::extract::Json;
//! use service_kit::multipart::{MultipartLimits, MultipartReader, MultipartSpec, Part};
//! use service_kit::ApiError;
//!
//! async fn create_report(req: HttpRequest, body: web::Payload) -> Result<Json<u64>, ApiError> {
//!     let limits = MultipartLimits {
//!         max_text_bytes: 10_000,
//!         max_file_bytes: 20 << 20,
//!         max_files: 5,
//!         max_total_bytes: 50 << 20,
//!     };
//!     let spec = MultipartSpec::new(limits)
//!         .required_text("title")
//!         .text("description")
//!         .required_text("location")
//!         .required_text("captchaToken")
//!         .files("media")
//!         .total_too_large_code(ErrorCode::TotalMediaSizeTooLarge);
//!     let mut reader = MultipartReader::from_request(&req, body, spec)?;
//!     let mut stored = 0;
//!     while let Some(part) = reader.next().await? {
//!         match part {
//!             Part::Text { name, value } => { /* keep `value` of `name` */ }
//!             Part::File(mut file) => {
//!                 // open storage for `file.filename` / `file.content_type`, then:
//!                 while let Some(chunk) = file.chunk().await? {
//!                     stored += chunk.len() as u64; // write `chunk` to storage
//!                 }
//!             }
//!         }
//!     }
//!     Ok(Json(stored))
//! }
//! ```
//!
//! [`MultipartReader::collect`] reads everything into memory instead (for small forms and tests).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use actix_multipart::Field;
use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::HttpRequest;
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use futures::StreamExt;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

mod form;
mod spec;

pub use form::{Form, FormFile};
use spec::WireLimit;

/// How long [`MultipartReader::discard_rest`] reads a refused body (nginx's `lingering_timeout`
/// is as long): enough for a client on a fair link to finish sending a form of the size limits
/// allow; a longer body is cut, its connection closed.
pub const DISCARD_WITHIN: Duration = Duration::from_secs(5);
pub use spec::{MultipartLimits, MultipartSpec};

/// actix-multipart's extractor, for [`MultipartReader::new`].
pub use actix_multipart::Multipart;

/// One part of the body, in the order the client sent them.
#[derive(Debug)]
pub enum Part<'r> {
    /// A whole text field.
    Text {
        /// The field name, as declared in the [`MultipartSpec`].
        name: &'static str,
        /// The field's value.
        value: String,
    },
    /// A file, to be read with [`FilePart::chunk`].
    File(FilePart<'r>),
}

/// A file whose bytes are still in the request body. It borrows the reader, so the next part
/// can only be asked for once this one is dropped.
pub struct FilePart<'r> {
    /// The field name, as declared in the [`MultipartSpec`].
    pub field: &'static str,
    /// The client's file name (`filename` of `Content-Disposition`), if it sent one.
    pub filename: Option<String>,
    /// The part's `Content-Type` as the client sent it, if it did.
    pub content_type: Option<String>,
    read: u64,
    reader: &'r mut MultipartReader,
}

impl FilePart<'_> {
    /// The next chunk of the file, `None` at its end; refuses the body as soon as a chunk goes
    /// over `max_file_bytes` or `max_total_bytes`.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, ApiError> {
        let chunk = self.reader.pull().await?;
        if let Some(chunk) = &chunk {
            self.read = self.read.saturating_add(chunk.len() as u64);
        }
        Ok(chunk)
    }

    /// The rest of the file in memory (at most `max_file_bytes`).
    pub async fn bytes(&mut self) -> Result<Bytes, ApiError> {
        let mut buf = BytesMut::new();
        while let Some(chunk) = self.chunk().await? {
            buf.extend_from_slice(&chunk);
        }
        Ok(buf.freeze())
    }

    /// How many bytes of this file have been read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }
}

impl std::fmt::Debug for FilePart<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FilePart")
            .field("field", &self.field)
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .finish_non_exhaustive()
    }
}

/// The part being read.
struct Current {
    field: Field,
    name: &'static str,
    is_file: bool,
    read: u64,
    /// Whether the part's bytes go into the content digest.
    digested: bool,
}

/// What [`MultipartReader::advance`] found.
enum Next {
    Text(&'static str, String),
    File(&'static str, Option<String>, Option<String>),
    End,
}

/// Reads a multipart body part by part, enforcing a [`MultipartSpec`]; see the module docs.
pub struct MultipartReader {
    multipart: Multipart,
    spec: MultipartSpec,
    current: Option<Current>,
    seen: Vec<&'static str>,
    files: usize,
    total: u64,
    ended: bool,
    failed: Option<ApiError>,
    /// Set by [`WireLimit`] when the raw body outgrows [`MultipartSpec::wire_budget`].
    wire_exceeded: Rc<Cell<bool>>,
    /// The raw body under the [`WireLimit`] (not with [`Self::new`]), for [`Self::discard_rest`].
    raw: Option<Rc<RefCell<Option<web::Payload>>>>,
    /// [`Self::with_content_digest`]: the hash of the parts read so far, and the fields left out.
    digest: Option<(Sha256, &'static [&'static str])>,
}

impl MultipartReader {
    /// Reads from actix-multipart's `Multipart` extractor (a body that is not `multipart/*`
    /// is refused with 415 by the first [`Self::next`]).
    pub fn new(multipart: Multipart, spec: MultipartSpec) -> Self {
        Self {
            multipart,
            spec,
            current: None,
            seen: Vec::new(),
            files: 0,
            total: 0,
            ended: false,
            failed: None,
            raw: None,
            wire_exceeded: Rc::new(Cell::new(false)),
            digest: None,
        }
    }

    /// Hashes the form's content as it is read (SHA-256 over each part's name, file name and
    /// bytes, in the order sent, each framed by its length), leaving out the fields `skip`
    /// (e.g. a one-time CAPTCHA token). Two bodies of the same parts hash alike whatever their
    /// boundary or chunking: what an `Idempotency-Key` compares.
    pub fn with_content_digest(mut self, skip: &'static [&'static str]) -> Self {
        self.digest = Some((Sha256::new(), skip));
        self
    }

    /// The digest of [`Self::with_content_digest`], once the body has been read to its end;
    /// `None` before, or without it.
    pub fn content_digest(&self) -> Option<[u8; 32]> {
        if !self.ended {
            return None;
        }
        self.digest
            .as_ref()
            .map(|(hash, _)| hash.clone().finalize().into())
    }

    /// Feeds the start of a part to the digest; whether its bytes are digested.
    fn digest_part(&mut self, kind: u8, name: &str, filename: Option<&str>) -> bool {
        let Some((hash, skip)) = self.digest.as_mut() else {
            return false;
        };
        if skip.contains(&name) {
            return false;
        }
        hash.update([kind]);
        for text in [name, filename.unwrap_or("")] {
            hash.update((text.len() as u64).to_be_bytes());
            hash.update(text.as_bytes());
        }
        true
    }

    /// Reads the request body: refuses at once a body that is not `multipart/form-data` (415)
    /// or whose `Content-Length` cannot fit the limits, and caps the raw bytes read (a preamble
    /// or headers cannot get round the limits).
    pub fn from_request(
        req: &HttpRequest,
        body: web::Payload,
        spec: MultipartSpec,
    ) -> Result<Self, ApiError> {
        let essence = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(str::trim);
        if !essence.is_some_and(|e| e.eq_ignore_ascii_case("multipart/form-data")) {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                Message::new("multipart-content-type"),
            ));
        }
        let budget = spec.wire_budget();
        let declared = req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > budget) {
            return Err(spec.total_too_large());
        }
        let exceeded = Rc::new(Cell::new(false));
        let raw = Rc::new(RefCell::new(Some(body)));
        let stream = WireLimit {
            inner: raw.clone(),
            read: 0,
            budget,
            exceeded: exceeded.clone(),
        };
        let mut reader = Self::new(Multipart::new(req.headers(), stream), spec);
        reader.wire_exceeded = exceeded;
        reader.raw = Some(raw);
        Ok(reader)
    }

    /// Reads and discards what is left of the body, for at most [`DISCARD_WITHIN`]; whether the
    /// body ended. A handler refusing a form (a limit, a bad file, any error) calls it before it
    /// answers: a client that sends its whole body before reading (Python's `requests`, many
    /// mobile stacks) has then sent it and reads the answer, instead of waiting on a server
    /// that stopped reading (actix-http 3.20 does not reliably drain a refused body itself).
    /// Nothing read here is kept. The answer closes the connection (the shared stack marks
    /// error answers to requests with a body `Connection: close`).
    pub async fn discard_rest(&mut self) -> bool {
        self.current = None;
        let Some(payload) = self.raw.as_ref().and_then(|raw| raw.borrow_mut().take()) else {
            return false;
        };
        let mut payload = payload;
        let drained = tokio::time::timeout(DISCARD_WITHIN, async {
            while let Some(chunk) = payload.next().await {
                if chunk.is_err() {
                    return false;
                }
            }
            true
        })
        .await;
        drained.unwrap_or(false)
    }

    /// The next part, or `None` after the last one (once every required text field was seen).
    pub async fn next(&mut self) -> Result<Option<Part<'_>>, ApiError> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let next = match self.advance().await {
            Ok(next) => next,
            Err(err) => return Err(self.fail(err)),
        };
        Ok(match next {
            Next::End => None,
            Next::Text(name, value) => Some(Part::Text { name, value }),
            Next::File(field, filename, content_type) => Some(Part::File(FilePart {
                field,
                filename,
                content_type,
                read: 0,
                reader: self,
            })),
        })
    }

    fn fail(&mut self, err: ApiError) -> ApiError {
        self.current = None;
        self.failed = Some(err.clone());
        err
    }

    async fn advance(&mut self) -> Result<Next, ApiError> {
        while self.pull_unchecked().await?.is_some() {}
        if self.ended {
            return Ok(Next::End);
        }
        let field = match self.multipart.next().await {
            Some(Ok(field)) => field,
            Some(Err(err)) => return Err(self.spec.stream_error(err, self.wire_exceeded.get())),
            None => {
                self.ended = true;
                return match self
                    .spec
                    .texts
                    .iter()
                    .find(|(n, r)| *r && !self.seen.contains(n))
                {
                    Some((name, _)) => Err(ApiError::validation(
                        Message::new("multipart-missing-field").arg("field", name),
                    )),
                    None => Ok(Next::End),
                };
            }
        };
        let sent = field.name().unwrap_or_default();
        if let Some(&(name, _)) = self.spec.texts.iter().find(|(n, _)| *n == sent) {
            if self.seen.contains(&name) {
                return Err(spec::malformed(format!("the field \"{name}\" is repeated")));
            }
            self.seen.push(name);
            let digested = self.digest_part(b'T', name, None);
            self.current = Some(Current {
                field,
                name,
                is_file: false,
                read: 0,
                digested,
            });
            let mut value = Vec::new();
            while let Some(chunk) = self.pull_unchecked().await? {
                value.extend_from_slice(&chunk);
            }
            let value = String::from_utf8(value).map_err(|_| {
                ApiError::validation(Message::new("multipart-not-utf8").arg("field", name))
            })?;
            return Ok(Next::Text(name, value));
        }
        let Some(&name) = self.spec.files.iter().find(|n| **n == sent) else {
            return Err(ApiError::validation(
                Message::new("multipart-unknown-field").arg("field", sent),
            ));
        };
        self.files += 1;
        if self.files > self.spec.limits.max_files {
            return Err(ApiError::validation(
                Message::new("multipart-too-many-files").arg("limit", self.spec.limits.max_files),
            ));
        }
        let filename = field
            .content_disposition()
            .and_then(|cd| cd.get_filename())
            .map(str::to_owned);
        let content_type = field.content_type().map(ToString::to_string);
        let digested = self.digest_part(b'F', name, filename.as_deref());
        self.current = Some(Current {
            field,
            name,
            is_file: true,
            read: 0,
            digested,
        });
        Ok(Next::File(name, filename, content_type))
    }

    /// [`Self::pull_unchecked`], remembering an error for later calls.
    async fn pull(&mut self) -> Result<Option<Bytes>, ApiError> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        match self.pull_unchecked().await {
            Ok(chunk) => Ok(chunk),
            Err(err) => Err(self.fail(err)),
        }
    }

    /// The next chunk of the current part, counted against the limits; `None` at its end.
    async fn pull_unchecked(&mut self) -> Result<Option<Bytes>, ApiError> {
        let Some(current) = self.current.as_mut() else {
            return Ok(None);
        };
        let chunk = match current.field.next().await {
            Some(Ok(chunk)) => chunk,
            Some(Err(err)) => return Err(self.spec.stream_error(err, self.wire_exceeded.get())),
            None => {
                if current.digested {
                    if let Some((hash, _)) = self.digest.as_mut() {
                        // The part's length ends it, so no two framings hash alike.
                        hash.update(current.read.to_be_bytes());
                    }
                }
                self.current = None;
                return Ok(None);
            }
        };
        if current.digested {
            if let Some((hash, _)) = self.digest.as_mut() {
                hash.update(&chunk);
            }
        }
        let limits = self.spec.limits;
        current.read = current.read.saturating_add(chunk.len() as u64);
        if current.is_file && current.read > limits.max_file_bytes {
            return Err(ApiError::new(
                ErrorCode::PayloadTooLarge,
                Message::new("multipart-file-too-large")
                    .arg("field", current.name)
                    .arg("limit", limits.max_file_bytes),
            ));
        }
        if !current.is_file && current.read > limits.max_text_bytes {
            return Err(ApiError::new(
                ErrorCode::PayloadTooLarge,
                Message::new("multipart-field-too-large")
                    .arg("field", current.name)
                    .arg("limit", limits.max_text_bytes),
            ));
        }
        self.total = self.total.saturating_add(chunk.len() as u64);
        if self.total > limits.max_total_bytes {
            return Err(self.spec.total_too_large());
        }
        Ok(Some(chunk))
    }
}
