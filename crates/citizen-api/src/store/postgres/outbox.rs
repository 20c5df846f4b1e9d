//! The notification outbox (PostgreSQL): events written in the workflow's transaction, drained
//! with `FOR UPDATE SKIP LOCKED` so several replicas never take the same row.

use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use super::PgStore;
use crate::store::notifications::{EventKind, NewNotification, OutboxEvent, Render};
use crate::store::{Instant, StoreResult};

impl PgStore {
    pub(in crate::store) async fn drain(
        &self,
        limit: u32,
        render: Render<'_>,
        now: Instant,
    ) -> StoreResult<usize> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "SELECT o.id, o.kind, o.report_id, o.news_id, o.status, o.occurred_at, \
             coalesce(r.title, n.title) AS title \
             FROM notification_outbox o LEFT JOIN reports r ON r.id = o.report_id \
             LEFT JOIN news_items n ON n.id = o.news_id \
             WHERE o.processed_at IS NULL \
             ORDER BY o.occurred_at, o.id LIMIT $1 FOR UPDATE OF o SKIP LOCKED",
        )
        .bind(i64::from(limit))
        .fetch_all(&mut *tx)
        .await?;
        let mut done = 0;
        for row in &rows {
            let id: Uuid = row.try_get("id")?;
            let kind: String = row.try_get("kind")?;
            let title: Option<String> = row.try_get("title")?;
            let kind = EventKind::from_columns(
                &kind,
                row.try_get("report_id")?,
                row.try_get("news_id")?,
                row.try_get("status")?,
            );
            // A report or news item deleted since: nobody is told.
            if let Some((kind, title)) = kind.zip(title) {
                let recipients = Self::recipients(&mut tx, &kind).await?;
                let event = OutboxEvent {
                    id,
                    kind,
                    title,
                    occurred_at: row.try_get("occurred_at")?,
                };
                for (subject, locale) in recipients {
                    let (title, body) = render(&event, locale.as_deref());
                    let new = NewNotification {
                        subject,
                        event_id: Some(event.id),
                        title,
                        body,
                        url: None,
                        icon: None,
                        sent_at: event.occurred_at,
                    };
                    insert_entry(&mut tx, &new, now).await?;
                }
            }
            sqlx::query("UPDATE notification_outbox SET processed_at = $2, attempts = attempts + 1 WHERE id = $1")
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            done += 1;
        }
        tx.commit().await?;
        Ok(done)
    }
}

/// A feed entry inside the drain's transaction (none when the event already has one for the
/// recipient).
async fn insert_entry(
    tx: &mut Transaction<'_, Postgres>,
    new: &NewNotification,
    now: Instant,
) -> StoreResult<()> {
    let tag = new.tag();
    let inserted = sqlx::query(
        "INSERT INTO notifications \
           (tag, subject, event_id, title, body, url, icon, sent_at, inserted_at) \
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, GREATEST($9, ( \
           SELECT max(inserted_at) + interval '1 microsecond' FROM notifications \
           WHERE subject = $2)) \
         ON CONFLICT (event_id, subject) DO NOTHING",
    )
    .bind(&tag)
    .bind(&new.subject)
    .bind(new.event_id)
    .bind(&new.title)
    .bind(&new.body)
    .bind(&new.url)
    .bind(&new.icon)
    .bind(new.sent_at)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    // Only a new entry is delivered (a repeat of the drain adds nothing).
    if inserted == 1 {
        super::PgStore::add_deliveries(tx, &tag, &new.subject, now).await?;
    }
    Ok(())
}
