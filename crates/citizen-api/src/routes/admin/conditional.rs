//! Conditional answers of the officers' polled reads (`GET /admin/reports` and `GET
//! /admin/reports/status-counts`): the console asks for them every second, so another officer's
//! step shows within two seconds; an unchanged answer is a 304 without a body.
//!
//! The tag is a strong `ETag` of the JSON body's bytes (`service_kit::http::cache::etag`, as the
//! public reads have), so it changes exactly when the answer does, and every replica tags the
//! same answer alike. `Cache-Control: private, no-cache`: the answer depends on who asks (no
//! shared cache keeps it), and a browser that keeps it asks again each time, with
//! `If-None-Match` (the `/admin` prefix's `private, no-store` is kept for every other answer).

use actix_web::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use actix_web::{HttpRequest, HttpResponse};
use serde::Serialize;
use service_kit::http::cache::{etag, none_match};
use service_kit::ApiError;

/// `Cache-Control` of a polled read.
pub const POLLED: &str = "private, no-cache";

/// `body` as JSON with its `ETag`, or 304 when the request's `If-None-Match` names that tag.
pub fn json(request: &HttpRequest, body: &impl Serialize) -> Result<HttpResponse, ApiError> {
    let bytes = serde_json::to_vec(body).map_err(ApiError::internal)?;
    let tag = etag(&bytes);
    let unchanged = request
        .headers()
        .get_all(IF_NONE_MATCH)
        .any(|listed| none_match(listed, &tag));
    let mut response = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((ETAG, tag))
        .insert_header((CACHE_CONTROL, POLLED));
    if unchanged {
        return Ok(response.finish());
    }
    Ok(response.content_type("application/json").body(bytes))
}
