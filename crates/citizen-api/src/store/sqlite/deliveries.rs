//! Deliveries (SQLite): rows written with each new feed entry, claimed inside
//! `BEGIN IMMEDIATE` (the write lock) with a lease (`claimed_until`) that keeps other workers
//! off a row while it is sent; a crashed worker's row is taken again after the lease.

use async_trait::async_trait;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, Sqlite, Transaction};

use super::{micros, SqliteStore};
use crate::store::deliveries::{
    delivery_from_row, Channel, Delivery, DeliveryKey, DeliveryStore, Finish,
};
use crate::store::{Instant, StoreResult};

/// The delivery rows of a feed entry just written for `subject`: one per web push subscription
/// and one for the e-mail subscription, when the subject's settings are enabled with no digest
/// interval (no settings row: the defaults, enabled and as it happens).
pub(crate) async fn add_deliveries(
    tx: &mut Transaction<'_, Sqlite>,
    tag: &str,
    subject: &str,
    now: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO notification_deliveries (tag, channel, target, next_attempt_at, created_at) \
         SELECT ?1, t.channel, t.target, ?3, ?3 FROM ( \
           SELECT 'webpush' AS channel, endpoint AS target FROM webpush_subscriptions \
           WHERE subject = ?2 \
           UNION ALL SELECT 'email', subject FROM email_subscriptions WHERE subject = ?2) t \
         WHERE NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.subject = ?2 \
           AND (NOT s.enabled OR s.\"interval\" IS NOT NULL)) \
         ON CONFLICT DO NOTHING",
    )
    .bind(tag)
    .bind(subject)
    .bind(micros(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn delivery(row: &SqliteRow, lease_until: Instant) -> StoreResult<Delivery> {
    let attempts: i64 = row.try_get("attempts")?;
    // The claim's own attempt is counted by the UPDATE that follows the read.
    delivery_from_row(row, u32::try_from(attempts + 1).unwrap_or(0), lease_until)
}

#[async_trait]
impl DeliveryStore for SqliteStore {
    async fn claim_deliveries(
        &self,
        channels: &[Channel],
        limit: u32,
        now: Instant,
        lease_until: Instant,
    ) -> StoreResult<Vec<Delivery>> {
        let (Some(first), last) = (channels.first(), channels.last()) else {
            return Ok(Vec::new());
        };
        let last = last.unwrap_or(first);
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let rows = sqlx::query(
            "SELECT d.tag, d.channel, d.target, d.attempts, \
               coalesce(d.digest_title, n.title) AS title, \
               CASE WHEN d.digest_title IS NULL THEN n.body ELSE d.digest_body END AS body, \
               n.url, \
               w.p256dh, w.auth, e.email, e.unsubscribe_token, \
               coalesce(s.locale, e.locale) AS locale \
             FROM notification_deliveries d JOIN notifications n ON n.tag = d.tag \
             LEFT JOIN webpush_subscriptions w \
               ON d.channel = 'webpush' AND w.endpoint = d.target AND w.subject = n.subject \
             LEFT JOIN email_subscriptions e ON d.channel = 'email' AND e.subject = d.target \
             LEFT JOIN notification_settings s ON s.subject = e.subject \
             WHERE d.done_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_at <= ?1 \
               AND (d.claimed_until IS NULL OR d.claimed_until <= ?1) \
               AND d.channel IN (?2, ?3) \
             ORDER BY d.next_attempt_at, d.tag LIMIT ?4",
        )
        .bind(micros(now))
        .bind(first.as_str())
        .bind(last.as_str())
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?;
        let claimed = rows
            .iter()
            .map(|row| delivery(row, lease_until))
            .collect::<StoreResult<Vec<_>>>()?;
        for d in &claimed {
            sqlx::query(
                "UPDATE notification_deliveries SET claimed_until = ?4, attempts = attempts + 1 \
                 WHERE tag = ?1 AND channel = ?2 AND target = ?3",
            )
            .bind(&d.key.tag)
            .bind(d.key.channel.as_str())
            .bind(&d.key.target)
            .bind(micros(lease_until))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(claimed)
    }

    async fn finish_delivery(
        &self,
        key: &DeliveryKey,
        lease_until: Instant,
        finish: &Finish,
        now: Instant,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let (done, failed, next, error) = match finish {
            Finish::Delivered => (Some(now), None, None, None),
            Finish::RetryAt { at, error } => (None, None, Some(*at), Some(error.as_str())),
            Finish::Failed(error) => (None, Some(now), None, Some(error.as_str())),
            Finish::Gone => (None, Some(now), None, Some("subscription gone")),
        };
        let recorded = sqlx::query(
            "UPDATE notification_deliveries SET claimed_until = NULL, done_at = ?4, \
               failed_at = ?5, next_attempt_at = coalesce(?6, next_attempt_at), \
               last_error = coalesce(?7, last_error) \
             WHERE tag = ?1 AND channel = ?2 AND target = ?3 AND claimed_until = ?8",
        )
        .bind(&key.tag)
        .bind(key.channel.as_str())
        .bind(&key.target)
        .bind(done.map(micros))
        .bind(failed.map(micros))
        .bind(next.map(micros))
        .bind(error)
        .bind(micros(lease_until))
        .execute(&mut *tx)
        .await?;
        if recorded.rows_affected() == 0 {
            return Ok(false);
        }
        if *finish == Finish::Gone && key.channel == Channel::WebPush {
            sqlx::query("DELETE FROM webpush_subscriptions WHERE endpoint = ?1")
                .bind(&key.target)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn prune_deliveries(&self, before: Instant, limit: u32) -> StoreResult<u64> {
        let deleted = sqlx::query(
            "DELETE FROM notification_deliveries WHERE rowid IN ( \
               SELECT rowid FROM notification_deliveries \
               WHERE (done_at IS NOT NULL OR failed_at IS NOT NULL) \
                 AND coalesce(done_at, failed_at) < ?1 \
               LIMIT ?2)",
        )
        .bind(micros(before))
        .bind(i64::from(limit))
        .execute(&self.pool)
        .await?;
        Ok(deleted.rows_affected())
    }

    async fn expire_deliveries(
        &self,
        written_before: Instant,
        now: Instant,
        limit: u32,
    ) -> StoreResult<u64> {
        let expired = sqlx::query(
            "UPDATE notification_deliveries SET failed_at = ?2, claimed_until = NULL, \
               last_error = 'expired' \
             WHERE rowid IN ( \
               SELECT rowid FROM notification_deliveries \
               WHERE done_at IS NULL AND failed_at IS NULL AND created_at < ?1 \
                 AND (claimed_until IS NULL OR claimed_until <= ?2) \
               LIMIT ?3)",
        )
        .bind(micros(written_before))
        .bind(micros(now))
        .bind(i64::from(limit))
        .execute(&self.pool)
        .await?;
        Ok(expired.rows_affected())
    }

    async fn unsubscribe_email(&self, token: &str) -> StoreResult<bool> {
        let removed = sqlx::query("DELETE FROM email_subscriptions WHERE unsubscribe_token = ?1")
            .bind(token)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(removed > 0)
    }
}
