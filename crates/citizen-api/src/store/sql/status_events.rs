//! Public report status changes for MQTT: recorded in the change's transaction, claimed with a
//! lease (PostgreSQL skips rows another replica has locked), removed once published.

use async_trait::async_trait;
use domain::issues::IssueStatus;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::records::{StatusEventRecord, STATUS_EVENT_COLUMNS};
use crate::store::status_events::{StatusEvent, StatusEventStore};
use crate::store::{status, Instant, StoreResult};

both_backends! {
    impl Backend {
        /// `statement` (a DELETE or an UPDATE of `report_status_events`) on the rows `ids`.
        async fn for_status_events(&self, statement: &str, ids: &[Uuid]) -> StoreResult<()> {
            if ids.is_empty() {
                return Ok(());
            }
            let mut q = sqlx::QueryBuilder::<Db>::new(statement);
            q.push(" WHERE id IN (");
            let mut list = q.separated(", ");
            for id in ids {
                list.push_bind(DbUuid(*id));
            }
            q.push(")");
            q.build().execute(&self.pool).await?;
            Ok(())
        }

        /// The states of every issue of the report, as this transaction sees them.
        pub(in crate::store) async fn issue_statuses(
            tx: &mut Tx<'_>,
            report_id: Uuid,
        ) -> StoreResult<Vec<IssueStatus>> {
            let names: Vec<String> =
                sqlx::query_scalar("SELECT status FROM issues WHERE report_id = $1")
                    .bind(DbUuid(report_id))
                    .fetch_all(&mut **tx)
                    .await?;
            Ok(names
                .iter()
                .map(|n| status(n))
                .collect::<anyhow::Result<Vec<_>>>()?)
        }

        /// Records a change of the report's public status.
        pub(in crate::store) async fn insert_status_event(
            tx: &mut Tx<'_>,
            report_id: Uuid,
            before: Option<IssueStatus>,
            after: Option<IssueStatus>,
            now: Instant,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO report_status_events \
                 (id, report_id, previous_status, status, occurred_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(DbUuid(Uuid::now_v7()))
            .bind(DbUuid(report_id))
            .bind(before.map(IssueStatus::as_str))
            .bind(after.map(IssueStatus::as_str))
            .bind(DbInstant(now))
            .execute(&mut **tx)
            .await?;
            Ok(())
        }
    }

    #[async_trait]
    impl StatusEventStore for Backend {
        async fn claim_status_events(
            &self,
            limit: u32,
            lease_secs: u32,
            now: Instant,
        ) -> StoreResult<Vec<StatusEvent>> {
            // The subquery skips rows another replica has locked (`Backend::SKIP_LOCKED`), and
            // the changes of a report whose earlier change is held under a lease.
            let lease_until = now + chrono::Duration::seconds(i64::from(lease_secs));
            let rows: Vec<StatusEventRecord> = sqlx::query_as(&format!(
                "UPDATE report_status_events SET claimed_until = $2 \
                 WHERE id IN ( \
                   SELECT e.id FROM report_status_events e \
                   WHERE (e.claimed_until IS NULL OR e.claimed_until <= $3) \
                     AND NOT EXISTS ( \
                       SELECT 1 FROM report_status_events held \
                       WHERE held.report_id = e.report_id AND held.claimed_until > $3 \
                         AND (held.occurred_at < e.occurred_at \
                           OR (held.occurred_at = e.occurred_at AND held.id < e.id))) \
                   ORDER BY e.occurred_at, e.id LIMIT $1{}) \
                 RETURNING {STATUS_EVENT_COLUMNS}",
                Backend::SKIP_LOCKED
            ))
            .bind(i64::from(limit))
            .bind(DbInstant(lease_until))
            .bind(DbInstant(now))
            .fetch_all(&self.pool)
            .await?;
            let mut events = rows
                .into_iter()
                .map(StatusEvent::try_from)
                .collect::<anyhow::Result<Vec<_>>>()?;
            // RETURNING does not keep the subquery's order.
            events.sort_by_key(|e| (e.occurred_at, e.id));
            Ok(events)
        }

        async fn remove_status_events(&self, ids: &[Uuid]) -> StoreResult<()> {
            self.for_status_events("DELETE FROM report_status_events", ids)
                .await
        }

        async fn release_status_events(&self, ids: &[Uuid]) -> StoreResult<()> {
            self.for_status_events("UPDATE report_status_events SET claimed_until = NULL", ids)
                .await
        }

        async fn discard_status_events(&self) -> StoreResult<u64> {
            let done = sqlx::query("DELETE FROM report_status_events")
                .execute(&self.pool)
                .await?;
            Ok(done.rows_affected())
        }
    }
}
