//! News categories (`/news-categories…`, spec 2.5 and 4.3) and the caller's subscriptions to
//! them (`/me/news-categories`), a file per action.

pub mod create;
pub mod delete;
pub mod list;
pub mod subscriptions;
pub mod update;

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::{Deserialize, Deserializer, Serialize};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::store::news::{CategoryError, NewsCategory};

/// A news category (spec 2.5); in the tree view with its `children`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NewsCategory)]
pub struct NewsCategoryBody {
    pub category_id: Uuid,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The parent category; absent for a top-level one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<Uuid>,
    /// Tree view only: the child categories, by name, each with its own children.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(no_recursion)]
    pub children: Option<Vec<NewsCategoryBody>>,
}

impl From<NewsCategory> for NewsCategoryBody {
    fn from(c: NewsCategory) -> Self {
        Self {
            category_id: c.id,
            name: c.name,
            description: c.description,
            parent_id: c.parent_id,
            children: None,
        }
    }
}

pub use super::not_found::news_category_not_found as category_not_found;

/// A store refusal as an answer.
pub fn category_error(err: CategoryError) -> ApiError {
    match err {
        CategoryError::NotFound => category_not_found(),
        CategoryError::HasChildren => ApiError::new(
            ErrorCode::CategoryHasChildren,
            Message::new("news-category-has-children"),
        ),
        CategoryError::Parent(err) => ApiError::validation(err.message()),
        CategoryError::Store(err) => err.into(),
    }
}

/// A present JSON value, also `null` (`Some(None)`), told from an absent one (`None`).
pub fn present<'de, D, T>(de: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(de).map(Some)
}

/// Checks a name and a description as editors write them.
pub fn check_fields(name: Option<&str>, description: Option<&str>) -> Result<(), ApiError> {
    use domain::news::{check_text, CATEGORY_DESCRIPTION_MAX_CHARS, CATEGORY_NAME_MAX_CHARS};
    if let Some(name) = name {
        check_text("name", name, true, CATEGORY_NAME_MAX_CHARS).map_err(ApiError::validation)?;
    }
    if let Some(description) = description {
        check_text(
            "description",
            description,
            false,
            CATEGORY_DESCRIPTION_MAX_CHARS,
        )
        .map_err(ApiError::validation)?;
    }
    Ok(())
}

/// Registers `/news-categories…` and `/me/news-categories`.
pub fn configure(cfg: &mut actix_web::web::ServiceConfig) {
    use actix_web::web;
    cfg.service(
        web::resource("/news-categories")
            .route(web::get().to(list::list))
            .route(web::post().to(create::create)),
    )
    .service(
        web::resource("/news-categories/{category_id}")
            .route(web::put().to(update::update))
            .route(web::delete().to(delete::delete)),
    )
    .service(
        web::resource("/me/news-categories")
            .route(web::get().to(subscriptions::list))
            .route(web::patch().to(subscriptions::change)),
    );
}

/// The OpenAPI description of the news categories and subscriptions.
#[derive(utoipa::OpenApi)]
#[openapi(
    paths(
        list::list,
        create::create,
        update::update,
        delete::delete,
        subscriptions::list,
        subscriptions::change
    ),
    components(schemas(
        NewsCategoryBody,
        list::NewsCategories,
        create::NewCategoryInput,
        update::CategoryChangeInput,
        subscriptions::Subscriptions,
        subscriptions::SubscriptionChange,
        subscriptions::Changes
    ))
)]
pub struct NewsCategoriesApi;
