//! actix extractors: [`Auth`] (token required) and [`MaybeAuth`] (token optional). Both need the
//! service's [`Authenticator`] registered as app data (`.app_data(authenticator.clone())`).

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

/// Request extension holding the principal verified by an extractor of this module, so a second
/// extractor in the same request does not verify again.
#[derive(Clone)]
struct VerifiedPrincipal(Principal);

/// Verifies the request's token once.
async fn principal_of(req: &HttpRequest) -> Result<Option<Principal>, AuthRejection> {
    if let Some(VerifiedPrincipal(principal)) = req.extensions().get::<VerifiedPrincipal>() {
        return Ok(Some(principal.clone()));
    }
    let Some(token) = bearer_token(req.headers())? else {
        return Ok(None);
    };
    let Some(authenticator) = req.app_data::<Authenticator>() else {
        return Err(AuthRejection(ApiError::internal(anyhow::anyhow!(
            "no Authenticator registered as app data"
        ))));
    };
    let principal = authenticator.authenticate(token).await?;
    req.extensions_mut()
        .insert(VerifiedPrincipal(principal.clone()));
    Ok(Some(principal))
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
