//! Deliveries on both backends: a new feed entry's delivery rows, claiming due rows, a
//! finished attempt, an unsubscription, pruning and expiring old rows. A claim takes rows with
//! `Backend::SKIP_LOCKED` (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite: the write lock of
//! `BEGIN IMMEDIATE`) and gives them a lease (`claimed_until`), so replicas never send one row at
//! the same time and a crashed worker's row is taken again once the lease is over.

use async_trait::async_trait;
use sqlx::QueryBuilder;

use super::DbInstant;
use crate::store::deliveries::{
    delivery_from_row, Channel, Claim, Delivery, DeliveryKey, DeliveryStore, Finish,
};
use crate::store::{Instant, StoreResult};

/// What a claimed delivery is sent with: its feed entry and its subscription (null when the
/// subscription ended since), read for the claimed keys (`notification_deliveries d`).
const CLAIMED_COLUMNS: &str = "SELECT d.tag, d.channel, d.target, \
       CAST(d.attempts AS BIGINT) AS attempts, \
       coalesce(d.digest_title, n.title) AS title, \
       CASE WHEN d.digest_title IS NULL THEN n.body ELSE d.digest_body END AS body, \
       n.url, w.p256dh, w.auth, e.email, e.unsubscribe_token, \
       coalesce(s.locale, e.locale) AS locale \
     FROM notification_deliveries d JOIN notifications n ON n.tag = d.tag \
     LEFT JOIN webpush_subscriptions w \
       ON d.channel = 'webpush' AND w.endpoint = d.target AND w.subject = n.subject \
     LEFT JOIN email_subscriptions e ON d.channel = 'email' AND e.subject = d.target \
     LEFT JOIN notification_settings s ON s.subject = e.subject";

both_backends! {
    impl Backend {
        /// The delivery rows of a feed entry just written for `subject`: one per web push
        /// subscription and one for the e-mail subscription, when the subject's settings are
        /// enabled with no digest interval (no settings row: the defaults, enabled and as it
        /// happens).
        pub(in crate::store) async fn add_deliveries(
            tx: &mut Tx<'_>,
            tag: &str,
            subject: &str,
            now: Instant,
        ) -> StoreResult<()> {
            // `WHERE … ON CONFLICT`: SQLite needs the `WHERE` to read `ON CONFLICT` as the
            // insert's.
            sqlx::query(
                "INSERT INTO notification_deliveries \
                   (tag, channel, target, next_attempt_at, created_at) \
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
            .bind(DbInstant(now))
            .execute(&mut **tx)
            .await?;
            Ok(())
        }
    }

    #[async_trait]
    impl DeliveryStore for Backend {
        async fn claim_deliveries(&self, claim: Claim<'_>) -> StoreResult<Vec<Delivery>> {
            if claim.channels.is_empty() {
                return Ok(Vec::new());
            }
            let mut tx = self.begin_write().await?;
            let mut update = QueryBuilder::<Db>::new(
                "UPDATE notification_deliveries SET attempts = attempts + 1, claimed_until = ",
            );
            update
                .push_bind(DbInstant(claim.lease_until))
                .push(
                    " WHERE (tag, channel, target) IN ( \
                       SELECT tag, channel, target FROM notification_deliveries \
                       WHERE done_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ",
                )
                .push_bind(DbInstant(claim.now))
                .push(" AND (claimed_until IS NULL OR claimed_until <= ")
                .push_bind(DbInstant(claim.now))
                .push(") AND channel IN (");
            let mut list = update.separated(", ");
            for channel in claim.channels {
                list.push_bind(channel.as_str());
            }
            update
                .push(") ORDER BY next_attempt_at, tag LIMIT ")
                .push_bind(i64::from(claim.limit))
                .push(Backend::SKIP_LOCKED)
                .push(") RETURNING tag, channel, target");
            let keys: Vec<(String, String, String)> =
                update.build_query_as().fetch_all(&mut *tx).await?;
            if keys.is_empty() {
                tx.commit().await?;
                return Ok(Vec::new());
            }
            let mut read = QueryBuilder::<Db>::new(CLAIMED_COLUMNS);
            read.push(" WHERE (d.tag, d.channel, d.target) IN (VALUES ");
            let mut list = read.separated(", ");
            for (tag, channel, target) in keys {
                list.push("(")
                    .push_bind_unseparated(tag)
                    .push_unseparated(", ")
                    .push_bind_unseparated(channel)
                    .push_unseparated(", ")
                    .push_bind_unseparated(target)
                    .push_unseparated(")");
            }
            read.push(") ORDER BY d.next_attempt_at, d.tag");
            let rows = read.build().fetch_all(&mut *tx).await?;
            tx.commit().await?;
            rows.iter()
                .map(|row| delivery_from_row(row, claim.lease_until))
                .collect()
        }

        async fn finish_delivery(
            &self,
            key: &DeliveryKey,
            lease_until: Instant,
            finish: &Finish,
            now: Instant,
        ) -> StoreResult<bool> {
            let mut tx = self.begin_write().await?;
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
            .bind(done.map(DbInstant))
            .bind(failed.map(DbInstant))
            .bind(next.map(DbInstant))
            .bind(error)
            .bind(DbInstant(lease_until))
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
                "DELETE FROM notification_deliveries WHERE (tag, channel, target) IN ( \
                   SELECT tag, channel, target FROM notification_deliveries \
                   WHERE (done_at IS NOT NULL OR failed_at IS NOT NULL) \
                     AND coalesce(done_at, failed_at) < $1 \
                   LIMIT $2)",
            )
            .bind(DbInstant(before))
            .bind(i64::from(limit))
            .execute(&self.pool)
            .await?;
            Ok(deleted.rows_affected())
        }

        /// Rows another worker holds under a lease or a row lock are left to it
        /// (`Backend::SKIP_LOCKED`).
        async fn expire_deliveries(
            &self,
            written_before: Instant,
            now: Instant,
            limit: u32,
        ) -> StoreResult<u64> {
            let expired = sqlx::query(&format!(
                "UPDATE notification_deliveries SET failed_at = $2, claimed_until = NULL, \
                   last_error = 'expired' \
                 WHERE (tag, channel, target) IN ( \
                   SELECT tag, channel, target FROM notification_deliveries \
                   WHERE done_at IS NULL AND failed_at IS NULL AND created_at < $1 \
                     AND (claimed_until IS NULL OR claimed_until <= $2) \
                   LIMIT $3{})",
                Backend::SKIP_LOCKED
            ))
            .bind(DbInstant(written_before))
            .bind(DbInstant(now))
            .bind(i64::from(limit))
            .execute(&self.pool)
            .await?;
            Ok(expired.rows_affected())
        }

        async fn unsubscribe_email(&self, token: &str) -> StoreResult<bool> {
            let removed =
                sqlx::query("DELETE FROM email_subscriptions WHERE unsubscribe_token = $1")
                    .bind(token)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
            Ok(removed > 0)
        }
    }
}
