//! Writing a feed entry (SQLite): its inserted-at instant follows the account's newest by at
//! least a microsecond, so entries of one account never share one.

use super::{micros, SqliteStore};
use crate::store::notifications::NewNotification;
use crate::store::records::{NotificationRecord, NOTIFICATION_COLUMNS};
use crate::store::{Instant, StoreResult};

impl SqliteStore {
    /// Inserts a feed entry (in a transaction or on the pool); `None` when the event already has
    /// one for the account.
    pub(in crate::store) async fn insert_notification<'c, E>(
        executor: E,
        new: &NewNotification,
        now: Instant,
    ) -> StoreResult<Option<NotificationRecord>>
    where
        E: sqlx::Executor<'c, Database = sqlx::Sqlite>,
    {
        // `WHERE true`: SQLite reads `ON CONFLICT` after a bare `SELECT` as the join's.
        Ok(sqlx::query_as(&format!(
            "INSERT INTO notifications \
               (tag, subject, event_id, title, body, url, icon, sent_at, inserted_at) \
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, max(?9, coalesce(( \
               SELECT max(inserted_at) + 1 FROM notifications WHERE subject = ?2), ?9)) \
             WHERE true ON CONFLICT (event_id, subject) DO NOTHING RETURNING {NOTIFICATION_COLUMNS}"
        ))
        .bind(new.tag())
        .bind(&new.subject)
        .bind(new.event_id.map(|e| e.to_string()))
        .bind(&new.title)
        .bind(&new.body)
        .bind(&new.url)
        .bind(&new.icon)
        .bind(micros(new.sent_at))
        .bind(micros(now))
        .fetch_optional(executor)
        .await?)
    }
}
