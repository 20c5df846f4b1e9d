//! Deliveries (SQLite): rows written with each new feed entry, claimed inside
//! `BEGIN IMMEDIATE` (the write lock) with a lease (`claimed_until`) that keeps other workers
//! off a row while it is sent; a crashed worker's row is taken again after the lease.

use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::{micros, SqliteStore};
use crate::store::deliveries::{delivery_from_row, Channel, Delivery};
use crate::store::{Instant, StoreResult};

fn delivery(row: &SqliteRow, lease_until: Instant) -> StoreResult<Delivery> {
    let attempts: i64 = row.try_get("attempts")?;
    // The claim's own attempt is counted by the UPDATE that follows the read.
    delivery_from_row(row, u32::try_from(attempts + 1).unwrap_or(0), lease_until)
}

impl SqliteStore {
    /// Claims due deliveries (see [`crate::store::deliveries::DeliveryStore::claim_deliveries`]).
    pub(in crate::store) async fn claim_due_deliveries(
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
}
