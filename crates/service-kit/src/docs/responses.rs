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

/// Declares each response as a `#[derive(IntoResponses)]` newtype of [`ErrorBody`] under its
/// status, with its description: `/// … \n Name: status, "description";`. The services declare
/// their own responses with it too.
#[macro_export]
macro_rules! error_responses {
    ($($(#[$meta:meta])* $name:ident: $status:tt, $description:tt;)*) => {$(
        $(#[$meta])*
        #[derive(::utoipa::IntoResponses)]
        #[response(status = $status, description = $description)]
        pub struct $name(pub $crate::ErrorBody);
    )*};
}

error_responses! {
    /// 400 `INVALID_JSON`, `VALIDATION_ERROR`: a JSON body ([`crate::extract::Json`]) that is not
    /// JSON, or not of the route's schema, where the route checks nothing more it would name.
    InvalidJsonBody: 400, "`INVALID_JSON`, `VALIDATION_ERROR`";

    /// 401 `UNAUTHORIZED`: the route needs a valid bearer token ([`crate::auth::Auth`]).
    Unauthorized: 401, "`UNAUTHORIZED`";

    /// 401 `UNAUTHORIZED` of a route where signing in is optional ([`crate::auth::MaybeAuth`]):
    /// answered only when a token is sent and is not valid.
    InvalidToken: 401, "`UNAUTHORIZED`: a token was sent but is invalid";

    /// 403 `FORBIDDEN`, where the route's description or `security` says what the token lacks.
    Forbidden: 403, "`FORBIDDEN`";

    /// 413 `PAYLOAD_TOO_LARGE`: the body is over the route's limit ([`crate::extract::BodyLimit`]).
    PayloadTooLarge: 413, "`PAYLOAD_TOO_LARGE`";

    /// [`PayloadTooLarge`] in the words "the body is over the JSON limit".
    OverJsonLimit: 413, "`PAYLOAD_TOO_LARGE`: the body is over the JSON limit";

    /// 415 `UNSUPPORTED_MEDIA_TYPE`: a JSON body ([`crate::extract::Json`]) with another
    /// `Content-Type`.
    UnsupportedMediaType: 415, "`UNSUPPORTED_MEDIA_TYPE`";

    /// [`UnsupportedMediaType`] in the words "the body is not JSON".
    NotJson: 415, "`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON";

    /// [`UnsupportedMediaType`] in the words "the body is not `application/json`".
    NotApplicationJson: 415, "`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`";

    /// 503 `SERVICE_UNAVAILABLE`: the database (or another backend the route needs) cannot be
    /// reached.
    ServiceUnavailable: 503, "`SERVICE_UNAVAILABLE`";

    /// 503 `SERVICE_UNAVAILABLE` of a route whose only dependency is the database (streets-api's
    /// reads).
    DatabaseUnavailable: 503, "`SERVICE_UNAVAILABLE`: the database cannot be reached";
}

/// Declares types whose responses are those of every listed [`utoipa::IntoResponses`] type
/// together, so that routes answering with the same errors list them under one name:
/// `response_group! { /// … \n pub struct MessageErrors(Unauthorized, Forbidden, NotFound); }`
/// (several such structs in one call). A later type's status replaces an earlier one's, as in a
/// route's own `responses(…)`.
#[macro_export]
macro_rules! response_group {
    ($($(#[$meta:meta])* $vis:vis struct $name:ident($($part:ty),+ $(,)?);)+) => {$(
        $(#[$meta])*
        $vis struct $name;

        impl ::utoipa::IntoResponses for $name {
            fn responses() -> ::std::collections::BTreeMap<
                String,
                ::utoipa::openapi::RefOr<::utoipa::openapi::response::Response>,
            > {
                let mut responses = ::std::collections::BTreeMap::new();
                $(responses.extend(<$part as ::utoipa::IntoResponses>::responses());)+
                responses
            }
        }
    )+};
}

#[cfg(test)]
mod tests;
