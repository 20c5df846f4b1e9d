//! Notifications (SQLite).

use async_trait::async_trait;
use domain::notifications::Interval;
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row};

use super::{get_instant, get_opt_instant, micros, SqliteStore};
use crate::store::notifications::{
    newest_first, retry_taken_instant, EmailSubscription, Marked, NewNotification, Notification,
    NotificationStore, PushSubscription, Render, Settings,
};
use crate::store::{Instant, StoreResult};

const COLUMNS: &str = "tag, title, body, url, icon, sent_at, inserted_at, read_at";

fn notification(row: &SqliteRow) -> StoreResult<Notification> {
    Ok(Notification {
        tag: row.try_get("tag")?,
        title: row.try_get("title")?,
        body: row.try_get("body")?,
        url: row.try_get("url")?,
        icon: row.try_get("icon")?,
        sent_at: get_instant(row, "sent_at")?,
        inserted_at: get_instant(row, "inserted_at")?,
        read_at: get_opt_instant(row, "read_at")?,
    })
}

impl SqliteStore {
    async fn insert(
        &self,
        new: &NewNotification,
        now: Instant,
    ) -> StoreResult<Option<Notification>> {
        let row = sqlx::query(&format!(
            "INSERT INTO notifications \
               (tag, subject, event_id, title, body, url, icon, sent_at, inserted_at) \
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, max(?9, coalesce(( \
               SELECT max(inserted_at) + 1 FROM notifications WHERE subject = ?2), ?9)) \
             WHERE true ON CONFLICT (event_id, subject) DO NOTHING RETURNING {COLUMNS}"
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
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(notification).transpose()
    }
}

#[async_trait]
impl NotificationStore for SqliteStore {
    async fn add_notification(
        &self,
        new: &NewNotification,
        now: Instant,
    ) -> StoreResult<Option<Notification>> {
        retry_taken_instant(|| self.insert(new, now)).await
    }

    async fn notifications(
        &self,
        subject: &str,
        after: Option<(Instant, Instant)>,
        limit: u32,
    ) -> StoreResult<Vec<Notification>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM notifications WHERE subject = ?1 \
             AND (?2 IS NULL OR (sent_at, inserted_at) < (?2, ?3)) \
             ORDER BY sent_at DESC, inserted_at DESC LIMIT ?4"
        ))
        .bind(subject)
        .bind(after.map(|a| micros(a.0)))
        .bind(after.map(|a| micros(a.1)))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(notification).collect()
    }

    async fn mark_read(&self, subject: &str, tags: &[String], now: Instant) -> StoreResult<Marked> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let mut q = QueryBuilder::new("UPDATE notifications SET read_at = coalesce(read_at, ");
        q.push_bind(micros(now))
            .push(") WHERE subject = ")
            .push_bind(subject)
            .push(" AND tag IN (");
        let mut list = q.separated(", ");
        for tag in tags {
            list.push_bind(tag);
        }
        q.push(format!(") RETURNING {COLUMNS}"));
        let rows = q.build().fetch_all(&mut *tx).await?;
        if rows.len() != tags.len() {
            tx.rollback().await?;
            return Ok(Marked::NotOwn(tags.len() - rows.len()));
        }
        let unread: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM notifications WHERE subject = ?1 AND read_at IS NULL",
        )
        .bind(subject)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        let mut marked = rows
            .iter()
            .map(notification)
            .collect::<StoreResult<Vec<_>>>()?;
        newest_first(&mut marked);
        Ok(Marked::Done(marked, u64::try_from(unread).unwrap_or(0)))
    }

    async fn unread_count(&self, subject: &str, cap: u32) -> StoreResult<u64> {
        let count: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM (SELECT 1 FROM notifications \
             WHERE subject = ?1 AND read_at IS NULL LIMIT ?2)",
        )
        .bind(subject)
        .bind(i64::from(cap))
        .fetch_one(&self.pool)
        .await?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    async fn settings(&self, subject: &str) -> StoreResult<Settings> {
        let row: Option<(bool, Option<String>)> = sqlx::query_as(
            "SELECT enabled, \"interval\" FROM notification_settings WHERE subject = ?1",
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
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (subject) DO UPDATE SET \
             enabled = excluded.enabled, \"interval\" = excluded.\"interval\", \
             locale = coalesce(excluded.locale, notification_settings.locale), \
             updated_at = excluded.updated_at",
        )
        .bind(subject)
        .bind(settings.enabled)
        .bind(settings.interval.map(Interval::as_str))
        .bind(locale)
        .bind(micros(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn remember_locale(&self, subject: &str, locale: &str, now: Instant) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO notification_settings (subject, enabled, \"interval\", locale, updated_at) \
             VALUES (?1, TRUE, NULL, ?2, ?3) ON CONFLICT (subject) DO UPDATE SET \
             locale = excluded.locale WHERE notification_settings.locale IS NULL",
        )
        .bind(subject)
        .bind(locale)
        .bind(micros(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn webpush_subscribed(&self, subject: &str, endpoint: &str) -> StoreResult<bool> {
        let found: Option<String> = sqlx::query_scalar(
            "SELECT endpoint FROM webpush_subscriptions WHERE subject = ?1 AND endpoint = ?2",
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
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (endpoint) DO UPDATE SET \
             subject = excluded.subject, p256dh = excluded.p256dh, auth = excluded.auth, \
             locale = excluded.locale, created_at = excluded.created_at",
        )
        .bind(&sub.endpoint)
        .bind(subject)
        .bind(&sub.p256dh)
        .bind(&sub.auth)
        .bind(&sub.locale)
        .bind(micros(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn remove_webpush(&self, subject: &str, endpoint: &str) -> StoreResult<bool> {
        let removed =
            sqlx::query("DELETE FROM webpush_subscriptions WHERE subject = ?1 AND endpoint = ?2")
                .bind(subject)
                .bind(endpoint)
                .execute(&self.pool)
                .await?
                .rows_affected();
        Ok(removed > 0)
    }

    async fn email_subscribed(&self, subject: &str) -> StoreResult<bool> {
        let found: Option<String> =
            sqlx::query_scalar("SELECT subject FROM email_subscriptions WHERE subject = ?1")
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
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (subject) DO UPDATE SET \
             email = excluded.email, locale = excluded.locale",
        )
        .bind(subject)
        .bind(&sub.email)
        .bind(&sub.locale)
        .bind(&sub.unsubscribe_token)
        .bind(micros(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn remove_email(&self, subject: &str) -> StoreResult<bool> {
        let removed = sqlx::query("DELETE FROM email_subscriptions WHERE subject = ?1")
            .bind(subject)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(removed > 0)
    }

    async fn drain_outbox(
        &self,
        limit: u32,
        render: Render<'_>,
        now: Instant,
    ) -> StoreResult<usize> {
        self.drain(limit, render, now).await
    }
}
