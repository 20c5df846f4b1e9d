//! The pending-upload rows (`store::uploads`) on both backends, and the claim a committing
//! transaction makes on its files' rows.

use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::uploads::UploadStore;
use crate::store::{Instant, Media, StoreError, StoreResult};

both_backends! {
    impl Backend {
        /// Deletes the pending rows of `media` inside the transaction that inserts their `media`
        /// rows; a file the sweep has taken (its bytes deleted or being deleted) fails the
        /// transaction. A file without a pending row (written before pending rows existed, or
        /// by a test) is accepted as it is.
        pub(in crate::store) async fn claim_pending(
            tx: &mut Tx<'_>,
            media: &[Media],
        ) -> StoreResult<()> {
            for m in media {
                sqlx::query("DELETE FROM pending_uploads WHERE media_id = $1 AND swept_at IS NULL")
                    .bind(DbUuid(m.id))
                    .execute(&mut **tx)
                    .await?;
                let taken: i64 =
                    sqlx::query_scalar("SELECT COUNT(*) FROM pending_uploads WHERE media_id = $1")
                        .bind(DbUuid(m.id))
                        .fetch_one(&mut **tx)
                        .await?;
                if taken > 0 {
                    return Err(StoreError::Unavailable(anyhow::anyhow!(
                        "file {} was swept as abandoned before its filing committed",
                        m.id
                    )));
                }
            }
            Ok(())
        }
    }

    #[async_trait]
    impl UploadStore for Backend {
        async fn record_pending(&self, media_id: Uuid, now: Instant) -> StoreResult<()> {
            sqlx::query("INSERT INTO pending_uploads (media_id, written_at) VALUES ($1, $2)")
                .bind(DbUuid(media_id))
                .bind(DbInstant(now))
                .execute(&self.pool)
                .await?;
            Ok(())
        }

        async fn forget_pending(&self, media_ids: &[Uuid]) -> StoreResult<u64> {
            let mut deleted = 0;
            for &id in media_ids {
                deleted += sqlx::query("DELETE FROM pending_uploads WHERE media_id = $1")
                    .bind(DbUuid(id))
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
            }
            Ok(deleted)
        }

        async fn take_stale(
            &self,
            before: Instant,
            now: Instant,
            limit: u32,
        ) -> StoreResult<Vec<Uuid>> {
            let taken: Vec<DbUuid> = sqlx::query_scalar(
                "UPDATE pending_uploads SET swept_at = $2 WHERE media_id IN \
                 (SELECT media_id FROM pending_uploads WHERE COALESCE(swept_at, written_at) < $1 \
                 ORDER BY COALESCE(swept_at, written_at) LIMIT $3) \
                 AND COALESCE(swept_at, written_at) < $1 RETURNING media_id",
            )
            .bind(DbInstant(before))
            .bind(DbInstant(now))
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
            Ok(taken.into_iter().map(Uuid::from).collect())
        }
    }
}
