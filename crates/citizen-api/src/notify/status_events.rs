//! Public report status changes on MQTT for the city's dashboards and integrations:
//! `citizen/reports/<report_id>/status`, QoS 1, not retained, a small JSON body without personal
//! data. The changes come from `report_status_events` (written in the transaction of the change);
//! [`StatusPublisher::run_once`] publishes them in order and removes each once the broker has
//! acknowledged it. The broker connection is configured by `mqtt.*` exactly as platform-messages
//! does it (service-kit's [`MqttSettings`]).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use paho_mqtt::{AsyncClient, MessageBuilder};
use serde::{Deserialize, Serialize};
use service_kit::clock::Clock;
use service_kit::mqtt::{keep_connected, MqttSettings};

use crate::store::composition::Stores;
use crate::store::status_events::StatusEvent;
use crate::store::Instant;

/// Changes claimed per round.
const BATCH: u32 = 100;

/// `status_events.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusEventSettings {
    /// Publish report status changes on MQTT (`mqtt.*`). When off, recorded changes are
    /// discarded.
    pub enabled: bool,
    /// Run the publishing (or, when off, discarding) loop in this process. Default true; tests
    /// turn it off and call [`StatusPublisher::run_once`] themselves.
    #[serde(default = "yes")]
    pub publisher_enabled: bool,
    /// Pause between two rounds of publishing.
    pub poll_millis: u64,
    /// How long a publisher holds claimed changes; after it, another replica (or this one after
    /// a restart) publishes them again.
    pub lease_secs: u32,
}

fn yes() -> bool {
    true
}

/// The topic of a report's status changes.
pub fn topic(report_id: uuid::Uuid) -> String {
    format!("citizen/reports/{report_id}/status")
}

/// The message body (documented in docs/notifications.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusMessage {
    /// The change's identity: the same when a change is published again after a crash.
    pub event_id: String,
    pub report_id: String,
    /// The report's public status after the change (`open`, `accepted`, `duplicate`,
    /// `resolved`; null when only moved issues remain).
    pub status: Option<String>,
    /// The status before it (null for a report just filed).
    pub previous_status: Option<String>,
    /// When the change was made (RFC 3339).
    pub changed_at: String,
}

impl From<&StatusEvent> for StatusMessage {
    fn from(e: &StatusEvent) -> Self {
        Self {
            event_id: e.id.to_string(),
            report_id: e.report_id.to_string(),
            status: e.status.map(|s| s.as_str().to_owned()),
            previous_status: e.previous.map(|s| s.as_str().to_owned()),
            changed_at: e
                .occurred_at
                .to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
        }
    }
}

/// Publishes recorded changes with a connected paho client.
pub struct StatusPublisher {
    client: AsyncClient,
    stores: Stores,
    lease_secs: u32,
    publish_timeout: Duration,
}

impl StatusPublisher {
    pub fn new(
        client: AsyncClient,
        stores: Stores,
        lease_secs: u32,
        publish_timeout: Duration,
    ) -> Self {
        Self {
            client,
            stores,
            lease_secs,
            publish_timeout,
        }
    }

    /// Publishes every change that is due, oldest first; how many were published. Stops at the
    /// first publish the broker does not acknowledge: that change and the later ones of the
    /// round are given back, to be claimed again, in order, by the next round (held until their
    /// lease ran out, a later change of the same report would go out before them).
    pub async fn run_once(&self, now: Instant) -> anyhow::Result<usize> {
        let mut total = 0;
        loop {
            let events = self
                .stores
                .status_events
                .claim_status_events(BATCH, self.lease_secs, now)
                .await?;
            let mut published = Vec::with_capacity(events.len());
            let mut failure = None;
            for event in &events {
                match self.publish(event).await {
                    Ok(()) => published.push(event.id),
                    Err(err) => {
                        failure = Some(err);
                        break;
                    }
                }
            }
            self.stores
                .status_events
                .remove_status_events(&published)
                .await?;
            total += published.len();
            if let Some(err) = failure {
                let unpublished: Vec<_> = events[published.len()..].iter().map(|e| e.id).collect();
                self.stores
                    .status_events
                    .release_status_events(&unpublished)
                    .await?;
                return Err(err);
            }
            if events.len() < BATCH as usize {
                return Ok(total);
            }
        }
    }

    async fn publish(&self, event: &StatusEvent) -> anyhow::Result<()> {
        let body = serde_json::to_vec(&StatusMessage::from(event))?;
        let token = self
            .client
            .try_publish(
                MessageBuilder::new()
                    .topic(topic(event.report_id))
                    .payload(body)
                    .qos(1)
                    .retained(false)
                    .finalize(),
            )
            .map_err(|err| anyhow::anyhow!("the MQTT client did not take the event: {err}"))?;
        tokio::time::timeout(self.publish_timeout, token)
            .await
            .context("no acknowledgement from the broker in time")?
            .context("the broker did not acknowledge the event")?;
        Ok(())
    }
}

/// Starts publishing on the current runtime: connects to the broker in the background
/// ([`keep_connected`]: retrying, reconnecting; never fails start-up on an unreachable broker)
/// and publishes every `poll_millis` while connected. When `status_events.enabled` is off, recorded changes are discarded on the
/// same timer instead. Nothing runs when `publisher_enabled` is off. Fails only on settings
/// that cannot make a client.
pub fn start(
    settings: &StatusEventSettings,
    mqtt: &MqttSettings,
    stores: Stores,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<Option<tokio::task::JoinHandle<()>>> {
    let pause = Duration::from_millis(settings.poll_millis.max(10));
    if !settings.publisher_enabled {
        return Ok(None);
    }
    if !settings.enabled {
        return Ok(Some(tokio::spawn(async move {
            loop {
                if let Err(err) = stores.status_events.discard_status_events().await {
                    tracing::debug!(error = %err, "cannot discard report status events");
                }
                tokio::time::sleep(pause).await;
            }
        })));
    }
    let (client, options) = mqtt.client()?;
    let (connecting, link) = keep_connected(
        client.clone(),
        options,
        Duration::from_millis(mqtt.retry_millis),
    );
    let publisher = StatusPublisher::new(
        client,
        stores,
        settings.lease_secs,
        Duration::from_millis(mqtt.publish_timeout_millis),
    );
    let publishing = async move {
        loop {
            if link.borrow().up {
                match publisher.run_once(clock.now()).await {
                    Ok(0) => {}
                    Ok(events) => tracing::debug!(events, "report status events published"),
                    Err(err) => tracing::warn!(
                        error = format!("{err:#}"),
                        "report status events not published; will retry"
                    ),
                }
            }
            tokio::time::sleep(pause).await;
        }
    };
    Ok(Some(tokio::spawn(async move {
        tokio::join!(connecting, publishing);
    })))
}
