//! actix extractors: [`Auth`] (token required) and [`MaybeAuth`] (token optional); [`Scoped`]
//! builds on [`Auth`]. They need the service's [`Authenticator`] as app data: a service gives it
//! to the shared stack (`AppParts::authenticator`), which registers it and verifies the token
//! before the handler ([`verify_first`]).
//!
//! [`Scoped`]: super::Scoped

use actix_web::dev::Payload;
use actix_web::http::header::{HeaderMap, HeaderValue, AUTHORIZATION, WWW_AUTHENTICATE};
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use futures::future::LocalBoxFuture;

use super::{AuthError, Authenticator, Principal};
use crate::error::ApiError;

/// The rejection of [`Auth`] and [`MaybeAuth`]: the [`ApiError`] body, plus
/// `WWW-Authenticate: Bearer` on a 401 (RFC 6750).
#[derive(Debug)]
pub struct AuthRejection(pub ApiError);

impl From<AuthError> for AuthRejection {
    fn from(err: AuthError) -> Self {
        let error = ApiError::from(err);
        if error.status() == StatusCode::UNAUTHORIZED {
            Self(error.with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")))
        } else {
            Self(error)
        }
    }
}

impl From<AuthRejection> for ApiError {
    fn from(rejection: AuthRejection) -> Self {
        rejection.0
    }
}

impl From<AuthRejection> for actix_web::Error {
    fn from(rejection: AuthRejection) -> Self {
        rejection.0.into()
    }
}

/// The caller of a request with a valid `Authorization: Bearer` token; otherwise the request is
/// answered 401 `UNAUTHORIZED`.
#[derive(Debug, Clone)]
pub struct Auth(pub Principal);

/// Like [`Auth`] for endpoints open to anonymous callers: `None` without an `Authorization`
/// header, but 401 when a header is sent and is not a valid bearer token.
#[derive(Debug, Clone)]
pub struct MaybeAuth(pub Option<Principal>);

/// The bearer token of `headers`: `Ok(None)` without an `Authorization` header.
pub fn bearer_token(headers: &HeaderMap) -> Result<Option<&str>, AuthError> {
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value.to_str().map_err(|_| AuthError::Malformed)?.trim();
    let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(AuthError::WrongScheme);
    }
    let token = token.trim();
    if token.is_empty() {
        return Err(AuthError::MissingToken);
    }
    Ok(Some(token))
}

/// Request extension holding the outcome of verifying the request's token, so that it is
/// verified once: by [`verify_first`] before the handler, or by the first extractor.
#[derive(Clone)]
struct Verified(Result<Principal, AuthError>);

/// Verifies `token` for `req` once and keeps the outcome.
async fn verify_once(
    req: &HttpRequest,
    authenticator: &Authenticator,
    token: &str,
) -> Result<Principal, AuthError> {
    if let Some(Verified(outcome)) = req.extensions().get::<Verified>() {
        return outcome.clone();
    }
    let outcome = authenticator.authenticate(token).await;
    req.extensions_mut().insert(Verified(outcome.clone()));
    outcome
}

/// The request's caller: `None` without an `Authorization` header.
async fn principal_of(req: &HttpRequest) -> Result<Option<Principal>, AuthRejection> {
    let Some(token) = bearer_token(req.headers())? else {
        return Ok(None);
    };
    let Some(authenticator) = req.app_data::<Authenticator>() else {
        return Err(AuthRejection(ApiError::internal(anyhow::anyhow!(
            "no Authenticator registered as app data"
        ))));
    };
    Ok(Some(verify_once(req, authenticator, token).await?))
}

/// Verifies the request's bearer token (when it has one) before the request reaches a handler,
/// and keeps the outcome for the extractors of this module; the shared stack calls it for every
/// API request of a service with an authenticator. actix extracts a handler's arguments
/// concurrently, and the first to fail answers: without this, a body or a path refused at once
/// would answer before a token whose keys are being fetched, and a caller without the right
/// would learn from validation answers. With it, every auth extractor is ready when first
/// polled, so the arguments are judged in their order (the caller first). Nothing is refused
/// here: a route that takes no caller ignores the outcome.
pub async fn verify_first(req: &HttpRequest, authenticator: &Authenticator) {
    if let Ok(Some(token)) = bearer_token(req.headers()) {
        let _ = verify_once(req, authenticator, token).await;
    }
}

impl FromRequest for Auth {
    type Error = AuthRejection;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            match principal_of(&req).await? {
                Some(principal) => Ok(Auth(principal)),
                None => Err(AuthError::MissingToken.into()),
            }
        })
    }
}

impl FromRequest for MaybeAuth {
    type Error = AuthRejection;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(MaybeAuth(principal_of(&req).await?)) })
    }
}
