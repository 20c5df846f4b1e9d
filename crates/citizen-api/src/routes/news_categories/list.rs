//! `GET /news-categories?view=flat|tree`.

use std::collections::{HashMap, HashSet};

use actix_web::web;
use domain::i18n::Message;
use serde::{Deserialize, Serialize};
use service_kit::docs::responses::ServiceUnavailable;
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::AppState;
use super::NewsCategoryBody;
use crate::store::news::NewsCategory;

/// The categories.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewsCategories {
    pub news_categories: Vec<NewsCategoryBody>,
}

/// `view`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ViewParams {
    /// `flat` (default): every category, by name; `tree`: the top-level ones, each with its
    /// `children`.
    #[param(pattern = "^(flat|tree)$")]
    view: Option<String>,
}

/// `categories` as a tree: the top-level ones (and any whose parent is missing), each with its
/// children, by name (the input's order).
fn tree(categories: Vec<NewsCategory>) -> Vec<NewsCategoryBody> {
    let ids: HashSet<Uuid> = categories.iter().map(|c| c.id).collect();
    let mut children: HashMap<Uuid, Vec<NewsCategory>> = HashMap::new();
    let mut roots = Vec::new();
    for c in categories {
        match c.parent_id.filter(|p| ids.contains(p)) {
            Some(parent) => children.entry(parent).or_default().push(c),
            None => roots.push(c),
        }
    }
    fn build(c: NewsCategory, children: &mut HashMap<Uuid, Vec<NewsCategory>>) -> NewsCategoryBody {
        let kids = children.remove(&c.id).unwrap_or_default();
        let mut node = NewsCategoryBody::from(c);
        node.children = Some(kids.into_iter().map(|k| build(k, children)).collect());
        node
    }
    roots.into_iter().map(|c| build(c, &mut children)).collect()
}

/// News categories.
#[utoipa::path(
    get, path = "/news-categories", tag = "news", operation_id = "listNewsCategories",
    params(ViewParams),
    responses(
        (status = 200, description = "The categories", body = NewsCategories),
        (status = 400, description = "`VALIDATION_ERROR`: another view", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    query: Query<ViewParams>,
) -> Result<Json<NewsCategories>, ApiError> {
    let as_tree = match query.0.view.as_deref() {
        None | Some("flat") => false,
        Some("tree") => true,
        Some(_) => return Err(ApiError::validation(Message::new("news-category-view"))),
    };
    let categories = state.stores.news.news_categories().await?;
    let news_categories = if as_tree {
        tree(categories)
    } else {
        categories.into_iter().map(NewsCategoryBody::from).collect()
    };
    Ok(Json(NewsCategories { news_categories }))
}
