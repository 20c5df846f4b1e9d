//! `POST /news-categories`.

use actix_web::web;
use serde::Deserialize;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::scopes::CategoryEditor;
use super::super::AppState;
use super::{category_error, check_fields, NewsCategoryBody};
use crate::app;
use crate::routes::responses::{JsonErrors, ScopeForbidden};
use crate::store::news::NewNewsCategory;

/// A new category.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewCategoryInput {
    /// 1–100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// At most 1000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub description: Option<String>,
    /// An existing category.
    #[serde(default)]
    pub parent_id: Option<Uuid>,
}

/// Create a news category.
///
/// Scope `cityuser:news-categories:manage`. A parent must exist.
#[utoipa::path(
    post, path = "/news-categories", tag = "news", operation_id = "createNewsCategory",
    request_body = NewCategoryInput, security(("bearer" = ["cityuser:news-categories:manage"])),
    responses(
        (status = 200, description = "The created category", body = NewsCategoryBody),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (an empty or too long name, an unknown parent)", body = service_kit::ErrorBody),
        Unauthorized,
        ScopeForbidden,
        JsonErrors,
    )
)]
#[tracing::instrument(name = "create_news_category", skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    _editor: CategoryEditor,
    body: Json<NewCategoryInput>,
) -> Result<Json<NewsCategoryBody>, ApiError> {
    let input = body.0;
    check_fields(Some(&input.name), input.description.as_deref())?;
    let created = app::news_categories::create(
        state.stores.news.as_ref(),
        &NewNewsCategory {
            name: input.name.trim().to_owned(),
            description: input.description,
            parent_id: input.parent_id,
        },
        state.clock.now(),
    )
    .await
    .map_err(category_error)?;
    Ok(Json(created.into()))
}
