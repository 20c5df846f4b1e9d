//! Deliveries (PostgreSQL): rows written with each new feed entry, claimed with
//! `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so replicas never send one row at the
//! same time and a crashed worker's row is taken again once the lease is over.

use async_trait::async_trait;
use sqlx::postgres::PgRow;
use sqlx::{Postgres, Row, Transaction};

use super::PgStore;
use crate::store::deliveries::{
    delivery_from_row, Channel, Delivery, DeliveryKey, DeliveryStore, Finish,
};
use crate::store::{Instant, StoreResult};

/// The delivery rows of a feed entry just written for `subject`: one per web push subscription
/// and one for the e-mail subscription, when the subject's settings are enabled with no digest
/// interval (no settings row: the defaults, enabled and as it happens).
pub(crate) async fn add_deliveries(
    tx: &mut Transaction<'_, Postgres>,
    tag: &str,
    subject: &str,
    now: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO notification_deliveries (tag, channel, target, next_attempt_at, created_at) \
         SELECT $1, t.channel, t.target, $3, $3 FROM ( \
           SELECT 'webpush' AS channel, endpoint AS target FROM webpush_subscriptions \
           WHERE subject = $2 \
           UNION ALL SELECT 'email', subject FROM email_subscriptions WHERE subject = $2) t \
         WHERE NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.subject = $2 \
           AND (NOT s.enabled OR s.\"interval\" IS NOT NULL)) \
         ON CONFLICT DO NOTHING",
    )
    .bind(tag)
    .bind(subject)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn delivery(row: &PgRow, lease_until: Instant) -> StoreResult<Delivery> {
    let attempts: i32 = row.try_get("attempts")?;
    delivery_from_row(row, u32::try_from(attempts).unwrap_or(0), lease_until)
}

#[async_trait]
impl DeliveryStore for PgStore {
    async fn claim_deliveries(
        &self,
        channels: &[Channel],
        limit: u32,
        now: Instant,
        lease_until: Instant,
    ) -> StoreResult<Vec<Delivery>> {
        let channels: Vec<&str> = channels.iter().map(|c| c.as_str()).collect();
        let rows = sqlx::query(
            "WITH claimed AS ( \
               UPDATE notification_deliveries d SET claimed_until = $4, attempts = d.attempts + 1 \
               FROM ( \
                 SELECT tag, channel, target FROM notification_deliveries \
                 WHERE done_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1 \
                   AND (claimed_until IS NULL OR claimed_until <= $1) AND channel = ANY($2) \
                 ORDER BY next_attempt_at, tag LIMIT $3 FOR UPDATE SKIP LOCKED) due \
               WHERE d.tag = due.tag AND d.channel = due.channel AND d.target = due.target \
               RETURNING d.tag, d.channel, d.target, d.attempts, d.next_attempt_at, \
                 d.digest_title, d.digest_body) \
             SELECT c.tag, c.channel, c.target, c.attempts, \
               coalesce(c.digest_title, n.title) AS title, \
               CASE WHEN c.digest_title IS NULL THEN n.body ELSE c.digest_body END AS body, \
               n.url, \
               w.p256dh, w.auth, e.email, e.unsubscribe_token, \
               coalesce(s.locale, e.locale) AS locale \
             FROM claimed c JOIN notifications n ON n.tag = c.tag \
             LEFT JOIN webpush_subscriptions w \
               ON c.channel = 'webpush' AND w.endpoint = c.target AND w.subject = n.subject \
             LEFT JOIN email_subscriptions e ON c.channel = 'email' AND e.subject = c.target \
             LEFT JOIN notification_settings s ON s.subject = e.subject \
             ORDER BY c.next_attempt_at, c.tag",
        )
        .bind(now)
        .bind(&channels)
        .bind(i64::from(limit))
        .bind(lease_until)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| delivery(row, lease_until)).collect()
    }

    async fn finish_delivery(
        &self,
        key: &DeliveryKey,
        lease_until: Instant,
        finish: &Finish,
        now: Instant,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let (done, failed, next, error) = match finish {
            Finish::Delivered => (Some(now), None, None, None),
            Finish::RetryAt { at, error } => (None, None, Some(*at), Some(error.as_str())),
            Finish::Failed(error) => (None, Some(now), None, Some(error.as_str())),
            Finish::Gone => (None, Some(now), None, Some("subscription gone")),
        };
        let recorded = sqlx::query(
            "UPDATE notification_deliveries SET claimed_until = NULL, done_at = $4, \
               failed_at = $5, next_attempt_at = coalesce($6, next_attempt_at), \
               last_error = coalesce($7, last_error) \
             WHERE tag = $1 AND channel = $2 AND target = $3 AND claimed_until = $8",
        )
        .bind(&key.tag)
        .bind(key.channel.as_str())
        .bind(&key.target)
        .bind(done)
        .bind(failed)
        .bind(next)
        .bind(error)
        .bind(lease_until)
        .execute(&mut *tx)
        .await?;
        if recorded.rows_affected() == 0 {
            return Ok(false);
        }
        if *finish == Finish::Gone && key.channel == Channel::WebPush {
            sqlx::query("DELETE FROM webpush_subscriptions WHERE endpoint = $1")
                .bind(&key.target)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn prune_deliveries(&self, before: Instant, limit: u32) -> StoreResult<u64> {
        let deleted = sqlx::query(
            "DELETE FROM notification_deliveries d USING ( \
               SELECT tag, channel, target FROM notification_deliveries \
               WHERE (done_at IS NOT NULL OR failed_at IS NOT NULL) \
                 AND coalesce(done_at, failed_at) < $1 \
               LIMIT $2) old \
             WHERE d.tag = old.tag AND d.channel = old.channel AND d.target = old.target",
        )
        .bind(before)
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
            "UPDATE notification_deliveries d SET failed_at = $2, claimed_until = NULL, \
               last_error = 'expired' \
             FROM ( \
               SELECT tag, channel, target FROM notification_deliveries \
               WHERE done_at IS NULL AND failed_at IS NULL AND created_at < $1 \
                 AND (claimed_until IS NULL OR claimed_until <= $2) \
               LIMIT $3 FOR UPDATE SKIP LOCKED) old \
             WHERE d.tag = old.tag AND d.channel = old.channel AND d.target = old.target",
        )
        .bind(written_before)
        .bind(now)
        .bind(i64::from(limit))
        .execute(&self.pool)
        .await?;
        Ok(expired.rows_affected())
    }

    async fn unsubscribe_email(&self, token: &str) -> StoreResult<bool> {
        let removed = sqlx::query("DELETE FROM email_subscriptions WHERE unsubscribe_token = $1")
            .bind(token)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(removed > 0)
    }
}
