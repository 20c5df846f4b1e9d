//! Public report status changes for MQTT (SQLite): recorded in the change's transaction (the
//! workflow's `BEGIN IMMEDIATE` already serialises steps), claimed with a lease in one
//! statement, removed once published.

use async_trait::async_trait;
use domain::issues::IssueStatus;
use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use super::{get_instant, get_uuid, micros, SqliteStore};
use crate::store::status_events::{StatusEvent, StatusEventStore};
use crate::store::{status, Instant, StoreResult};

/// The states of every issue of the report, as this transaction sees them.
pub(crate) async fn issue_statuses(
    tx: &mut Transaction<'_, Sqlite>,
    report_id: Uuid,
) -> StoreResult<Vec<IssueStatus>> {
    let names: Vec<String> = sqlx::query_scalar("SELECT status FROM issues WHERE report_id = ?1")
        .bind(report_id.to_string())
        .fetch_all(&mut **tx)
        .await?;
    Ok(names
        .iter()
        .map(|n| status(n))
        .collect::<anyhow::Result<Vec<_>>>()?)
}

/// Records a change of the report's public status.
pub(crate) async fn insert_status_event(
    tx: &mut Transaction<'_, Sqlite>,
    report_id: Uuid,
    before: Option<IssueStatus>,
    after: Option<IssueStatus>,
    now: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO report_status_events (id, report_id, previous_status, status, occurred_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .bind(Uuid::now_v7().to_string())
    .bind(report_id.to_string())
    .bind(before.map(IssueStatus::as_str))
    .bind(after.map(IssueStatus::as_str))
    .bind(micros(now))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[async_trait]
impl StatusEventStore for SqliteStore {
    async fn claim_status_events(
        &self,
        limit: u32,
        lease_secs: u32,
        now: Instant,
    ) -> StoreResult<Vec<StatusEvent>> {
        let rows = sqlx::query(
            "UPDATE report_status_events SET claimed_until = ?2 + ?3 \
             WHERE id IN ( \
               SELECT id FROM report_status_events \
               WHERE claimed_until IS NULL OR claimed_until <= ?2 \
               ORDER BY occurred_at, id LIMIT ?1) \
             RETURNING id, report_id, previous_status, status, occurred_at",
        )
        .bind(i64::from(limit))
        .bind(micros(now))
        .bind(i64::from(lease_secs) * 1_000_000)
        .fetch_all(&self.pool)
        .await?;
        let mut events = rows
            .iter()
            .map(|row| {
                use sqlx::Row as _;
                let previous: Option<String> = row.try_get("previous_status")?;
                let current: Option<String> = row.try_get("status")?;
                Ok(StatusEvent {
                    id: get_uuid(row, "id")?,
                    report_id: get_uuid(row, "report_id")?,
                    previous: previous.as_deref().map(status).transpose()?,
                    status: current.as_deref().map(status).transpose()?,
                    occurred_at: get_instant(row, "occurred_at")?,
                })
            })
            .collect::<StoreResult<Vec<_>>>()?;
        // RETURNING does not keep the subquery's order.
        events.sort_by_key(|e| (e.occurred_at, e.id));
        Ok(events)
    }

    async fn remove_status_events(&self, ids: &[Uuid]) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        for id in ids {
            sqlx::query("DELETE FROM report_status_events WHERE id = ?1")
                .bind(id.to_string())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn discard_status_events(&self) -> StoreResult<u64> {
        let done = sqlx::query("DELETE FROM report_status_events")
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
