//! axum extractors: [`Auth`] (token required) and [`MaybeAuth`] (token optional).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::HeaderMap;

use axum::http::{header::WWW_AUTHENTICATE, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::{AuthError, Authenticator, Principal};
use crate::error::ApiError;

/// The rejection of [`Auth`] and [`MaybeAuth`]: the [`ApiError`] body, plus
/// `WWW-Authenticate: Bearer` on a 401 (RFC 6750).
#[derive(Debug)]
pub struct AuthRejection(pub ApiError);

impl From<AuthError> for AuthRejection {
    fn from(err: AuthError) -> Self {
        Self(err.into())
    }
}

impl From<AuthRejection> for ApiError {
    fn from(rejection: AuthRejection) -> Self {
        rejection.0
    }
}

impl IntoResponse for AuthRejection {
    fn into_response(self) -> Response {
        let unauthorized = self.0.status() == StatusCode::UNAUTHORIZED;
        let mut response = self.0.into_response();
        if unauthorized {
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// The caller of a request with a valid `Authorization: Bearer` token; otherwise the request is
/// answered 401 `UNAUTHORIZED`. Needs `Authenticator: FromRef<S>` for the router state `S`.
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

/// Verifies the request's token once; the principal is kept in the request extensions so a
/// second extractor in the same request does not verify again.
async fn principal_of(
    parts: &mut Parts,
    authenticator: &Authenticator,
) -> Result<Option<Principal>, AuthRejection> {
    if let Some(VerifiedPrincipal(principal)) = parts.extensions.get::<VerifiedPrincipal>() {
        return Ok(Some(principal.clone()));
    }
    let Some(token) = bearer_token(&parts.headers)? else {
        return Ok(None);
    };
    let principal = authenticator.authenticate(token).await?;
    parts
        .extensions
        .insert(VerifiedPrincipal(principal.clone()));
    Ok(Some(principal))
}

/// Request extension holding the principal verified by an extractor of this module.
#[derive(Clone)]
struct VerifiedPrincipal(Principal);

impl<S> FromRequestParts<S> for Auth
where
    Authenticator: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let authenticator = Authenticator::from_ref(state);
        match principal_of(parts, &authenticator).await? {
            Some(principal) => Ok(Auth(principal)),
            None => Err(AuthError::MissingToken.into()),
        }
    }
}

impl<S> FromRequestParts<S> for MaybeAuth
where
    Authenticator: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AuthRejection;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let authenticator = Authenticator::from_ref(state);
        Ok(MaybeAuth(principal_of(parts, &authenticator).await?))
    }
}
