//! `GET <base>/media/{media_id}`: serves a stored file (the embedded default; with S3 the
//! bucket or a CDN usually serves `public_url` itself).
//!
//! Answers: 200 with the file streamed, `Content-Type` of the recognised type,
//! `Content-Length`, `Cache-Control: public, max-age=31536000, immutable` (a `media_id` never
//! gets other bytes), `X-Content-Type-Options: nosniff` and
//! `Content-Security-Policy: sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'`
//! (a PDF or image opened directly runs no script in our origin); 404 `NOT_FOUND` for an id that
//! is not a UUID or not stored.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpResponse};
use domain::i18n::Message;
use futures::TryStreamExt;
use service_kit::ApiError;
use uuid::Uuid;

use super::MediaStore;

/// `Cache-Control` of a served file.
pub const CACHE_CONTROL: &str = "public, max-age=31536000, immutable";
/// `Content-Security-Policy` of a served file.
pub const CONTENT_SECURITY_POLICY: &str =
    "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

/// The actix handler; register it as
/// `web::resource("/media/{media_id}").route(web::get().to(serve_media))` with the
/// [`MediaStore`] as `web::Data`.
pub async fn serve_media(
    store: web::Data<MediaStore>,
    media_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let not_found = || ApiError::not_found(Message::new("media-not-found"));
    let media_id = Uuid::parse_str(&media_id).map_err(|_| not_found())?;
    let opened = store.open(media_id).await?.ok_or_else(not_found)?;
    let body = opened.body.map_err(move |err| {
        tracing::warn!(%media_id, error = %err, "reading a stored file failed mid-way");
        std::io::Error::other(err)
    });
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(opened.media_type.mime()),
        ))
        .insert_header((
            header::CACHE_CONTROL,
            HeaderValue::from_static(CACHE_CONTROL),
        ))
        .insert_header((
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .no_chunking(opened.size)
        .streaming(body))
}
