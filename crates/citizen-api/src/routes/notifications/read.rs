//! `PATCH /me/notifications/read` and `GET /me/notifications/unread-count`.

use actix_web::web;
use domain::notifications::{capped_unread, parse_tags, TagError, UNREAD_CAP};
use serde::{Deserialize, Serialize};
use service_kit::auth::Auth;
use service_kit::docs::responses::Unauthorized;
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;

use super::dto::NotificationItem;
use crate::routes::responses::OwnJsonErrors;
use crate::routes::AppState;
use crate::store::notifications::Marked;

/// `{notificationTags}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadRequest {
    /// The tags to mark read: 1 to 100, each one of the caller's notifications.
    #[schema(min_items = 1, max_items = 100)]
    pub notification_tags: Vec<String>,
}

/// The marked notifications and the unread count afterwards.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReadAnswer {
    pub notifications: Vec<NotificationItem>,
    #[schema(minimum = 0, maximum = 10)]
    pub unread_count: u32,
}

/// `{unread_count}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadCount {
    /// Unread notifications, counted up to 10.
    #[schema(minimum = 0, maximum = 10)]
    pub unread_count: u32,
}

fn refused(err: TagError) -> ApiError {
    ApiError::new(err.code(), err.message())
}

/// Mark notifications read.
///
/// All or nothing: when a tag is malformed or not one of the caller's notifications, nothing is
/// marked (400 `INVALID_NOTIFICATION_TAGS`). Marking one read again keeps its first `read_at`.
#[utoipa::path(
    patch, path = "/me/notifications/read", tag = "notifications", operation_id = "markNotificationsRead",
    request_body = ReadRequest, security(("bearer" = [])),
    responses(
        (status = 200, description = "Marked", body = ReadAnswer),
        (status = 400, description = "`INVALID_NOTIFICATION_TAGS` (none, over 100, malformed or not the caller's: nothing marked), `INVALID_JSON`, `VALIDATION_ERROR` (another property)", body = service_kit::ErrorBody),
        Unauthorized,
        OwnJsonErrors,
    )
)]
#[tracing::instrument(name = "mark_notifications_read", skip_all)]
pub async fn read(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<ReadRequest>,
) -> Result<Json<ReadAnswer>, ApiError> {
    let tags = parse_tags(&body.0.notification_tags).map_err(refused)?;
    let marked = state
        .stores
        .notifications
        .mark_read(&auth.0.subject, &tags, state.clock.now())
        .await?;
    match marked {
        Marked::Done(list, unread) => Ok(Json(ReadAnswer {
            notifications: list.into_iter().map(NotificationItem::from).collect(),
            unread_count: capped_unread(unread),
        })),
        Marked::NotOwn(count) => Err(refused(TagError::NotOwn(count))),
    }
}

/// The caller's unread notifications, counted up to 10.
#[utoipa::path(
    get, path = "/me/notifications/unread-count", tag = "notifications", operation_id = "countUnreadNotifications",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The count", body = UnreadCount),
        Unauthorized,
    )
)]
pub async fn unread_count(
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<Json<UnreadCount>, ApiError> {
    let count = state
        .stores
        .notifications
        .unread_count(&auth.0.subject, UNREAD_CAP)
        .await?;
    Ok(Json(UnreadCount {
        unread_count: capped_unread(count),
    }))
}
