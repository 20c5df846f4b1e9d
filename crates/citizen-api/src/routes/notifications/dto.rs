//! The notification's shape (spec 2.7).

use chrono::{DateTime, Utc};
use serde::Serialize;
use service_kit::instant;
use utoipa::ToSchema;

use crate::store::notifications::Notification;

/// A feed entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationItem {
    /// The notification's identity (mark it read with it).
    pub tag: String,
    pub title: String,
    /// When the event happened.
    #[serde(serialize_with = "instant::serialize")]
    pub sent_at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// When it was written to the feed (unique per account: with `sent_at` the page cursor).
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
    /// When it was marked read; absent while unread.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "instant::option::serialize")]
    pub read_at: Option<DateTime<Utc>>,
}

impl From<Notification> for NotificationItem {
    fn from(n: Notification) -> Self {
        Self {
            tag: n.tag,
            title: n.title,
            sent_at: n.sent_at,
            body: n.body,
            url: n.url,
            icon: n.icon,
            inserted_at: n.inserted_at,
            read_at: n.read_at,
        }
    }
}

/// `GET /me/notifications`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationPage {
    pub notifications: Vec<NotificationItem>,
    /// Whether older notifications follow (pass the last one's `[sent_at, inserted_at]` as
    /// `pagecursor`).
    pub has_next_offset: bool,
}
