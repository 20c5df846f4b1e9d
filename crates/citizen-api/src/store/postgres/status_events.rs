//! Claiming public report status changes for MQTT (PostgreSQL): `FOR UPDATE SKIP LOCKED`, so
//! replicas claim different rows.

use crate::store::records::{StatusEventRecord, STATUS_EVENT_COLUMNS};
use crate::store::{Instant, StoreResult};

use super::PgStore;

impl PgStore {
    /// Claims up to `limit` unclaimed (or lease-expired) events for `lease_secs`.
    pub(in crate::store) async fn claim_status_event_rows(
        &self,
        limit: u32,
        lease_secs: u32,
        now: Instant,
    ) -> StoreResult<Vec<StatusEventRecord>> {
        Ok(sqlx::query_as(&format!(
            "UPDATE report_status_events e \
             SET claimed_until = $2 + make_interval(secs => $3) \
             FROM ( \
               SELECT id FROM report_status_events \
               WHERE claimed_until IS NULL OR claimed_until <= $2 \
               ORDER BY occurred_at, id LIMIT $1 FOR UPDATE SKIP LOCKED) c \
             WHERE e.id = c.id RETURNING e.{}",
            STATUS_EVENT_COLUMNS.replace(", ", ", e.")
        ))
        .bind(i64::from(limit))
        .bind(now)
        .bind(f64::from(lease_secs))
        .fetch_all(&self.pool)
        .await?)
    }
}
