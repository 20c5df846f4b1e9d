//! Deliveries: what both backends write the same way (a new feed entry's delivery rows, a
//! finished attempt, an unsubscription, pruning and expiring old rows). Claiming due rows is each backend's
//! (`deliveries.rs`): PostgreSQL claims with `FOR UPDATE SKIP LOCKED`, SQLite under its
//! write lock; both with a lease (`claimed_until`), so a crashed worker's row is taken again once
//! the lease is over.

use async_trait::async_trait;

use super::DbInstant;
use crate::store::deliveries::{Channel, Delivery, DeliveryKey, DeliveryStore, Finish};
use crate::store::{Instant, StoreResult};

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
        async fn claim_deliveries(
            &self,
            channels: &[Channel],
            limit: u32,
            now: Instant,
            lease_until: Instant,
        ) -> StoreResult<Vec<Delivery>> {
            self.claim_due_deliveries(channels, limit, now, lease_until).await
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
