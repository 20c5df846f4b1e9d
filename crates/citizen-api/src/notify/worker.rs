//! The outbox worker: turns pending events into feed entries, driven by `run_once` (the tests
//! call it with the injected clock's instant; the service's loop calls it on a timer).

use domain::i18n::Message;
use i18n::Locale;

use crate::app::notifications::Links;
use crate::store::composition::Stores;
use crate::store::notifications::{EventKind, OutboxEvent, Texts};
use crate::store::{Instant, StoreResult};

/// Events taken per transaction.
pub const BATCH: u32 = 100;

/// Drains the outbox of one database.
#[derive(Clone)]
pub struct Worker {
    stores: Stores,
    default_locale: Locale,
    links: Links,
}

impl Worker {
    /// `links`: where the entries lead (the web app's pages, [`Links`]).
    pub fn new(stores: Stores, default_locale: Locale, links: Links) -> Self {
        Self {
            stores,
            default_locale,
            links,
        }
    }

    /// Processes pending events until none is left; how many were processed.
    pub async fn run_once(&self, now: Instant) -> StoreResult<usize> {
        let default = self.default_locale;
        let render = move |event: &OutboxEvent, locale: Option<&str>| {
            texts(
                event,
                locale.map_or(default, |l| i18n::negotiate(Some(l), default)),
            )
        };
        let mut total = 0;
        loop {
            let done = crate::app::notifications::drain_outbox(
                self.stores.notifications.as_ref(),
                BATCH,
                &render,
                &self.links,
                now,
            )
            .await?;
            total += done;
            if done < BATCH as usize {
                return Ok(total);
            }
        }
    }
}

/// Starts the worker's loop on the current runtime when `notifications.worker.enabled` (it ends
/// with the runtime). A failed drain is logged and retried after the pause.
pub fn start(
    settings: &super::WorkerSettings,
    stores: Stores,
    default_locale: Locale,
    links: Links,
    clock: std::sync::Arc<dyn service_kit::clock::Clock>,
) -> Option<tokio::task::JoinHandle<()>> {
    if !settings.enabled {
        return None;
    }
    let worker = Worker::new(stores, default_locale, links);
    let pause = std::time::Duration::from_millis(settings.poll_millis.max(10));
    Some(tokio::spawn(async move {
        loop {
            match worker.run_once(clock.now()).await {
                Ok(0) => {}
                Ok(events) => tracing::debug!(events, "notification outbox drained"),
                Err(err) => tracing::warn!(error = %err, "notification outbox drain failed"),
            }
            tokio::time::sleep(pause).await;
        }
    }))
}

/// The feed entry's title and body of `event` in `locale`.
pub fn texts(event: &OutboxEvent, locale: Locale) -> Texts {
    let (title, body) = match &event.kind {
        EventKind::ReportStatus { status, .. } => (
            Message::new("notification-report-status-title"),
            Message::new("notification-report-status-body")
                .arg("title", &event.title)
                .arg("status", status),
        ),
        EventKind::Statement { .. } => (
            Message::new("notification-statement-title"),
            Message::new("notification-statement-body").arg("title", &event.title),
        ),
        EventKind::News { .. } => (
            Message::new("notification-news-title"),
            Message::new("notification-news-body").arg("title", &event.title),
        ),
    };
    (
        i18n::render(locale, &title),
        Some(i18n::render(locale, &body)),
    )
}
