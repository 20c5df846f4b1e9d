//! `GET` and `PATCH /me/news-categories`: the news categories the caller follows.

use std::collections::HashMap;

use actix_web::web;
use domain::i18n::Message;
use domain::news::SUBSCRIPTION_CHANGES_MAX;
use serde::{Deserialize, Serialize};
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::AppState;
use crate::routes::responses::JsonErrors;
use crate::store::news::SubscriptionError;

/// The categories the caller follows.
#[derive(Debug, Serialize, ToSchema)]
pub struct Subscriptions {
    /// Category ids.
    pub subscriptions: Vec<Uuid>,
}

/// One change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionChange {
    /// An existing category.
    pub category_id: String,
    pub subscribed: bool,
}

/// How many subscriptions changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Changes {
    /// Subscriptions actually started or ended (asking for what already is counts 0).
    pub changes: u32,
}

/// The categories the caller follows.
#[utoipa::path(
    get, path = "/me/news-categories", tag = "news", operation_id = "listNewsSubscriptions",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's subscriptions", body = Subscriptions),
        Unauthorized,
    )
)]
pub async fn list(state: web::Data<AppState>, auth: Auth) -> Result<Json<Subscriptions>, ApiError> {
    let subscriptions = state.stores.news.subscriptions(&auth.0.subject).await?;
    Ok(Json(Subscriptions { subscriptions }))
}

fn unknown(category: &str) -> ApiError {
    ApiError::validation(Message::new("news-subscription-unknown").arg("category", category))
}

/// Follow or stop following news categories.
///
/// All or nothing: every category must exist (else 400 and nothing changes). When a category
/// is given more than once, its last entry counts. At most 500 entries.
#[utoipa::path(
    patch, path = "/me/news-categories", tag = "news", operation_id = "changeNewsSubscriptions",
    request_body = Vec<SubscriptionChange>, security(("bearer" = [])),
    responses(
        (status = 200, description = "How many subscriptions changed", body = Changes),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (an unknown category, too many entries)", body = service_kit::ErrorBody),
        Unauthorized,
        JsonErrors,
    )
)]
#[tracing::instrument(name = "change_news_subscriptions", skip_all)]
pub async fn change(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<Vec<SubscriptionChange>>,
) -> Result<Json<Changes>, ApiError> {
    if body.0.len() > SUBSCRIPTION_CHANGES_MAX {
        return Err(ApiError::validation(
            Message::new("news-too-many")
                .arg("field", "body")
                .arg("max", SUBSCRIPTION_CHANGES_MAX),
        ));
    }
    let mut last: HashMap<Uuid, bool> = HashMap::new();
    let mut order = Vec::new();
    for entry in &body.0 {
        let id: Uuid = entry
            .category_id
            .trim()
            .parse()
            .map_err(|_| unknown(&entry.category_id))?;
        if last.insert(id, entry.subscribed).is_none() {
            order.push(id);
        }
    }
    let changes: Vec<(Uuid, bool)> = order
        .into_iter()
        .map(|id| (id, last.get(&id).copied().unwrap_or_default()))
        .collect();
    crate::routes::notifications::remember_locale(&state, &auth.0).await?;
    let changed = state
        .stores
        .news
        .change_subscriptions(&auth.0.subject, &changes)
        .await;
    match changed {
        Ok(changes) => Ok(Json(Changes { changes })),
        Err(SubscriptionError::UnknownCategory(id)) => Err(unknown(&id.to_string())),
        Err(SubscriptionError::Store(err)) => Err(err.into()),
    }
}
