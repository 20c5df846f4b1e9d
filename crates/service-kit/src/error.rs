//! The one error type of the HTTP layer and its body `{statusCode, name, userinfo}`.
//!
//! Handlers return `Result<_, ApiError>`. A 4xx carries a message meant for the client; a 5xx
//! carries only a generic text, while its cause chain goes to the log (never to the client).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use domain::error_code::ErrorCode;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use utoipa::ToSchema;

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
    /// Human-readable explanation.
    #[schema(example = "limit must be between 1 and 100, got 0")]
    pub userinfo: String,
}

/// An error answered to the client.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    name: Cow<'static, str>,
    userinfo: String,
}

impl ApiError {
    /// An error with one of the public codes and a client-safe message.
    pub fn new(code: ErrorCode, userinfo: impl Into<String>) -> Self {
        Self {
            status: StatusCode::from_u16(code.status())
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            name: Cow::Borrowed(code.as_str()),
            userinfo: userinfo.into(),
        }
    }

    /// 400 `VALIDATION_ERROR`.
    pub fn validation(userinfo: impl Into<String>) -> Self {
        Self::new(ErrorCode::ValidationError, userinfo)
    }

    /// 401 `UNAUTHORIZED`.
    pub fn unauthorized(userinfo: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthorized, userinfo)
    }

    /// 403 `FORBIDDEN`.
    pub fn forbidden(userinfo: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, userinfo)
    }

    /// 404 `NOT_FOUND` (no such route or resource without a more specific code).
    pub fn not_found(userinfo: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, userinfo)
    }

    /// 500 `INTERNAL_ERROR`: logs `cause` with its whole chain; the client sees a generic text.
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        tracing::error!(error = format!("{cause:#}"), "internal error");
        Self::new(
            ErrorCode::InternalError,
            "An unexpected error occurred; it has been logged.",
        )
    }

    /// 503 `SERVICE_UNAVAILABLE`: logs `cause`; the client sees a generic text.
    pub fn unavailable(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        tracing::warn!(error = format!("{cause:#}"), "dependency unavailable");
        Self::new(
            ErrorCode::ServiceUnavailable,
            "The service is temporarily unavailable.",
        )
    }

    /// A storage failure: 503 `SERVICE_UNAVAILABLE` when the database cannot be reached (the
    /// client may retry), else 500 `INTERNAL_ERROR`. Either way the cause goes to the log only.
    pub fn storage(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        let unreachable = cause.chain().any(|e| {
            matches!(
                e.downcast_ref::<sqlx::Error>(),
                Some(
                    sqlx::Error::PoolTimedOut
                        | sqlx::Error::PoolClosed
                        | sqlx::Error::Io(_)
                        | sqlx::Error::Tls(_)
                )
            )
        });
        if unreachable {
            Self::unavailable(cause)
        } else {
            Self::internal(cause)
        }
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn userinfo(&self) -> &str {
        &self.userinfo
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            status_code: self.status.as_u16(),
            name: self.name.to_string(),
            userinfo: self.userinfo.clone(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.name,
            self.userinfo
        )
    }
}

impl std::error::Error for ApiError {}

impl From<domain::limits::LimitError> for ApiError {
    fn from(err: domain::limits::LimitError) -> Self {
        Self::validation(err.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        // Lets the telemetry layer tell a handled error from a framework one.
        response.extensions_mut().insert(ErrorName(self.name));
        response
    }
}

/// Marker put on error responses built from an [`ApiError`].
#[derive(Debug, Clone)]
pub struct ErrorName(pub Cow<'static, str>);
