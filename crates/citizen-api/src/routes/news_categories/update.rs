//! `PUT /news-categories/{categoryId}`: every field optional; `description` and `parent_id`
//! may be set to null.

use actix_web::web;
use serde::Deserialize;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::params::NewsCategoryPath;
use super::super::scopes::CategoryEditor;
use super::super::AppState;
use super::{category_error, check_fields, present, NewsCategoryBody};
use crate::app;
use crate::routes::responses::{CategoryNotFound, EditorErrors, JsonErrors};
use crate::store::news::NewsCategoryChange;

/// A change of a category: absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CategoryChangeInput {
    /// 1–100 characters.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 100)]
    pub name: Option<String>,
    /// null removes the description.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    /// null makes the category a top-level one; else an existing category that is not the
    /// category itself or one of its descendants.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Uuid>)]
    pub parent_id: Option<Option<Uuid>>,
}

/// Change a news category.
///
/// Scope `cityuser:news-categories:manage`.
#[utoipa::path(
    put, path = "/news-categories/{categoryId}", tag = "news", operation_id = "updateNewsCategory",
    params(NewsCategoryPath),
    request_body = CategoryChangeInput, security(("bearer" = ["cityuser:news-categories:manage"])),
    responses(
        (status = 200, description = "The category after the change", body = NewsCategoryBody),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (an empty or too long name, an unknown parent, a parent that would make the category its own ancestor)", body = service_kit::ErrorBody),
        EditorErrors,
        CategoryNotFound,
        JsonErrors,
    )
)]
#[tracing::instrument(name = "update_news_category", skip(state, _editor, body))]
pub async fn update(
    path: Path<NewsCategoryPath>,
    state: web::Data<AppState>,
    _editor: CategoryEditor,
    body: Json<CategoryChangeInput>,
) -> Result<Json<NewsCategoryBody>, ApiError> {
    let id = path.id()?;
    let input = body.0;
    check_fields(
        input.name.as_deref(),
        input.description.as_ref().and_then(Option::as_deref),
    )?;
    let updated = app::news_categories::update(
        state.stores.news.as_ref(),
        id,
        &NewsCategoryChange {
            name: input.name.map(|n| n.trim().to_owned()),
            description: input.description,
            parent_id: input.parent_id,
        },
        state.clock.now(),
    )
    .await
    .map_err(category_error)?;
    Ok(Json(updated.into()))
}
