//! A citizen's export of its data (GDPR Art. 15, 20; docs/privacy.md): `POST /me/data-export`
//! hands out a link, `GET /me/data-export` gives it again until it expires, and
//! `GET /data-exports/{token}` streams the archive, written while it downloads.

mod archive;
pub mod download;
pub mod files;
pub mod link;

use actix_web::web;
use chrono::{DateTime, Utc};
use serde::Serialize;
use service_kit::instant;
use utoipa::ToSchema;

use crate::store::privacy::DataExport;

/// The link of an export.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataExportLink {
    #[serde(serialize_with = "instant::serialize")]
    pub requested_at: DateTime<Utc>,
    /// Until when the link works (`privacy.export_valid_hours` after the request).
    #[serde(serialize_with = "instant::serialize")]
    pub expires_at: DateTime<Utc>,
    /// The archive's path on this host (`<base path>/data-exports/<token>`); it needs no sign-in,
    /// so keep it as private as the data.
    pub download_url: String,
}

impl DataExportLink {
    pub fn new(export: &DataExport, base_path: &str) -> Self {
        Self {
            requested_at: export.requested_at,
            expires_at: export.expires_at,
            download_url: format!("{base_path}/data-exports/{}", export.token),
        }
    }
}

/// Registers the export's routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/me/data-export")
            .route(web::post().to(link::start))
            .route(web::get().to(link::status)),
    )
    .service(web::resource("/data-exports/{token}").route(web::get().to(download::download)));
}

/// The OpenAPI description of the export.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(link::start, link::status, download::download),
    components(schemas(
        DataExportLink,
        files::ExportAccount,
        files::ExportEmail,
        files::ExportPush,
        files::ExportNewsCategory,
        files::ExportReport,
        files::ExportPhoto
    ))
)]
pub struct DataExportApi;
