//! The test server, its handlers, and hand-built multipart bodies.
#![allow(dead_code)]

use std::sync::Arc;

use actix_web::{web, HttpRequest};
use domain::error_code::ErrorCode;
use serde_json::{json, Map, Value};
use service_kit::extract::Json;
use service_kit::http::AppParts;
use service_kit::multipart::{Multipart, MultipartLimits, MultipartReader, MultipartSpec, Part};
use service_kit::settings::HttpSettings;
use service_kit::startup::HttpApp;
use service_kit::{ApiError, ErrorBody};

/// Small limits, so that "at" and "one past" each are cheap to send.
pub const LIMITS: MultipartLimits = MultipartLimits {
    max_text_bytes: 16,
    max_file_bytes: 100,
    max_files: 3,
    max_total_bytes: 250,
};

pub const BOUNDARY: &str = "----test-boundary-7MA4YWxkTrZu0gW";

/// The `POST /reports` schema.
pub fn spec(limits: MultipartLimits) -> MultipartSpec {
    MultipartSpec::new(limits)
        .required_text("title")
        .text("description")
        .text("location")
        .text("captchaToken")
        .files("media")
}

/// Reads every part, files chunk by chunk, into `{texts, files: [{field, filename,
/// contentType, size, sum}]}` (`sum`: the bytes added up, to check the contents).
async fn summary(reader: &mut MultipartReader) -> Result<Value, ApiError> {
    let mut texts = Map::new();
    let mut files = Vec::new();
    while let Some(part) = reader.next().await? {
        match part {
            Part::Text { name, value } => {
                texts.insert(name.to_owned(), json!(value));
            }
            Part::File(mut file) => {
                let (mut size, mut sum) = (0u64, 0u64);
                while let Some(chunk) = file.chunk().await? {
                    size += chunk.len() as u64;
                    sum = chunk.iter().fold(sum, |s, b| s + u64::from(*b));
                }
                assert_eq!(file.bytes_read(), size);
                files.push(json!({
                    "field": file.field,
                    "filename": file.filename,
                    "contentType": file.content_type,
                    "size": size,
                    "sum": sum,
                }));
            }
        }
    }
    Ok(json!({ "texts": texts, "files": files }))
}

async fn streamed(
    req: HttpRequest,
    body: web::Payload,
    spec: web::Data<MultipartSpec>,
) -> Result<Json<Value>, ApiError> {
    let mut reader = MultipartReader::from_request(&req, body, spec.get_ref().clone())?;
    Ok(Json(summary(&mut reader).await?))
}

async fn extracted(
    multipart: Multipart,
    spec: web::Data<MultipartSpec>,
) -> Result<Json<Value>, ApiError> {
    let mut reader = MultipartReader::new(multipart, spec.get_ref().clone());
    Ok(Json(summary(&mut reader).await?))
}

/// Reads every part with the content digest on (`captchaToken` left out): `{digest}` in hex.
async fn digested(
    req: HttpRequest,
    body: web::Payload,
    spec: web::Data<MultipartSpec>,
) -> Result<Json<Value>, ApiError> {
    let mut reader = MultipartReader::from_request(&req, body, spec.get_ref().clone())?
        .with_content_digest(&["captchaToken"]);
    assert_eq!(reader.content_digest(), None, "no digest before the end");
    summary(&mut reader).await?;
    let digest = reader.content_digest().expect("a digest at the end");
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok(Json(json!({ "digest": hex })))
}

async fn collected(
    req: HttpRequest,
    body: web::Payload,
    spec: web::Data<MultipartSpec>,
) -> Result<Json<Value>, ApiError> {
    let form = MultipartReader::from_request(&req, body, spec.get_ref().clone())?
        .collect()
        .await?;
    let files: Vec<Value> = form
        .files
        .iter()
        .map(|f| {
            json!({
                "field": f.field,
                "filename": f.filename,
                "contentType": f.content_type,
                "text": String::from_utf8_lossy(&f.bytes),
            })
        })
        .collect();
    Ok(Json(json!({ "texts": form.texts, "files": files })))
}

/// Serves under `/api/v1`: `/reports` (streamed, [`MultipartReader::from_request`]),
/// `/extracted` ([`MultipartReader::new`] on the extractor), `/collected` (`collect`) and
/// `/media` (streamed, total over the limit is `TOTAL_MEDIA_SIZE_TOO_LARGE`), `/digest` (the
/// content digest of a streamed form).
pub fn serve(limits: MultipartLimits) -> String {
    let api = Arc::new(move |cfg: &mut web::ServiceConfig| {
        // Before the scope, which takes every path.
        cfg.service(
            web::resource("/media")
                .app_data(web::Data::new(
                    spec(limits).total_too_large_code(ErrorCode::TotalMediaSizeTooLarge),
                ))
                .route(web::post().to(streamed)),
        );
        cfg.service(
            web::scope("")
                .app_data(web::Data::new(spec(limits)))
                .route("/reports", web::post().to(streamed))
                .route("/extracted", web::post().to(extracted))
                .route("/collected", web::post().to(collected))
                .route("/digest", web::post().to(digested)),
        );
    });
    let parts = AppParts::new("multipart-test", api, utoipa::openapi::OpenApi::default()).unwrap();
    let app = HttpApp::bind(parts, &HttpSettings::default()).unwrap();
    let base = format!("http://127.0.0.1:{}/api/v1", app.port());
    tokio::spawn(app.run_until(std::future::pending()));
    base
}

/// A `multipart/form-data` body built byte by byte.
#[derive(Debug, Clone, Default)]
pub struct Body(Vec<u8>);

impl Body {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn text(self, name: &str, value: impl AsRef<[u8]>) -> Self {
        self.part(
            &format!("Content-Disposition: form-data; name=\"{name}\""),
            value.as_ref(),
        )
    }

    pub fn file(self, name: &str, filename: &str, content_type: &str, data: &[u8]) -> Self {
        self.part(
            &format!(
                "Content-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\n\
                 Content-Type: {content_type}"
            ),
            data,
        )
    }

    /// A part with raw `headers` (no trailing line break).
    pub fn part(mut self, headers: &str, data: &[u8]) -> Self {
        self.0
            .extend_from_slice(format!("--{BOUNDARY}\r\n{headers}\r\n\r\n").as_bytes());
        self.0.extend_from_slice(data);
        self.0.extend_from_slice(b"\r\n");
        self
    }

    /// The body with its closing boundary.
    pub fn finish(mut self) -> Vec<u8> {
        self.0
            .extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
        self.0
    }

    /// The body without its closing boundary (e.g. to stream more after it).
    pub fn unfinished(self) -> Vec<u8> {
        self.0
    }
}

pub fn content_type() -> String {
    format!("multipart/form-data; boundary={BOUNDARY}")
}

/// POSTs a finished `body` to `{base}{path}`.
pub async fn post(base: &str, path: &str, body: Body) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("content-type", content_type())
        .body(body.finish())
        .send()
        .await
        .unwrap()
}

/// Checks the status and the body shape; returns the body.
pub async fn error_body(response: reqwest::Response, status: u16) -> ErrorBody {
    assert_eq!(response.status().as_u16(), status);
    let raw: Value = response.json().await.unwrap();
    for key in ["statusCode", "name", "userinfo"] {
        assert!(raw.get(key).is_some(), "{key} missing in {raw}");
    }
    serde_json::from_value(raw).unwrap()
}

/// Checks a 200 and returns the JSON summary.
pub async fn summary_of(response: reqwest::Response) -> Value {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// `n` bytes of `b'a'`.
pub fn bytes(n: usize) -> Vec<u8> {
    vec![b'a'; n]
}
