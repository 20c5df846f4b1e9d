//! One extractor per concern, each refusing bad input with the error body:
//! [`Json`] (body), [`Query`] (query string), [`Path`] (path parameters), plus [`BodyLimit`], the
//! per-route limit of JSON bodies. Multipart bodies have their own reader in [`crate::multipart`].
//!
//! JSON and query values are deserialized through `serde_path_to_error`, so a 400 names the
//! field at fault (`limit: invalid digit found in string`), which actix's own `Json`/`Query`
//! cannot do; path parameters use actix's `Path` with the error handler of [`path_config`].
//! JSON bodies also go through [`strict::Strict`]: an array where the schema has an object is
//! refused, at any depth (serde's derive would take it as the fields in order).

pub mod boolean;
pub mod strict;

use actix_web::dev::Payload;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::web::BytesMut;
use actix_web::{FromRequest, HttpRequest, HttpResponse, Responder};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use futures::future::{ready, LocalBoxFuture, Ready};
use futures::StreamExt;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::ApiError;

pub use actix_web::web::Path;
pub use boolean::parse_bool;

/// Largest JSON body a route accepts, in bytes. The stack registers `http.max_body_bytes` for
/// the whole application; a scope or resource may register its own with `.app_data(…)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyLimit(pub usize);

/// JSON body: wrong content type → 415 `UNSUPPORTED_MEDIA_TYPE`, over [`BodyLimit`] → 413
/// `PAYLOAD_TOO_LARGE`, malformed JSON → 400 `INVALID_JSON`, wrong shape → 400
/// `VALIDATION_ERROR` naming the field. As a response, serializes `T` as JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let limit = req
            .app_data::<BodyLimit>()
            .map_or(crate::settings::DEFAULT_MAX_BODY_BYTES, |l| l.0);
        let content_type_ok = is_json(req);
        let declared = req
            .headers()
            .get(actix_web::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let mut payload = payload.take();
        Box::pin(async move {
            if !content_type_ok {
                return Err(ApiError::new(
                    ErrorCode::UnsupportedMediaType,
                    Message::new("json-content-type"),
                ));
            }
            if declared.is_some_and(|n| n > limit) {
                return Err(too_large(limit));
            }
            let mut body = BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(|e| {
                    ApiError::validation(Message::new("body-unreadable").arg("reason", e))
                })?;
                if body.len() + chunk.len() > limit {
                    return Err(too_large(limit));
                }
                body.extend_from_slice(&chunk);
            }
            parse_json(&body).map(Json)
        })
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        ErrorCode::PayloadTooLarge,
        Message::new("body-too-large").arg("limit", limit),
    )
}

/// `application/json` or any `+json` type; parameters such as `charset` are ignored.
fn is_json(req: &HttpRequest) -> bool {
    let Some(value) = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
        || essence
            .rsplit_once('+')
            .is_some_and(|(_, suffix)| suffix.eq_ignore_ascii_case("json"))
}

/// Deserializes a JSON body, telling syntax errors from shape errors.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(strict::Strict(&mut de)).map_err(|err| {
        let path = err.path().to_string();
        json_error(&path, err.into_inner())
    })?;
    de.end().map_err(|err| json_error("", err))?;
    Ok(value)
}

fn json_error(path: &str, err: serde_json::Error) -> ApiError {
    if err.is_syntax() || err.is_eof() {
        ApiError::new(
            ErrorCode::InvalidJson,
            Message::new("json-syntax").arg("reason", err),
        )
    } else if path.is_empty() || path == "." {
        // The body as a whole (an array where the schema has an object, say).
        ApiError::validation(
            Message::new("invalid-body-shape").arg("reason", strip_position(&err.to_string())),
        )
    } else {
        ApiError::validation(
            Message::new("invalid-body")
                .arg("field", path)
                .arg("reason", strip_position(&err.to_string())),
        )
    }
}

/// serde_json appends " at line 1 column 17" to data errors; the field path says more.
fn strip_position(text: &str) -> &str {
    text.rsplit_once(" at line ").map_or(text, |(head, _)| head)
}

impl<T: Serialize> Responder for Json<T> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, _req: &HttpRequest) -> HttpResponse {
        match serde_json::to_vec(&self.0) {
            Ok(body) => HttpResponse::Ok()
                .content_type("application/json")
                .body(body),
            Err(err) => actix_web::ResponseError::error_response(&ApiError::internal(err)),
        }
    }
}

/// Query string; a value of the wrong type, a parameter given twice where it takes one value, or
/// an unknown parameter (with `deny_unknown_fields`) → 400 `VALIDATION_ERROR` naming the
/// parameter. Parameters that repeat (`?status=open&status=accepted`) are `Vec` fields.
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(parse_query(req.query_string()).map(Query))
    }
}

/// What `serde_html_form` says when a key repeats but the field takes one value.
const SEVERAL_VALUES: &str = "unsupported value";

/// Deserializes a query string with `serde_html_form`: a key given several times fills a `Vec`
/// field (once is a one-element `Vec`, never is an error unless the field has a default); given
/// several times for any other field it is refused as repeated.
pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let de = serde_html_form::Deserializer::from_bytes(query.as_bytes());
    serde_path_to_error::deserialize(de).map_err(|err| {
        let field = err.path().to_string();
        let reason = err.into_inner().to_string();
        if reason == SEVERAL_VALUES {
            ApiError::validation(Message::new("parameter-repeated").arg("parameter", field))
        } else {
            ApiError::validation(
                Message::new("invalid-query")
                    .arg("field", field)
                    .arg("reason", reason),
            )
        }
    })
}

/// actix's `PathConfig` answering a malformed path parameter with 400 `VALIDATION_ERROR`.
pub fn path_config() -> actix_web::web::PathConfig {
    actix_web::web::PathConfig::default().error_handler(|err, req| {
        let field = req
            .match_info()
            .iter()
            .map(|(name, _)| name)
            .collect::<Vec<_>>()
            .join(", ");
        ApiError::validation(
            Message::new("invalid-path")
                .arg("field", field)
                .arg("reason", err),
        )
        .into()
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde::Deserialize;

    use super::parse_query;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Params {
        limit: Option<u32>,
        #[serde(default)]
        status: Vec<String>,
    }

    /// The message id and its argument naming the parameter, of a refused query.
    fn refusal(query: &str) -> (&'static str, String) {
        let err = parse_query::<Params>(query).unwrap_err();
        let message = err.message().unwrap();
        let field = message
            .get("field")
            .or_else(|| message.get("parameter"))
            .unwrap();
        (message.key, field.to_owned())
    }

    #[test]
    fn repeated_keys_fill_a_vec() {
        let p: Params = parse_query("status=open&limit=5&status=accepted").unwrap();
        assert_eq!(p.status, ["open", "accepted"]);
        assert_eq!(p.limit, Some(5));
        let p: Params = parse_query("status=open").unwrap();
        assert_eq!(p.status, ["open"]);
        let p: Params = parse_query("").unwrap();
        assert!(p.status.is_empty() && p.limit.is_none());
    }

    #[test]
    fn each_refusal_names_the_parameter() {
        for (query, key, field) in [
            ("limit=ten", "invalid-query", "limit"),
            ("limit=-1", "invalid-query", "limit"),
            ("limit=1&limit=2", "parameter-repeated", "limit"),
            ("limti=1", "invalid-query", "limti"),
        ] {
            assert_eq!(refusal(query), (key, field.to_owned()), "{query}");
        }
    }
}
