//! `media` over real HTTP: a `POST /reports`-like handler reads the form with service-kit's
//! multipart reader and stores each file with [`MediaStore::store_upload`] into a local folder
//! in a tempdir (removing what it stored when a later part fails, as the filing route does);
//! `GET /media/{id}` is [`serve_media`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use actix_web::{web, HttpRequest};
use citizen_api::media::serve::serve_media;
use citizen_api::media::{MediaSettings, MediaStore, StoredMedia};
use domain::error_code::ErrorCode;
use futures::stream;
use serde_json::{json, Value};
use service_kit::extract::Json;
use service_kit::http::AppParts;
use service_kit::multipart::{MultipartReader, MultipartSpec, Part};
use service_kit::settings::HttpSettings;
use service_kit::startup::HttpApp;
use service_kit::{ApiError, ErrorBody};

mod heif_image;
mod images;
mod s3;
mod serve;
mod strip;
mod upload;

pub const BOUNDARY: &str = "----citizen-media-boundary-9f3a";

/// A running test server with its media folder.
pub struct Server {
    pub base: String,
    pub store: MediaStore,
    pub dir: PathBuf,
    _tmp: tempfile::TempDir,
}

/// Small limits so that "one past" is cheap: 64 KiB per file, 3 files, 160 KiB in total.
pub fn settings(dir: &Path) -> MediaSettings {
    MediaSettings {
        dir: dir.to_owned(),
        public_base_url: "http://media.test/api/v1/media/".to_owned(),
        max_file_bytes: 64 << 10,
        max_files: 3,
        max_total_bytes: 160 << 10,
        ..MediaSettings::default()
    }
}

async fn file_report(
    req: HttpRequest,
    body: web::Payload,
    store: web::Data<MediaStore>,
    settings: web::Data<MediaSettings>,
) -> Result<Json<Value>, ApiError> {
    let spec = MultipartSpec::new(settings.multipart_limits(1024))
        .text("title")
        .files("media")
        .total_too_large_code(ErrorCode::TotalMediaSizeTooLarge);
    let mut reader = MultipartReader::from_request(&req, body, spec)?;
    let mut stored: Vec<StoredMedia> = Vec::new();
    let result = async {
        while let Some(part) = reader.next().await? {
            if let Part::File(mut file) = part {
                stored.push(store.store_upload(&mut file).await?);
            }
        }
        Ok::<_, ApiError>(())
    }
    .await;
    if let Err(err) = result {
        let ids: Vec<_> = stored.iter().map(|m| m.media_id).collect();
        store.discard(&ids).await;
        return Err(err);
    }
    let media: Vec<Value> = stored
        .iter()
        .map(|m| {
            json!({
                "media_id": m.media_id,
                "filename": m.filename,
                "media_type": m.media_type.mime(),
                "size": m.size,
                "public_url": store.public_url(m.media_id),
            })
        })
        .collect();
    Ok(Json(json!({ "media": media })))
}

/// Starts a server over a fresh folder.
pub fn serve() -> Server {
    serve_with(|_| {})
}

/// Starts a server whose settings `adjust` changes.
pub fn serve_with(adjust: impl FnOnce(&mut MediaSettings)) -> Server {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("media");
    let mut settings = settings(&dir);
    adjust(&mut settings);
    let store = MediaStore::new(&settings).unwrap();
    let (shared, config) = (store.clone(), settings.clone());
    let api = Arc::new(move |cfg: &mut web::ServiceConfig| {
        cfg.app_data(web::Data::new(shared.clone()))
            .app_data(web::Data::new(config.clone()))
            .route("/reports", web::post().to(file_report))
            .route("/media/{media_id}", web::get().to(serve_media));
    });
    let parts = AppParts::new("media-test", api, utoipa::openapi::OpenApi::default()).unwrap();
    let app = HttpApp::bind(parts, &HttpSettings::default()).unwrap();
    let base = format!("http://127.0.0.1:{}/api/v1", app.port());
    tokio::spawn(app.run_until(std::future::pending()));
    Server {
        base,
        store,
        dir,
        _tmp: tmp,
    }
}

/// A `multipart/form-data` body built byte by byte.
#[derive(Debug, Clone, Default)]
pub struct Body(Vec<u8>);

impl Body {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn text(mut self, name: &str, value: &str) -> Self {
        self.head(&format!("Content-Disposition: form-data; name=\"{name}\""));
        self.0.extend_from_slice(value.as_bytes());
        self.0.extend_from_slice(b"\r\n");
        self
    }

    /// A `media` file; the client's content type is deliberately misleading.
    pub fn file(mut self, filename: &str, data: &[u8]) -> Self {
        self.head(&format!(
            "Content-Disposition: form-data; name=\"media\"; filename=\"{filename}\"\r\n\
             Content-Type: image/gif"
        ));
        self.0.extend_from_slice(data);
        self.0.extend_from_slice(b"\r\n");
        self
    }

    fn head(&mut self, headers: &str) {
        self.0
            .extend_from_slice(format!("--{BOUNDARY}\r\n{headers}\r\n\r\n").as_bytes());
    }

    /// The body as it is, without the closing boundary (a client that stops mid-file).
    pub fn unfinished(self) -> Vec<u8> {
        self.0
    }

    pub fn finish(mut self) -> Vec<u8> {
        self.0
            .extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
        self.0
    }
}

/// POSTs `body` to `/reports` in pieces of `piece` bytes (so the server sees many small chunks
/// and the parsers meet every boundary).
pub async fn post(server: &Server, body: Body, piece: usize) -> reqwest::Response {
    post_raw(server, body.finish(), piece).await
}

/// POSTs the raw `bytes` as a multipart body, in pieces of `piece` bytes.
pub async fn post_raw(server: &Server, bytes: Vec<u8>, piece: usize) -> reqwest::Response {
    let pieces: Vec<Result<Vec<u8>, std::io::Error>> =
        bytes.chunks(piece).map(|c| Ok(c.to_vec())).collect();
    reqwest::Client::new()
        .post(format!("{}/reports", server.base))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(reqwest::Body::wrap_stream(stream::iter(pieces)))
        .send()
        .await
        .unwrap()
}

/// The stored media of a 200 answer.
pub async fn stored(response: reqwest::Response) -> Vec<Value> {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "{text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    value["media"].as_array().unwrap().clone()
}

/// The error body of an answer with `status`.
pub async fn error(response: reqwest::Response, status: u16) -> ErrorBody {
    assert_eq!(response.status().as_u16(), status);
    response.json().await.unwrap()
}

/// Every entry of the media folder (staging files of unfinished uploads included).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The bytes stored for `media_id`, read from the folder itself.
pub fn on_disk(server: &Server, media_id: &str) -> Vec<u8> {
    std::fs::read(server.dir.join(media_id)).unwrap()
}
