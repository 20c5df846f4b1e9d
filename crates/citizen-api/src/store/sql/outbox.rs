//! The notification outbox on both backends: the event in the change's transaction, and the
//! primitives `app::notifications::drain_outbox` runs in one transaction. A drain claims rows
//! with `Backend::SKIP_LOCKED` (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite: the drain's
//! `BEGIN IMMEDIATE` holds the write lock, which is the claim).

use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid, Writing};
use crate::store::notifications::{EventKind, NewNotification, OutboxTx, PendingEvent};
use crate::store::{Instant, StoreResult};

/// An outbox row as a drain claims it, with its report's or news item's title.
#[derive(sqlx::FromRow)]
struct OutboxRecord {
    id: DbUuid,
    kind: String,
    report_id: Option<DbUuid>,
    news_id: Option<DbUuid>,
    status: Option<String>,
    occurred_at: DbInstant,
    title: Option<String>,
}

impl From<OutboxRecord> for PendingEvent {
    fn from(row: OutboxRecord) -> Self {
        PendingEvent {
            id: row.id.0,
            kind: EventKind::from_columns(
                &row.kind,
                row.report_id.map(|r| r.0),
                row.news_id.map(|n| n.0),
                row.status,
            ),
            title: row.title,
            occurred_at: row.occurred_at.0,
        }
    }
}

/// The outbox columns a drain reads (`notification_outbox o`, its report `r` or news item `n`).
const OUTBOX_COLUMNS: &str = "o.id, o.kind, o.report_id, o.news_id, o.status, o.occurred_at, \
     coalesce(r.title, n.title) AS title";

both_backends! {
    #[async_trait]
    impl OutboxTx for Writing<Db> {
        async fn claim_events(&mut self, limit: u32) -> StoreResult<Vec<PendingEvent>> {
            // The subquery takes the pending rows no other drain holds; the joins only read.
            let rows: Vec<OutboxRecord> = sqlx::query_as(&format!(
                "SELECT {OUTBOX_COLUMNS} \
                 FROM notification_outbox o LEFT JOIN reports r ON r.id = o.report_id \
                 LEFT JOIN news_items n ON n.id = o.news_id \
                 WHERE o.id IN (SELECT id FROM notification_outbox WHERE processed_at IS NULL \
                   ORDER BY occurred_at, id LIMIT $1{}) \
                 ORDER BY o.occurred_at, o.id",
                Backend::SKIP_LOCKED
            ))
            .bind(i64::from(limit))
            .fetch_all(&mut *self.0)
            .await?;
            Ok(rows.into_iter().map(PendingEvent::from).collect())
        }

        async fn recipients(
            &mut self,
            kind: &EventKind,
        ) -> StoreResult<Vec<(String, Option<String>)>> {
            Backend::recipients(&mut self.0, kind).await
        }

        async fn insert_entry(&mut self, new: &NewNotification, now: Instant) -> StoreResult<()> {
            // Only a new entry is delivered.
            if Backend::insert_notification(&mut *self.0, new, now)
                .await?
                .is_some()
            {
                Backend::add_deliveries(&mut self.0, &new.tag(), &new.subject, now).await?;
            }
            Ok(())
        }

        async fn mark_processed(&mut self, event_id: Uuid, now: Instant) -> StoreResult<()> {
            sqlx::query(
                "UPDATE notification_outbox SET processed_at = $2, attempts = attempts + 1 \
                 WHERE id = $1",
            )
            .bind(DbUuid(event_id))
            .bind(DbInstant(now))
            .execute(&mut *self.0)
            .await?;
            Ok(())
        }
    }

    impl Backend {
        /// Starts a drain of the outbox: a fan-out writer's transaction (`begin_fan_out`), so
        /// no erasure commits between its read of the recipients and its commit.
        pub(in crate::store) async fn drain_tx(&self) -> StoreResult<Box<dyn OutboxTx>> {
            Ok(Box::new(Writing(self.begin_fan_out().await?)))
        }

        /// Records `event` in the outbox (call it in the transaction of the change, before
        /// commit).
        pub(in crate::store) async fn record_event(
            tx: &mut Tx<'_>,
            event: EventKind,
            now: Instant,
        ) -> StoreResult<()> {
            let (kind, report_id, news_id, status) = event.columns();
            sqlx::query(
                "INSERT INTO notification_outbox \
                 (id, kind, report_id, news_id, status, occurred_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(DbUuid(Uuid::now_v7()))
            .bind(kind)
            .bind(report_id.map(DbUuid))
            .bind(news_id.map(DbUuid))
            .bind(status)
            .bind(DbInstant(now))
            .execute(&mut **tx)
            .await?;
            Ok(())
        }

        /// Who is told about `kind`, with their stored locale: a report's author and the
        /// accounts with an unrevoked vote token on it; a news item's subscribers (of any of its
        /// categories or of an ancestor of one, as the news list's category filter includes
        /// children).
        pub(in crate::store) async fn recipients(
            tx: &mut Tx<'_>,
            kind: &EventKind,
        ) -> StoreResult<Vec<(String, Option<String>)>> {
            let (sql, id) = match kind {
                EventKind::ReportStatus { report_id, .. } | EventKind::Statement { report_id } => (
                    "SELECT s.subject, ns.locale FROM ( \
                       SELECT author AS subject FROM reports WHERE id = $1 AND author IS NOT NULL \
                       UNION SELECT subject FROM vote_tokens \
                       WHERE target_id = $1 AND revoked_at IS NULL) s \
                     LEFT JOIN notification_settings ns ON ns.subject = s.subject \
                     ORDER BY s.subject",
                    *report_id,
                ),
                EventKind::News { news_id } => (
                    "WITH RECURSIVE cats (id) AS ( \
                       SELECT category_id FROM news_item_categories WHERE news_id = $1 \
                       UNION SELECT c.parent_id FROM news_categories c JOIN cats ON c.id = cats.id \
                       WHERE c.parent_id IS NOT NULL) \
                     SELECT s.subject, ns.locale FROM ( \
                       SELECT DISTINCT subject FROM news_subscriptions \
                       WHERE category_id IN (SELECT id FROM cats)) s \
                     LEFT JOIN notification_settings ns ON ns.subject = s.subject \
                     ORDER BY s.subject",
                    *news_id,
                ),
            };
            Ok(sqlx::query_as(sql)
                .bind(DbUuid(id))
                .fetch_all(&mut **tx)
                .await?)
        }
    }
}
