//! Extractors whose rejections are answered with the error body instead of plain text.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::error_code::ErrorCode;
use serde::Serialize;

use crate::error::ApiError;

/// JSON body; malformed JSON → 400 `INVALID_JSON`, wrong shape → 400 `VALIDATION_ERROR`,
/// missing content type → 415, too large → 413.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Query string; a value of the wrong type → 400 `VALIDATION_ERROR`.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

/// Path parameters; a value of the wrong type → 400 `VALIDATION_ERROR`.
#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::JsonSyntaxError(e) => ApiError::new(
                ErrorCode::InvalidJson,
                format!("the body is not valid JSON: {}", e.body_text()),
            ),
            JsonRejection::JsonDataError(e) => ApiError::validation(e.body_text()),
            JsonRejection::MissingJsonContentType(_) => ApiError::new(
                ErrorCode::UnsupportedMediaType,
                "expected a body with Content-Type: application/json",
            ),
            other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::new(ErrorCode::PayloadTooLarge, "the request body is too large")
            }
            other => ApiError::validation(other.body_text()),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::validation(rejection.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        ApiError::validation(rejection.body_text())
    }
}
