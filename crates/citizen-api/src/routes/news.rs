//! News items (`/news…`, spec 2.4 and 4.3), a file per action: the public list and detail, and
//! the editors' writes under [`NEWS_MANAGE_SCOPE`](crate::routes::scopes::NEWS_MANAGE_SCOPE).

pub mod admin;
pub mod detail;
pub mod list;
pub mod upload;

use actix_web::web;
use actix_web::{HttpResponse, Resource, Route};
use chrono::{DateTime, Utc};
use serde::Serialize;
use service_kit::instant;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::dto::Point;
use crate::store::news::NewsItem;

/// The JSON body limit of the editors' writes of news items and projects: their largest valid
/// body (every text at its limit, written with `\u` escapes) fits, so a too-long field is
/// answered with its 400, not a 413.
pub const EDITOR_BODY_LIMIT: service_kit::extract::BodyLimit =
    service_kit::extract::BodyLimit(1 << 20);

/// A resource of the editors' writes (news items, projects) with its `routes`, their bodies
/// under [`EDITOR_BODY_LIMIT`].
pub fn edited_resource<const N: usize>(path: &str, routes: [Route; N]) -> Resource {
    let resource = web::resource(path).app_data(EDITOR_BODY_LIMIT);
    routes.into_iter().fold(resource, Resource::route)
}

/// A category of a news item.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewsItemCategory {
    pub id: Uuid,
    pub name: String,
}

/// A news item (spec 2.4).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NewsItem)]
pub struct NewsItemBody {
    pub id: Uuid,
    pub title: String,
    pub description: String,
    /// The picture's address; absent when the item has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// The publication date (the list's order without a location).
    #[serde(serialize_with = "instant::serialize")]
    pub date: DateTime<Utc>,
    /// Where the news is about, when it is about a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Point>,
    /// Metres from the list's `location` parameter (absent for items without a location and
    /// without that parameter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// By name.
    pub categories: Vec<NewsItemCategory>,
}

impl From<NewsItem> for NewsItemBody {
    fn from(item: NewsItem) -> Self {
        Self {
            id: item.id,
            title: item.title,
            description: item.description,
            image: item.image,
            date: item.date,
            location: item.location.map(|p| Point {
                kind: "Point",
                coordinates: [p.lon, p.lat],
            }),
            distance: item.distance,
            categories: item
                .categories
                .into_iter()
                .map(|(id, name)| NewsItemCategory { id, name })
                .collect(),
        }
    }
}

pub use super::not_found::news_item_not_found;

/// The answer to an editor's delete: 200 without a body, or `not_found` when there was nothing
/// to delete.
pub fn deleted(found: bool, not_found: fn() -> ApiError) -> Result<HttpResponse, ApiError> {
    if found {
        Ok(HttpResponse::Ok().finish())
    } else {
        Err(not_found())
    }
}

/// Registers `/news`, `/news/{newId}` and the editors' `POST /media`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let (list, create) = (web::get().to(list::list), web::post().to(admin::create));
    let detail = web::get().to(detail::detail);
    let (update, delete) = (
        web::put().to(admin::update),
        web::delete().to(admin::delete),
    );
    cfg.service(edited_resource("/news", [list, create]))
        .service(web::resource("/media").route(web::post().to(upload::upload)))
        .service(edited_resource("/news/{new_id}", [detail, update, delete]));
}

/// The OpenAPI description of the news items.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        list::list, detail::detail, admin::create, admin::update, admin::delete, upload::upload
    ),
    components(schemas(
        NewsItemBody, NewsItemCategory, list::NewsPage, admin::NewsItemInput, admin::PointInput,
        upload::Uploaded, upload::UploadedFile, upload::UploadForm
    )),
    tags((name = "news", description = "City news and news categories (reading needs no sign-in; \
        editors need `cityuser:news:manage` or `cityuser:news-categories:manage`)"))
)]
pub struct NewsApi;
