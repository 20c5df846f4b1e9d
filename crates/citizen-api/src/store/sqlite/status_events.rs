//! Claiming public report status changes for MQTT (SQLite): one statement, the database's write
//! lock serialises claims.

use crate::store::records::{StatusEventRecord, STATUS_EVENT_COLUMNS};
use crate::store::{Instant, StoreResult};

use super::{micros, SqliteStore};

impl SqliteStore {
    /// Claims up to `limit` unclaimed (or lease-expired) events for `lease_secs`.
    pub(in crate::store) async fn claim_status_event_rows(
        &self,
        limit: u32,
        lease_secs: u32,
        now: Instant,
    ) -> StoreResult<Vec<StatusEventRecord>> {
        Ok(sqlx::query_as(&format!(
            "UPDATE report_status_events SET claimed_until = $2 + $3 \
             WHERE id IN ( \
               SELECT id FROM report_status_events \
               WHERE claimed_until IS NULL OR claimed_until <= $2 \
               ORDER BY occurred_at, id LIMIT $1) \
             RETURNING {STATUS_EVENT_COLUMNS}"
        ))
        .bind(i64::from(limit))
        .bind(micros(now))
        .bind(i64::from(lease_secs) * 1_000_000)
        .fetch_all(&self.pool)
        .await?)
    }
}
