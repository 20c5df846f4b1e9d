//! `GET /me/notifications`: the caller's feed, newest first, paged by `[sent_at, inserted_at]`.
//!
//! `pagecursor` is repeated: `?pagecursor=<sent_at>&pagecursor=<inserted_at>`, the last entry's
//! two instants. `inserted_at` is unique per account, so the pair orders the feed totally: pages
//! never overlap or skip, even when many entries share a `sent_at`.

use actix_web::web;
use chrono::{DateTime, Utc};
use domain::i18n::Message;
use domain::limits::LimitError;
use serde::Deserialize;
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::{Json, Query};
use service_kit::ApiError;
use utoipa::IntoParams;

use super::dto::{NotificationItem, NotificationPage};
use crate::routes::paging::{cursor_pair, instant, keep_page, page_limit};
use crate::routes::AppState;

/// The query parameters of `GET /me/notifications`, as sent.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NotificationListParams {
    /// Page size (default 100)
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100)]
    limit: Option<String>,
    /// [sent_at, inserted_at] of the last entry of the previous page
    #[serde(default)]
    #[param(value_type = Option<Vec<String>>)]
    pagecursor: Vec<String>,
}

/// The page asked for.
struct Selection {
    limit: u32,
    after: Option<(DateTime<Utc>, DateTime<Utc>)>,
}

impl NotificationListParams {
    /// The page size and the position to continue after.
    fn into_selection(self) -> Result<Selection, LimitError> {
        let limit = page_limit(self.limit.as_deref())?;
        let after = cursor_pair(
            &self.pagecursor,
            |sent| instant(sent.trim()),
            |inserted| instant(inserted.trim()),
            || LimitError::new("pagecursor", Message::new("notification-cursor")),
        )?;
        Ok(Selection { limit, after })
    }
}

/// The caller's notifications.
///
/// Newest first (`sent_at`, then `inserted_at`). `pagecursor`: the last entry's `sent_at` and
/// `inserted_at`, each as its own `pagecursor` parameter, in that order.
#[utoipa::path(
    get, path = "/me/notifications", tag = "notifications", operation_id = "listNotifications",
    params(NotificationListParams),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page", body = NotificationPage),
        (status = 400, description = "`VALIDATION_ERROR`: a malformed limit or cursor", body = service_kit::ErrorBody),
        Unauthorized,
    )
)]
pub async fn list(
    state: web::Data<AppState>,
    auth: Auth,
    Query(params): Query<NotificationListParams>,
) -> Result<Json<NotificationPage>, ApiError> {
    let params = params.into_selection()?;
    let mut page = state
        .stores
        .notifications
        .notifications(&auth.0.subject, params.after, params.limit + 1)
        .await?;
    let has_next_offset = keep_page(&mut page, params.limit);
    Ok(Json(NotificationPage {
        notifications: page.into_iter().map(NotificationItem::from).collect(),
        has_next_offset,
    }))
}
