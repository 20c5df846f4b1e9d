//! The notification outbox: what both backends write and read the same way (the event in the
//! change's transaction; who is told). Draining it is each backend's (`outbox.rs`): PostgreSQL
//! claims rows with `FOR UPDATE SKIP LOCKED`, SQLite under its write lock with a lease.

use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::notifications::EventKind;
use crate::store::{Instant, StoreResult};

both_backends! {
    impl Backend {
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
