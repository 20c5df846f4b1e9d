//! Turning outbox events into feed entries: each pending event tells its recipients (a
//! report's author and voters, a news item's subscribers) once, in their stored locale; an event
//! whose report or news item was deleted since tells nobody. One batch is one transaction of the
//! store in which the claimed events are the worker's alone, so replicas never tell twice, and
//! which no erasure runs beside (`NotificationStore::begin_drain`): a subject erased meanwhile
//! is either not read as a recipient or erased with the entries written to it.

use crate::store::notifications::{
    EventKind, NewNotification, NotificationStore, OutboxEvent, Render,
};
use crate::store::{Instant, StoreResult};

/// Where a feed entry leads (its `url`, so its web push and e-mail too): the web app's page of
/// its report (`<site>/reports/<id>`) or news item (`<site>/news/<id>`). Without a site (the web
/// app off, or no `http.public_url`) entries carry no link.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links {
    site: Option<String>,
}

impl Links {
    /// Links to the pages under `site` (`https://city.example`, no trailing slash needed).
    pub fn to_site(site: impl Into<String>) -> Self {
        let site = site.into().trim_end_matches('/').to_owned();
        Self {
            site: (!site.is_empty()).then_some(site),
        }
    }

    /// No links.
    pub fn none() -> Self {
        Self::default()
    }

    /// The page of `kind`'s subject.
    pub fn of(&self, kind: &EventKind) -> Option<String> {
        let site = self.site.as_deref()?;
        Some(match kind {
            EventKind::ReportStatus { report_id, .. } | EventKind::Statement { report_id } => {
                format!("{site}/reports/{report_id}")
            }
            EventKind::News { news_id } => format!("{site}/news/{news_id}"),
        })
    }
}

/// Processes up to `limit` pending events; how many were processed.
pub async fn drain_outbox(
    notifications: &dyn NotificationStore,
    limit: u32,
    render: Render<'_>,
    links: &Links,
    now: Instant,
) -> StoreResult<usize> {
    let mut tx = notifications.begin_drain().await?;
    let events = tx.claim_events(limit).await?;
    for pending in &events {
        if let Some((kind, title)) = pending.kind.clone().zip(pending.title.clone()) {
            let recipients = tx.recipients(&kind).await?;
            let url = links.of(&kind);
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
                    url: url.clone(),
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

#[cfg(test)]
mod tests {
    use super::{EventKind, Links};
    use uuid::Uuid;

    #[test]
    fn an_entry_links_to_its_report_or_news_page_under_the_site() {
        let id = Uuid::from_u128(7);
        let report = EventKind::Statement { report_id: id };
        let status = EventKind::ReportStatus {
            report_id: id,
            status: "accepted".into(),
        };
        let news = EventKind::News { news_id: id };
        let page = "00000000-0000-0000-0000-000000000007";
        for site in ["https://city.example", "https://city.example/"] {
            let links = Links::to_site(site);
            assert_eq!(
                links.of(&report).as_deref(),
                Some(format!("https://city.example/reports/{page}").as_str())
            );
            assert_eq!(links.of(&status), links.of(&report));
            assert_eq!(
                links.of(&news).as_deref(),
                Some(format!("https://city.example/news/{page}").as_str())
            );
        }
        for links in [Links::none(), Links::to_site(""), Links::to_site("/")] {
            assert_eq!(links.of(&report), None);
            assert_eq!(links.of(&news), None);
        }
    }
}
