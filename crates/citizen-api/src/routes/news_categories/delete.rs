//! `DELETE /news-categories/{categoryId}`.

use actix_web::{web, HttpResponse};
use service_kit::extract::Path;
use service_kit::ApiError;

use super::super::params::NewsCategoryPath;
use super::super::scopes::CategoryEditor;
use super::super::AppState;
use super::category_error;
use crate::app;
use crate::routes::responses::{CategoryNotFound, EditorErrors};

/// Delete a news category.
///
/// Scope `cityuser:news-categories:manage`. A category with child categories is not deleted
/// (409 `CATEGORY_HAS_CHILDREN`: move or delete the children first). The news items in it stay
/// and lose only this category; the subscriptions to it end.
#[utoipa::path(
    delete, path = "/news-categories/{categoryId}", tag = "news", operation_id = "deleteNewsCategory",
    params(NewsCategoryPath),
    security(("bearer" = ["cityuser:news-categories:manage"])),
    responses(
        (status = 200, description = "Deleted (no body)"),
        EditorErrors,
        CategoryNotFound,
        (status = 409, description = "`CATEGORY_HAS_CHILDREN`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "delete_news_category", skip(state, _editor))]
pub async fn delete(
    path: Path<NewsCategoryPath>,
    state: web::Data<AppState>,
    _editor: CategoryEditor,
) -> Result<HttpResponse, ApiError> {
    let id = path.id()?;
    app::news_categories::delete(state.stores.news.as_ref(), id)
        .await
        .map_err(category_error)?;
    Ok(HttpResponse::Ok().finish())
}
