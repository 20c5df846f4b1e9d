//! `GET /me/notifications`: the caller's feed, newest first, paged by `[sent_at, inserted_at]`.
//!
//! `pagecursor` is repeated: `?pagecursor=<sent_at>&pagecursor=<inserted_at>`, the last entry's
//! two instants. `inserted_at` is unique per account, so the pair orders the feed totally: pages
//! never overlap or skip, even when many entries share a `sent_at`.

use actix_web::{web, HttpRequest};
use chrono::{DateTime, Utc};
use domain::i18n::Message;
use domain::limits::{parse_int_in, LimitError, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN};
use service_kit::auth::Auth;
use service_kit::extract::Json;
use service_kit::ApiError;

use super::model::{NotificationItem, NotificationPage};
use crate::routes::AppState;

struct Params {
    limit: u32,
    after: Option<(DateTime<Utc>, DateTime<Utc>)>,
}

fn instant(raw: &str) -> Result<DateTime<Utc>, LimitError> {
    DateTime::parse_from_rfc3339(raw.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| LimitError::new("pagecursor", Message::new("notification-cursor")))
}

fn parse(query: &str) -> Result<Params, LimitError> {
    let (mut limit, mut cursor) = (None, Vec::new());
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "limit" if limit.is_none() => limit = Some(value.into_owned()),
            "limit" => {
                return Err(LimitError::new(
                    "limit",
                    Message::new("parameter-repeated").arg("parameter", "limit"),
                ))
            }
            "pagecursor" => cursor.push(value.into_owned()),
            _ => {}
        }
    }
    let limit =
        parse_int_in("limit", limit.as_deref(), LIMIT_MIN, LIMIT_MAX)?.unwrap_or(LIMIT_DEFAULT);
    let after = match cursor.as_slice() {
        [] => None,
        [sent, inserted] => Some((instant(sent)?, instant(inserted)?)),
        _ => {
            return Err(LimitError::new(
                "pagecursor",
                Message::new("notification-cursor"),
            ))
        }
    };
    Ok(Params { limit, after })
}

/// The caller's notifications.
///
/// Newest first (`sent_at`, then `inserted_at`). `pagecursor`: the last entry's `sent_at` and
/// `inserted_at`, each as its own `pagecursor` parameter, in that order.
#[utoipa::path(
    get, path = "/me/notifications", tag = "notifications", operation_id = "listNotifications",
    params(
        ("limit" = Option<i32>, Query, minimum = 1, maximum = 100, description = "Page size (default 100)"),
        ("pagecursor" = Option<Vec<String>>, Query, description = "[sent_at, inserted_at] of the last entry of the previous page"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page", body = NotificationPage),
        (status = 400, description = "`VALIDATION_ERROR`: a malformed limit or cursor", body = service_kit::ErrorBody),
        (status = 401, description = "`UNAUTHORIZED`", body = service_kit::ErrorBody),
    )
)]
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: Auth,
) -> Result<Json<NotificationPage>, ApiError> {
    let params = parse(req.query_string())?;
    let mut page = state
        .stores
        .notifications
        .notifications(&auth.0.subject, params.after, params.limit + 1)
        .await?;
    let has_next_offset = page.len() > params.limit as usize;
    page.truncate(params.limit as usize);
    Ok(Json(NotificationPage {
        notifications: page.into_iter().map(NotificationItem::from).collect(),
        has_next_offset,
    }))
}
