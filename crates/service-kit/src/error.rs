//! The one error type of the HTTP layer and its body `{statusCode, name, userinfo}`.
//!
//! Handlers return `Result<_, ApiError>`. An error names its code and, for a 4xx, a catalogue
//! [`Message`] that is rendered in the caller's language when the response is written (the
//! request stack negotiates it from `Accept-Language`, see [`crate::http`]). A 5xx carries only
//! the code's generic text, while its cause chain goes to the log (never to the client).

use actix_web::http::header::{HeaderName, HeaderValue, CONTENT_LANGUAGE, CONTENT_TYPE};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use i18n::Locale;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::store_error::StoreError;

/// The error body every service sends (spec section 7).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// The HTTP status code, repeated in the body.
    #[schema(example = 400)]
    pub status_code: u16,
    /// Stable machine-readable error name (see the list in the API description).
    #[schema(example = "VALIDATION_ERROR")]
    pub name: String,
    /// Human-readable explanation in the language negotiated from `Accept-Language`.
    #[schema(example = "limit must be between 1 and 100, got 0")]
    pub userinfo: String,
}

/// An error answered to the client.
#[derive(Debug, Clone)]
pub struct ApiError {
    code: ErrorCode,
    /// `None`: the code's generic text.
    message: Option<Message>,
    /// Extra response headers (`WWW-Authenticate`, `Retry-After`, `Allow`).
    headers: Vec<(HeaderName, HeaderValue)>,
}

impl ApiError {
    /// An error with one of the public codes and a client-safe message.
    pub fn new(code: ErrorCode, message: Message) -> Self {
        Self {
            code,
            message: Some(message),
            headers: Vec::new(),
        }
    }

    /// An error whose text is the code's generic one.
    pub fn bare(code: ErrorCode) -> Self {
        Self {
            code,
            message: None,
            headers: Vec::new(),
        }
    }

    /// 400 `VALIDATION_ERROR`.
    pub fn validation(message: Message) -> Self {
        Self::new(ErrorCode::ValidationError, message)
    }

    /// 401 `UNAUTHORIZED`.
    pub fn unauthorized(message: Message) -> Self {
        Self::new(ErrorCode::Unauthorized, message)
    }

    /// 403 `FORBIDDEN`.
    pub fn forbidden(message: Message) -> Self {
        Self::new(ErrorCode::Forbidden, message)
    }

    /// 404 `NOT_FOUND` (no such route or resource without a more specific code).
    pub fn not_found(message: Message) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// 500 `INTERNAL_ERROR`: logs `cause` with its whole chain; the client sees a generic text.
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        tracing::error!(error = format!("{cause:#}"), "internal error");
        Self::new(ErrorCode::InternalError, Message::new("unexpected-error"))
    }

    /// 503 `SERVICE_UNAVAILABLE`: logs `cause`; the client sees a generic text.
    pub fn unavailable(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        tracing::warn!(error = format!("{cause:#}"), "dependency unavailable");
        Self::new(
            ErrorCode::ServiceUnavailable,
            Message::new("temporarily-unavailable"),
        )
    }

    /// A storage failure of any kind (see [`StoreError`] for the mapping).
    pub fn storage(cause: impl Into<StoreError>) -> Self {
        cause.into().into()
    }

    /// Adds a response header (e.g. `WWW-Authenticate`, `Retry-After`).
    #[must_use]
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }

    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    pub fn name(&self) -> &'static str {
        self.code.as_str()
    }

    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The text shown to the client in `locale`.
    pub fn userinfo(&self, locale: Locale) -> String {
        match &self.message {
            Some(message) => i18n::render(locale, message),
            None => i18n::error_title(locale, self.code),
        }
    }

    pub fn body(&self, locale: Locale) -> ErrorBody {
        ErrorBody {
            status_code: self.code.status(),
            name: self.name().to_owned(),
            userinfo: self.userinfo(locale),
        }
    }

    /// The whole response in `locale`, with `Content-Language`.
    pub fn to_response(&self, locale: Locale) -> HttpResponse {
        let body = serde_json::to_vec(&self.body(locale)).unwrap_or_default();
        let mut response = HttpResponse::with_body(self.status(), body);
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static(locale.as_str()));
        for (name, value) in &self.headers {
            headers.append(name.clone(), value.clone());
        }
        response.map_into_boxed_body()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.code.status(), self.name())?;
        if let Some(message) = &self.message {
            write!(f, ": {message}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {}

/// Rendered in English here; the request stack re-renders it in the negotiated language.
impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status()
    }

    fn error_response(&self) -> HttpResponse {
        self.to_response(Locale::En)
    }
}

impl From<domain::limits::LimitError> for ApiError {
    fn from(err: domain::limits::LimitError) -> Self {
        Self::validation(err.message)
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound => Self::bare(ErrorCode::NotFound),
            StoreError::Conflict { constraint } | StoreError::Invalid { constraint } => {
                tracing::info!(constraint, "request conflicts with stored data");
                Self::new(
                    ErrorCode::Conflict,
                    Message::new("resource-conflict")
                        .arg("constraint", constraint.as_deref().unwrap_or("-")),
                )
            }
            StoreError::Unavailable(cause) => Self::unavailable(cause),
            StoreError::Other(cause) => Self::internal(cause),
        }
    }
}
