//! Claiming outbox rows (PostgreSQL): `FOR UPDATE SKIP LOCKED`, so several replicas never take
//! the same row (`store::sql::outbox` has the rest of a drain).

use super::PgStore;
use crate::store::sql::outbox::{OutboxRecord, OUTBOX_COLUMNS};
use crate::store::{Instant, StoreResult};

impl PgStore {
    /// Up to `limit` pending rows, oldest first, locked by this transaction.
    pub(in crate::store) async fn claim_outbox_rows(
        tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
        limit: u32,
        _now: Instant,
    ) -> StoreResult<Vec<OutboxRecord>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {OUTBOX_COLUMNS} \
             FROM notification_outbox o LEFT JOIN reports r ON r.id = o.report_id \
             LEFT JOIN news_items n ON n.id = o.news_id \
             WHERE o.processed_at IS NULL \
             ORDER BY o.occurred_at, o.id LIMIT $1 FOR UPDATE OF o SKIP LOCKED"
        ))
        .bind(i64::from(limit))
        .fetch_all(&mut **tx)
        .await?)
    }
}
