//! Digests: which accounts are due one is each backend's statement (PostgreSQL aggregates the
//! newest titles into an array, SQLite reads them per account); writing one is the same on both,
//! in a fan-out writer's transaction (`begin_fan_out`: an erasure waits for it, and it for an
//! erasure).

use async_trait::async_trait;

use super::DbInstant;
use crate::store::digests::{DigestCandidate, DigestPeriod, DigestStore, NewDigest};
use crate::store::{Instant, StoreResult};

both_backends! {
    #[async_trait]
    impl DigestStore for Backend {
        async fn digest_candidates(
            &self,
            period: &DigestPeriod,
            limit: u32,
        ) -> StoreResult<Vec<DigestCandidate>> {
            self.digest_candidates_of(period, limit).await
        }

        async fn add_digest(&self, digest: NewDigest<'_>, now: Instant) -> StoreResult<bool> {
            let NewDigest {
                candidate,
                period_end,
                texts,
            } = digest;
            // A fan-out writer's transaction (`begin_fan_out`): no erasure commits while it
            // runs. The candidate was read before it, so the digest is written only while its
            // newest entry is there: an account erased since has none.
            let mut tx = self.begin_fan_out().await?;
            let written = sqlx::query(
                "INSERT INTO notification_digests (subject, period_end, tag, entries, created_at) \
                 SELECT $1, $2, $3, $4, $5 WHERE EXISTS ( \
                   SELECT 1 FROM notifications WHERE tag = $3 AND subject = $1) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(&candidate.subject)
            .bind(DbInstant(period_end))
            .bind(&candidate.newest_tag)
            .bind(i64::from(candidate.entries))
            .bind(DbInstant(now))
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if written == 0 {
                return Ok(false);
            }
            // `WHERE true`: SQLite reads `ON CONFLICT` after a bare `FROM (…) t` as the join's.
            sqlx::query(
                "INSERT INTO notification_deliveries \
                   (tag, channel, target, next_attempt_at, created_at, digest_title, digest_body) \
                 SELECT $1, t.channel, t.target, $3, $3, $4, $5 FROM ( \
                   SELECT 'webpush' AS channel, endpoint AS target FROM webpush_subscriptions \
                   WHERE subject = $2 \
                   UNION ALL SELECT 'email', subject FROM email_subscriptions WHERE subject = $2) t \
                 WHERE true ON CONFLICT DO NOTHING",
            )
            .bind(&candidate.newest_tag)
            .bind(&candidate.subject)
            .bind(DbInstant(now))
            .bind(&texts.title)
            .bind(&texts.body)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        }
    }
}
