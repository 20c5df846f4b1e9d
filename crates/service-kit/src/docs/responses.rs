//! The error responses many routes document alike, each written once: a route lists them by
//! type among its own tuples, e.g. `responses((status = 200, …), Unauthorized,
//! ServiceUnavailable)` (utoipa takes any [`IntoResponses`] type there). Each is the
//! [`ErrorBody`] under its status, with the same description the routes wrote inline before, so
//! the services' OpenAPI descriptions are unchanged by using them.
//!
//! Only responses that say nothing about the route are here; a 403 naming a scope, a 404 or 409
//! naming a code, a 400 listing what the route checks stays in the route's own annotation.
//!
//! A JSON body's 413 and 415 are worded more than one way by the routes as they are (bare,
//! "the body is over the JSON limit", "the body is not JSON", "the body is not
//! `application/json`"); each wording has its type, so that settling on one is a change here,
//! not in every route.

use utoipa::IntoResponses;

use crate::error::ErrorBody;

/// 400 `INVALID_JSON`, `VALIDATION_ERROR`: a JSON body ([`crate::extract::Json`]) that is not
/// JSON, or not of the route's schema, where the route checks nothing more it would name.
#[derive(IntoResponses)]
#[response(status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR`")]
pub struct InvalidJsonBody(pub ErrorBody);

/// 401 `UNAUTHORIZED`: the route needs a valid bearer token ([`crate::auth::Auth`]).
#[derive(IntoResponses)]
#[response(status = 401, description = "`UNAUTHORIZED`")]
pub struct Unauthorized(pub ErrorBody);

/// 401 `UNAUTHORIZED` of a route where signing in is optional ([`crate::auth::MaybeAuth`]):
/// answered only when a token is sent and is not valid.
#[derive(IntoResponses)]
#[response(
    status = 401,
    description = "`UNAUTHORIZED`: a token was sent but is invalid"
)]
pub struct InvalidToken(pub ErrorBody);

/// 403 `FORBIDDEN`, where the route's description or `security` says what the token lacks.
#[derive(IntoResponses)]
#[response(status = 403, description = "`FORBIDDEN`")]
pub struct Forbidden(pub ErrorBody);

/// 413 `PAYLOAD_TOO_LARGE`: the body is over the route's limit ([`crate::extract::BodyLimit`]).
#[derive(IntoResponses)]
#[response(status = 413, description = "`PAYLOAD_TOO_LARGE`")]
pub struct PayloadTooLarge(pub ErrorBody);

/// [`PayloadTooLarge`] in the words "the body is over the JSON limit".
#[derive(IntoResponses)]
#[response(
    status = 413,
    description = "`PAYLOAD_TOO_LARGE`: the body is over the JSON limit"
)]
pub struct OverJsonLimit(pub ErrorBody);

/// 415 `UNSUPPORTED_MEDIA_TYPE`: a JSON body ([`crate::extract::Json`]) with another
/// `Content-Type`.
#[derive(IntoResponses)]
#[response(status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`")]
pub struct UnsupportedMediaType(pub ErrorBody);

/// [`UnsupportedMediaType`] in the words "the body is not JSON".
#[derive(IntoResponses)]
#[response(
    status = 415,
    description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON"
)]
pub struct NotJson(pub ErrorBody);

/// [`UnsupportedMediaType`] in the words "the body is not `application/json`".
#[derive(IntoResponses)]
#[response(
    status = 415,
    description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`"
)]
pub struct NotApplicationJson(pub ErrorBody);

/// 503 `SERVICE_UNAVAILABLE`: the database (or another backend the route needs) cannot be
/// reached.
#[derive(IntoResponses)]
#[response(status = 503, description = "`SERVICE_UNAVAILABLE`")]
pub struct ServiceUnavailable(pub ErrorBody);

/// 503 `SERVICE_UNAVAILABLE` of a route whose only dependency is the database (streets-api's
/// reads).
#[derive(IntoResponses)]
#[response(
    status = 503,
    description = "`SERVICE_UNAVAILABLE`: the database cannot be reached"
)]
pub struct DatabaseUnavailable(pub ErrorBody);

#[cfg(test)]
mod tests;
