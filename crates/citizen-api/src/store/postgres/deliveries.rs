//! Deliveries (PostgreSQL): rows written with each new feed entry, claimed with
//! `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so replicas never send one row at the
//! same time and a crashed worker's row is taken again once the lease is over.

use sqlx::postgres::PgRow;
use sqlx::Row;

use super::PgStore;
use crate::store::deliveries::{delivery_from_row, Channel, Delivery};
use crate::store::{Instant, StoreResult};

fn delivery(row: &PgRow, lease_until: Instant) -> StoreResult<Delivery> {
    let attempts: i32 = row.try_get("attempts")?;
    delivery_from_row(row, u32::try_from(attempts).unwrap_or(0), lease_until)
}

impl PgStore {
    /// Claims due deliveries (see [`crate::store::deliveries::DeliveryStore::claim_deliveries`]).
    pub(in crate::store) async fn claim_due_deliveries(
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
}
