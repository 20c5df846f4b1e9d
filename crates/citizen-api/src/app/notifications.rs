//! Turning outbox events into feed entries: each pending event tells its recipients (a
//! report's author and voters, a news item's subscribers) once, in their stored locale; an event
//! whose report or news item was deleted since tells nobody. One batch is one transaction of the
//! store in which the claimed events are the worker's alone, so replicas never tell twice, and
//! which no erasure runs beside (`NotificationStore::begin_drain`): a subject erased meanwhile
//! is either not read as a recipient or erased with the entries written to it.

use crate::store::notifications::{NewNotification, NotificationStore, OutboxEvent, Render};
use crate::store::{Instant, StoreResult};

/// Processes up to `limit` pending events; how many were processed.
pub async fn drain_outbox(
    notifications: &dyn NotificationStore,
    limit: u32,
    render: Render<'_>,
    now: Instant,
) -> StoreResult<usize> {
    let mut tx = notifications.begin_drain().await?;
    let events = tx.claim_events(limit).await?;
    for pending in &events {
        if let Some((kind, title)) = pending.kind.clone().zip(pending.title.clone()) {
            let recipients = tx.recipients(&kind).await?;
            let event = OutboxEvent {
                id: pending.id,
                kind,
                title,
                occurred_at: pending.occurred_at,
            };
            for (subject, locale) in recipients {
                let (title, body) = render(&event, locale.as_deref());
                let entry = NewNotification {
                    subject,
                    event_id: Some(event.id),
                    title,
                    body,
                    url: None,
                    icon: None,
                    sent_at: event.occurred_at,
                };
                tx.insert_entry(&entry, now).await?;
            }
        }
        tx.mark_processed(pending.id, now).await?;
    }
    tx.commit().await?;
    Ok(events.len())
}
