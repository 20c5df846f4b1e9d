//! The editors' writes (`POST /news`, `PUT` and `DELETE /news/{newId}`) under
//! [`NEWS_MANAGE_SCOPE`], and the checks shared with the `import-news` command.

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use domain::error_code::ErrorCode;
use domain::geo::LonLat;
use domain::i18n::Message;
use domain::news::{check_text, DESCRIPTION_MAX_CHARS, ITEMS_MAX, TITLE_MAX_CHARS, URL_MAX_CHARS};
use serde::Deserialize;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::editor::NewsEditor;
use super::super::AppState;
use super::{news_id, news_item_not_found, NewsItemBody};
use crate::store::news::{NewsDraft, NewsError};

/// A GeoJSON Point in WGS84 as sent.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PointInput {
    /// `Point`.
    #[serde(rename = "type")]
    #[schema(example = "Point")]
    pub kind: String,
    /// Longitude, latitude.
    #[schema(example = json!([14.4213, 50.0875]))]
    pub coordinates: [f64; 2],
}

/// A news item as an editor writes it (create, and update, which replaces every field).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsItemInput {
    /// Only in an `import-news` file: the id to create or replace (so a file can be imported
    /// again); refused by the API.
    #[serde(default)]
    #[schema(ignore)]
    pub id: Option<Uuid>,
    /// 1–256 characters.
    #[schema(min_length = 1, max_length = 256)]
    pub title: String,
    /// At most 20 000 characters.
    #[serde(default)]
    #[schema(max_length = 20000)]
    pub description: String,
    /// An `http(s)` address of the picture (for example a `public_url` of an uploaded file).
    #[serde(default)]
    #[schema(max_length = 2048)]
    pub image: Option<String>,
    /// The publication date; the time of the request when absent.
    #[serde(default)]
    pub date: Option<DateTime<Utc>>,
    #[serde(default)]
    pub location: Option<PointInput>,
    /// Category ids (at most 20); each must exist.
    #[serde(default)]
    #[schema(max_items = 20)]
    pub categories: Vec<Uuid>,
}

fn invalid(message: Message) -> ApiError {
    ApiError::validation(message)
}

/// An `http(s)` URL of at most [`URL_MAX_CHARS`] characters.
pub fn check_url(field: &'static str, url: &str) -> Result<(), ApiError> {
    let host_and_path = url.split_once("://").and_then(|(scheme, rest)| {
        (scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http"))
            .then_some(rest)
    });
    let ok = host_and_path.is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
        && url.chars().count() <= URL_MAX_CHARS
        && !url.chars().any(char::is_whitespace);
    if ok {
        Ok(())
    } else {
        Err(invalid(
            Message::new("news-url-invalid").arg("field", field),
        ))
    }
}

/// A GeoJSON point as coordinates.
pub fn check_point(point: &PointInput) -> Result<LonLat, ApiError> {
    let [lon, lat] = point.coordinates;
    if point.kind != "Point" {
        return Err(invalid(Message::new("news-location-invalid")));
    }
    LonLat::new(lon, lat).map_err(|_| invalid(Message::new("news-location-invalid")))
}

impl NewsItemInput {
    /// Checks every field; `date` defaults to `now`.
    pub fn into_draft(self, now: DateTime<Utc>) -> Result<NewsDraft, ApiError> {
        check_text("title", &self.title, true, TITLE_MAX_CHARS).map_err(invalid)?;
        check_text(
            "description",
            &self.description,
            false,
            DESCRIPTION_MAX_CHARS,
        )
        .map_err(invalid)?;
        if let Some(image) = &self.image {
            check_url("image", image)?;
        }
        if self.categories.len() > ITEMS_MAX {
            return Err(invalid(
                Message::new("news-too-many")
                    .arg("field", "categories")
                    .arg("max", ITEMS_MAX),
            ));
        }
        let location = self.location.as_ref().map(check_point).transpose()?;
        let mut categories = self.categories;
        categories.sort();
        categories.dedup();
        Ok(NewsDraft {
            title: self.title.trim().to_owned(),
            description: self.description,
            image: self.image.map(|i| i.trim().to_owned()),
            date: self.date.unwrap_or(now),
            location,
            categories,
        })
    }
}

/// A store refusal as an answer.
pub fn news_error(err: NewsError) -> ApiError {
    match err {
        NewsError::NotFound => news_item_not_found(),
        NewsError::UnknownCategory(id) => {
            invalid(Message::new("news-category-unknown").arg("category", id))
        }
        NewsError::Store(err) => err.into(),
    }
}

fn editor_input(input: &NewsItemInput) -> Result<(), ApiError> {
    if input.id.is_some() {
        return Err(ApiError::new(
            ErrorCode::ValidationError,
            Message::new("news-id-not-accepted"),
        ));
    }
    Ok(())
}

/// Publish a news item.
///
/// Scope `cityuser:news:manage`.
#[utoipa::path(
    post, path = "/news", tag = "news", operation_id = "createNewsItem",
    request_body = NewsItemInput, security(("bearer" = ["cityuser:news:manage"])),
    responses(
        (status = 201, description = "The published item", body = NewsItemBody),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (a field empty, too long or malformed; an unknown category)", body = service_kit::ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`", body = service_kit::ErrorBody),
        (status = 403, description = "`FORBIDDEN`: the token lacks the scope", body = service_kit::ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is over 1 MiB", body = service_kit::ErrorBody),
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "create_news_item", skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    _editor: NewsEditor,
    body: Json<NewsItemInput>,
) -> Result<HttpResponse, ApiError> {
    editor_input(&body.0)?;
    let now = state.clock.now();
    let draft = body.0.into_draft(now)?;
    let item = state
        .stores
        .news
        .create_news_item(Uuid::now_v7(), &draft, now)
        .await
        .map_err(news_error)?;
    Ok(HttpResponse::Created().json(NewsItemBody::from(item)))
}

/// Replace a news item.
///
/// Scope `cityuser:news:manage`. Every field is replaced (absent optional ones are cleared;
/// an absent `date` becomes the time of the request).
#[utoipa::path(
    put, path = "/news/{newId}", tag = "news", operation_id = "updateNewsItem",
    params(("newId" = String, Path, description = "The news item id")),
    request_body = NewsItemInput, security(("bearer" = ["cityuser:news:manage"])),
    responses(
        (status = 200, description = "The item after the change", body = NewsItemBody),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR`", body = service_kit::ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`", body = service_kit::ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = service_kit::ErrorBody),
        (status = 404, description = "`NEWS_ITEM_NOT_FOUND`", body = service_kit::ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is over 1 MiB", body = service_kit::ErrorBody),
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "update_news_item", skip(state, _editor, body))]
pub async fn update(
    path: Path<String>,
    state: web::Data<AppState>,
    _editor: NewsEditor,
    body: Json<NewsItemInput>,
) -> Result<Json<NewsItemBody>, ApiError> {
    editor_input(&body.0)?;
    let id = news_id(&path)?;
    let now = state.clock.now();
    let draft = body.0.into_draft(now)?;
    let item = state
        .stores
        .news
        .update_news_item(id, &draft, now)
        .await
        .map_err(news_error)?;
    Ok(Json(item.into()))
}

/// Delete a news item.
///
/// Scope `cityuser:news:manage`.
#[utoipa::path(
    delete, path = "/news/{newId}", tag = "news", operation_id = "deleteNewsItem",
    params(("newId" = String, Path, description = "The news item id")),
    security(("bearer" = ["cityuser:news:manage"])),
    responses(
        (status = 200, description = "Deleted (no body)"),
        (status = 401, description = "`UNAUTHORIZED`", body = service_kit::ErrorBody),
        (status = 403, description = "`FORBIDDEN`", body = service_kit::ErrorBody),
        (status = 404, description = "`NEWS_ITEM_NOT_FOUND`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "delete_news_item", skip(state, _editor))]
pub async fn delete(
    path: Path<String>,
    state: web::Data<AppState>,
    _editor: NewsEditor,
) -> Result<HttpResponse, ApiError> {
    let id = news_id(&path)?;
    if state.stores.news.delete_news_item(id).await? {
        Ok(HttpResponse::Ok().finish())
    } else {
        Err(news_item_not_found())
    }
}
