//! `GET /news`: the news list, newest first or nearest first, paged by a cursor.
//!
//! `pagecursor` is repeated, one parameter per string: `?pagecursor=<date>&pagecursor=<id>`.
//! The orders and the cursor's strings are those of `domain::news`: without `location`
//! `[date, news_id]`; with it `[distance in metres, news_id]` for items with a location, then
//! `["null", news_id]` for those without. `nextCursor` is the last item's position (two strings),
//! or null on the last page; passing it back gives the next page, never overlapping or skipping
//! items, also when several share a date or a distance.

use std::collections::HashMap;

use actix_web::web;
use chrono::SecondsFormat;
use domain::geo::LocationParam;
use domain::limits::LimitError;
use domain::news::{news_cursor_strings, parse_news_cursor, with_descendants, NewsCursor};
use serde::{Deserialize, Serialize};
use service_kit::docs::responses::ServiceUnavailable;
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::super::paging::{instant, next_cursor, page_limit};
use super::super::params::{category_ids, location};
use super::super::AppState;
use super::NewsItemBody;
use crate::store::news::{NewsItem, NewsQuery};

/// A page of news.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewsPage {
    pub news: Vec<NewsItemBody>,
    /// The position of the page's last item (`[date, news_id]`, `[distance, news_id]` or
    /// `["null", news_id]`); null on the last page.
    #[schema(min_items = 1, max_items = 2)]
    pub next_cursor: Option<Vec<String>>,
}

/// The parameters `GET /news` reads, as sent.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NewsListParams {
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100, default = 100)]
    limit: Option<String>,
    /// `longitude,latitude[,radius_m]`: nearest first with `distance` on each item, items
    /// without a location after them; with a radius only items within it.
    location: Option<String>,
    /// Category ids, repeated; a category includes its descendants.
    #[serde(default)]
    #[param(value_type = Option<Vec<String>>)]
    category: Vec<String>,
    /// One or two strings, repeated: a handed-out `nextCursor`.
    #[serde(default)]
    #[param(value_type = Option<Vec<String>>)]
    pagecursor: Vec<String>,
}

/// The page asked for (the cursor is read against the order, which depends on `near`).
struct Selection {
    limit: u32,
    near: Option<LocationParam>,
    categories: Vec<Uuid>,
    cursor: Vec<String>,
}

impl NewsListParams {
    /// Checks `limit`, `location` and `category`.
    fn into_selection(self) -> Result<Selection, LimitError> {
        let categories = category_ids(&self.category)?;
        let limit = page_limit(self.limit.as_deref())?;
        let near = self.location.as_deref().map(location).transpose()?;
        Ok(Selection {
            limit,
            near,
            categories,
            cursor: self.pagecursor,
        })
    }
}

/// The cursor of the position of `item` in the list's order.
fn position(item: &NewsItem, with_location: bool) -> Vec<String> {
    let id = Some(item.id.to_string());
    news_cursor_strings(match (with_location, item.distance) {
        (false, _) => NewsCursor::Date {
            date: item.date.to_rfc3339_opts(SecondsFormat::Micros, true),
            id,
        },
        (true, Some(metres)) => NewsCursor::Distance { metres, id },
        (true, None) => NewsCursor::Unlocated { id },
    })
}

/// The news.
///
/// Without `location`: newest `date` first (then id, descending). With `location`: items with a
/// location nearest first (then id), each with its `distance` in metres, then the items without
/// a location (newest id first); with a radius only the items within it. `category` (repeated)
/// keeps items in any of the categories, a category including its descendants.
/// `pagecursor`: repeat the parameter for each string of a handed-out `nextCursor` (see the
/// API guide for the one-string form).
#[utoipa::path(
    get, path = "/news", tag = "news", operation_id = "listNews",
    params(NewsListParams),
    responses(
        (status = 200, description = "A page of news", body = NewsPage),
        (status = 400, description = "`VALIDATION_ERROR`: a malformed limit, location, category or cursor", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "list_news", skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    Query(params): Query<NewsListParams>,
) -> Result<Json<NewsPage>, ApiError> {
    let params = params.into_selection()?;
    let with_location = params.near.is_some();
    let after = if params.cursor.is_empty() {
        None
    } else {
        Some(parse_news_cursor(
            &params.cursor,
            with_location,
            instant,
            |raw| raw.parse::<Uuid>().ok(),
        )?)
    };
    let categories = if params.categories.is_empty() {
        Vec::new()
    } else {
        let tree: HashMap<Uuid, Option<Uuid>> = state
            .stores
            .news
            .news_categories()
            .await?
            .into_iter()
            .map(|c| (c.id, c.parent_id))
            .collect();
        with_descendants(&params.categories, &tree)
    };
    let mut items = state
        .stores
        .news
        .news_page(&NewsQuery {
            categories,
            near: params.near,
            after,
            limit: params.limit + 1,
        })
        .await?;
    let next_cursor = next_cursor(&mut items, params.limit, |last| {
        position(last, with_location)
    });
    Ok(Json(NewsPage {
        news: items.into_iter().map(NewsItemBody::from).collect(),
        next_cursor,
    }))
}
