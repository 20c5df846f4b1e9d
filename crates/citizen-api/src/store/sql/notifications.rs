//! Notifications: the feed, read marks, settings and subscriptions. A feed entry's inserted-at
//! instant follows the account's newest by at least a microsecond, so entries of one account
//! never share one (`Backend::NEXT_FEED_INSTANT`: each dialect's arithmetic).

use async_trait::async_trait;
use domain::notifications::Interval;

use super::{DbInstant, DbUuid};
use crate::store::notifications::{
    newest_first, retry_taken_instant, EmailSubscription, Marked, NewNotification, Notification,
    NotificationStore, OutboxTx, PushSubscription, Settings,
};
use crate::store::records::NOTIFICATION_COLUMNS as COLUMNS;
use crate::store::{Instant, StoreResult};

both_backends! {
    impl Backend {
        /// Inserts a feed entry (in a transaction or on the pool); `None` when the event
        /// already has one for the account.
        pub(in crate::store) async fn insert_notification<'c, E>(
            executor: E,
            new: &NewNotification,
            now: Instant,
        ) -> StoreResult<Option<Notification>>
        where
            E: sqlx::Executor<'c, Database = Db>,
        {
            // `WHERE true`: SQLite reads `ON CONFLICT` after a bare `SELECT` as the join's.
            Ok(sqlx::query_as(&format!(
                "INSERT INTO notifications \
                   (tag, subject, event_id, title, body, url, icon, sent_at, inserted_at) \
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, {} \
                 WHERE true ON CONFLICT (event_id, subject) DO NOTHING RETURNING {COLUMNS}",
                Backend::NEXT_FEED_INSTANT
            ))
            .bind(new.tag())
            .bind(&new.subject)
            .bind(new.event_id.map(DbUuid))
            .bind(&new.title)
            .bind(&new.body)
            .bind(&new.url)
            .bind(&new.icon)
            .bind(DbInstant(new.sent_at))
            .bind(DbInstant(now))
            .fetch_optional(executor)
            .await?)
        }
    }

    #[async_trait]
    impl NotificationStore for Backend {
        async fn add_notification(
            &self,
            new: &NewNotification,
            now: Instant,
        ) -> StoreResult<Option<Notification>> {
            let row =
                retry_taken_instant(|| Backend::insert_notification(&self.pool, new, now)).await?;
            Ok(row)
        }

        async fn notifications(
            &self,
            subject: &str,
            after: Option<(Instant, Instant)>,
            limit: u32,
        ) -> StoreResult<Vec<Notification>> {
            // Two statements, not `($2 IS NULL OR (…) < ($2, $3))`: a generic plan of that can
            // only filter the cursor, walking every newer entry; this way the cursor is the index
            // scan's start. The page size is a literal (see `postgres::page_sql`).
            let after_cursor = if after.is_some() {
                "AND (sent_at, inserted_at) < ($2, $3) "
            } else {
                ""
            };
            let sql = format!(
                "SELECT {COLUMNS} FROM notifications WHERE subject = $1 {after_cursor}\
                 ORDER BY sent_at DESC, inserted_at DESC LIMIT {limit}"
            );
            let mut query = sqlx::query_as(&sql).bind(subject);
            if let Some((sent_at, inserted_at)) = after {
                query = query.bind(DbInstant(sent_at)).bind(DbInstant(inserted_at));
            }
            Ok(query.fetch_all(&self.pool).await?)
        }

        async fn mark_read(
            &self,
            subject: &str,
            tags: &[String],
            now: Instant,
        ) -> StoreResult<Marked> {
            let mut tx = self.begin_write().await?;
            let mut update = sqlx::QueryBuilder::<Db>::new(
                "UPDATE notifications SET read_at = coalesce(read_at, ",
            );
            update
                .push_bind(DbInstant(now))
                .push(") WHERE subject = ")
                .push_bind(subject)
                .push(" AND tag IN (");
            let mut list = update.separated(", ");
            for tag in tags {
                list.push_bind(tag);
            }
            update.push(format!(") RETURNING {COLUMNS}"));
            let mut marked: Vec<Notification> = update.build_query_as().fetch_all(&mut *tx).await?;
            if marked.len() != tags.len() {
                tx.rollback().await?;
                return Ok(Marked::NotOwn(tags.len() - marked.len()));
            }
            let unread: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM notifications WHERE subject = $1 AND read_at IS NULL",
            )
            .bind(subject)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            newest_first(&mut marked);
            Ok(Marked::Done(marked, u64::try_from(unread).unwrap_or(0)))
        }

        async fn unread_count(&self, subject: &str, cap: u32) -> StoreResult<u64> {
            let count: i64 = sqlx::query_scalar(&format!(
                "SELECT count(*) FROM (SELECT 1 FROM notifications \
                 WHERE subject = $1 AND read_at IS NULL LIMIT {cap}) AS u"
            ))
            .bind(subject)
            .fetch_one(&self.pool)
            .await?;
            Ok(u64::try_from(count).unwrap_or(0))
        }

        async fn settings(&self, subject: &str) -> StoreResult<Settings> {
            let row: Option<(bool, Option<String>)> = sqlx::query_as(
                "SELECT enabled, \"interval\" FROM notification_settings WHERE subject = $1",
            )
            .bind(subject)
            .fetch_optional(&self.pool)
            .await?;
            Ok(row
                .map(|(enabled, interval)| Settings {
                    enabled,
                    interval: interval.as_deref().and_then(Interval::parse),
                })
                .unwrap_or_default())
        }

        async fn put_settings(
            &self,
            subject: &str,
            settings: Settings,
            locale: Option<&str>,
            now: Instant,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO notification_settings (subject, enabled, \"interval\", locale, updated_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (subject) DO UPDATE SET \
                 enabled = EXCLUDED.enabled, \"interval\" = EXCLUDED.\"interval\", \
                 locale = coalesce(EXCLUDED.locale, notification_settings.locale), \
                 updated_at = EXCLUDED.updated_at",
            )
            .bind(subject)
            .bind(settings.enabled)
            .bind(settings.interval.map(Interval::as_str))
            .bind(locale)
            .bind(DbInstant(now))
            .execute(&self.pool)
            .await?;
            Ok(())
        }

        async fn remember_locale(
            &self,
            subject: &str,
            locale: &str,
            now: Instant,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO notification_settings (subject, enabled, \"interval\", locale, updated_at) \
                 VALUES ($1, TRUE, NULL, $2, $3) ON CONFLICT (subject) DO UPDATE SET \
                 locale = excluded.locale WHERE notification_settings.locale IS NULL",
            )
            .bind(subject)
            .bind(locale)
            .bind(DbInstant(now))
            .execute(&self.pool)
            .await?;
            Ok(())
        }

        async fn webpush_subscribed(&self, subject: &str, endpoint: &str) -> StoreResult<bool> {
            let found: Option<String> = sqlx::query_scalar(
                "SELECT endpoint FROM webpush_subscriptions WHERE subject = $1 AND endpoint = $2",
            )
            .bind(subject)
            .bind(endpoint)
            .fetch_optional(&self.pool)
            .await?;
            Ok(found.is_some())
        }

        async fn add_webpush(
            &self,
            subject: &str,
            sub: &PushSubscription,
            now: Instant,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO webpush_subscriptions (endpoint, subject, p256dh, auth, locale, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (endpoint) DO UPDATE SET \
                 subject = excluded.subject, p256dh = excluded.p256dh, auth = excluded.auth, \
                 locale = excluded.locale, created_at = excluded.created_at",
            )
            .bind(&sub.endpoint)
            .bind(subject)
            .bind(&sub.p256dh)
            .bind(&sub.auth)
            .bind(&sub.locale)
            .bind(DbInstant(now))
            .execute(&self.pool)
            .await?;
            Ok(())
        }

        async fn remove_webpush(&self, subject: &str, endpoint: &str) -> StoreResult<bool> {
            let removed = sqlx::query(
                "DELETE FROM webpush_subscriptions WHERE subject = $1 AND endpoint = $2",
            )
            .bind(subject)
            .bind(endpoint)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(removed > 0)
        }

        async fn email_subscribed(&self, subject: &str) -> StoreResult<bool> {
            let found: Option<String> =
                sqlx::query_scalar("SELECT subject FROM email_subscriptions WHERE subject = $1")
                    .bind(subject)
                    .fetch_optional(&self.pool)
                    .await?;
            Ok(found.is_some())
        }

        async fn add_email(
            &self,
            subject: &str,
            sub: &EmailSubscription,
            now: Instant,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO email_subscriptions (subject, email, locale, unsubscribe_token, created_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (subject) DO UPDATE SET \
                 email = excluded.email, locale = excluded.locale",
            )
            .bind(subject)
            .bind(&sub.email)
            .bind(&sub.locale)
            .bind(&sub.unsubscribe_token)
            .bind(DbInstant(now))
            .execute(&self.pool)
            .await?;
            Ok(())
        }

        async fn remove_email(&self, subject: &str) -> StoreResult<bool> {
            let removed = sqlx::query("DELETE FROM email_subscriptions WHERE subject = $1")
                .bind(subject)
                .execute(&self.pool)
                .await?
                .rows_affected();
            Ok(removed > 0)
        }

        async fn begin_drain(&self) -> StoreResult<Box<dyn OutboxTx>> {
            self.drain_tx().await
        }
    }
}
