//! `GET /news/{newId}`: one news item.

use actix_web::web;
use service_kit::docs::responses::ServiceUnavailable;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;

use super::super::params::NewsItemPath;
use super::super::AppState;
use super::{news_item_not_found, NewsItemBody};
use crate::routes::responses::NewsItemNotFound;

/// A news item.
#[utoipa::path(
    get, path = "/news/{newId}", tag = "news", operation_id = "getNewsItem",
    params(NewsItemPath),
    responses(
        (status = 200, description = "The news item", body = NewsItemBody),
        NewsItemNotFound,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "get_news_item", skip(state))]
pub async fn detail(
    path: Path<NewsItemPath>,
    state: web::Data<AppState>,
) -> Result<Json<NewsItemBody>, ApiError> {
    let id = path.id()?;
    let item = state.stores.news.news_item(id).await?;
    Ok(Json(item.ok_or_else(news_item_not_found)?.into()))
}
