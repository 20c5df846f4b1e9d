//! Claiming outbox rows (SQLite): the drain's `BEGIN IMMEDIATE` transaction holds the database's
//! write lock, which is the claim (`store::sql::outbox` has the rest of a drain).

use super::{micros, SqliteStore};
use crate::store::sql::outbox::{OutboxRecord, OUTBOX_COLUMNS};
use crate::store::{Instant, StoreResult};

impl SqliteStore {
    /// Up to `limit` pending rows whose lease is not held, oldest first.
    pub(in crate::store) async fn claim_outbox_rows(
        tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
        limit: u32,
        now: Instant,
    ) -> StoreResult<Vec<OutboxRecord>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {OUTBOX_COLUMNS} \
             FROM notification_outbox o LEFT JOIN reports r ON r.id = o.report_id \
             LEFT JOIN news_items n ON n.id = o.news_id \
             WHERE o.processed_at IS NULL \
             AND (o.claimed_until IS NULL OR o.claimed_until < ?2) \
             ORDER BY o.occurred_at, o.id LIMIT ?1"
        ))
        .bind(i64::from(limit))
        .bind(micros(now))
        .fetch_all(&mut **tx)
        .await?)
    }
}
