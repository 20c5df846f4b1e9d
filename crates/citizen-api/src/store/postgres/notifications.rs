//! Writing a feed entry (PostgreSQL): its inserted-at instant follows the account's newest by at
//! least a microsecond (`GREATEST`, `interval`), so entries of one account never share one.

use super::PgStore;
use crate::store::notifications::NewNotification;
use crate::store::records::{NotificationRecord, NOTIFICATION_COLUMNS};
use crate::store::{Instant, StoreResult};

impl PgStore {
    /// Inserts a feed entry (in a transaction or on the pool); `None` when the event already has
    /// one for the account.
    pub(in crate::store) async fn insert_notification<'c, E>(
        executor: E,
        new: &NewNotification,
        now: Instant,
    ) -> StoreResult<Option<NotificationRecord>>
    where
        E: sqlx::Executor<'c, Database = sqlx::Postgres>,
    {
        Ok(sqlx::query_as(&format!(
            "INSERT INTO notifications \
               (tag, subject, event_id, title, body, url, icon, sent_at, inserted_at) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, GREATEST($9, ( \
               SELECT max(inserted_at) + interval '1 microsecond' FROM notifications \
               WHERE subject = $2)) \
             ON CONFLICT (event_id, subject) DO NOTHING RETURNING {NOTIFICATION_COLUMNS}"
        ))
        .bind(new.tag())
        .bind(&new.subject)
        .bind(new.event_id)
        .bind(&new.title)
        .bind(&new.body)
        .bind(&new.url)
        .bind(&new.icon)
        .bind(new.sent_at)
        .bind(now)
        .fetch_optional(executor)
        .await?)
    }
}
