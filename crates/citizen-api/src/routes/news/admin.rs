//! The editors' writes (`POST /news`, `PUT` and `DELETE /news/{newId}`) under
//! [`NEWS_MANAGE_SCOPE`](crate::routes::scopes::NEWS_MANAGE_SCOPE); the item's shape and checks are
//! [`crate::app::news`], shared with the `import-news` command.

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::docs::responses::{InvalidJsonBody, NotApplicationJson, Unauthorized};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use uuid::Uuid;

use super::super::params::EditedNewsItemPath;
use super::super::scopes::NewsEditor;
use super::super::AppState;
use super::{deleted, news_item_not_found, NewsItemBody};
pub use crate::app::news::{NewsItemInput, PointInput};
use crate::routes::responses::{
    EditorErrors, EditorJsonErrors, NewsItemNotFound, OverEditorLimit, ScopeForbidden,
};
use crate::store::news::NewsError;

/// A store refusal as an answer.
pub fn news_error(err: NewsError) -> ApiError {
    match err {
        NewsError::NotFound => news_item_not_found(),
        NewsError::UnknownCategory(id) => {
            ApiError::validation(Message::new("news-category-unknown").arg("category", id))
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
        Unauthorized,
        ScopeForbidden,
        OverEditorLimit,
        NotApplicationJson,
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
    params(EditedNewsItemPath),
    request_body = NewsItemInput, security(("bearer" = ["cityuser:news:manage"])),
    responses(
        (status = 200, description = "The item after the change", body = NewsItemBody),
        InvalidJsonBody,
        EditorErrors,
        NewsItemNotFound,
        EditorJsonErrors,
    )
)]
#[tracing::instrument(name = "update_news_item", skip(state, _editor, body))]
pub async fn update(
    path: Path<EditedNewsItemPath>,
    state: web::Data<AppState>,
    _editor: NewsEditor,
    body: Json<NewsItemInput>,
) -> Result<Json<NewsItemBody>, ApiError> {
    editor_input(&body.0)?;
    let id = path.id()?;
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
    params(EditedNewsItemPath),
    security(("bearer" = ["cityuser:news:manage"])),
    responses(
        (status = 200, description = "Deleted (no body)"),
        EditorErrors,
        NewsItemNotFound,
    )
)]
#[tracing::instrument(name = "delete_news_item", skip(state, _editor))]
pub async fn delete(
    path: Path<EditedNewsItemPath>,
    state: web::Data<AppState>,
    _editor: NewsEditor,
) -> Result<HttpResponse, ApiError> {
    let found = state.stores.news.delete_news_item(path.id()?).await?;
    deleted(found, news_item_not_found)
}
