//! MQTT change notices: `{client_id, version}` retained, QoS 1, on `system/messages/<client_id>`.
//!
//! One publisher task per process takes client ids from a de-duplicating queue, reads the client's
//! state from the database *at publish time*, publishes it, waits for the broker's PUBACK and then
//! reads the state again; when the version moved meanwhile it publishes again. Because of that
//! re-read after the acknowledgement, the last notice the broker retains for a client is the newest
//! state, also with several replicas publishing at once (argument in docs/platform-messages.md).
//!
//! Writers only enqueue: a broker that is down never fails an operator's write. A failed publish
//! stays queued and is retried; every (re)connect (`ConnAck`) queues every client again, which
//! repairs a broker that restarted without persistence.

mod broker;
mod settings;

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use async_trait::async_trait;
use prometheus::{IntCounterVec, IntGauge, Opts};
use rumqttc::{AsyncClient, ConnectReturnCode, Event, EventLoop, Outgoing, Packet, QoS};
use serde::{Deserialize, Serialize};
use service_kit::health::ReadinessCheck;
use tokio::sync::{oneshot, watch, Notify};
use tokio::task::JoinHandle;

use crate::clock::Clock;
use crate::store::MessageStore;

pub use broker::EmbeddedBroker;
pub use settings::MqttSettings;

/// The topic of a client's change notices.
pub fn topic(client_id: &str) -> String {
    format!("system/messages/{client_id}")
}

/// The payload of a change notice; never the message text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    pub client_id: String,
    pub version: String,
}

/// Process-wide metrics of the publisher (registered once in the service's registry).
pub struct NotifierMetrics {
    pub connected: IntGauge,
    pub publishes: IntCounterVec,
}

static METRICS: LazyLock<Option<NotifierMetrics>> = LazyLock::new(|| {
    let connected = IntGauge::new(
        "platform_messages_mqtt_connected",
        "1 while the MQTT broker connection is up, else 0",
    )
    .ok()?;
    let publishes = IntCounterVec::new(
        Opts::new(
            "platform_messages_mqtt_publishes_total",
            "Change notices by outcome",
        ),
        &["outcome"],
    )
    .ok()?;
    Some(NotifierMetrics {
        connected,
        publishes,
    })
});

/// The publisher's metrics, to register with the service's metrics registry.
pub fn metrics() -> Option<&'static NotifierMetrics> {
    METRICS.as_ref()
}

fn count(outcome: &str) {
    if let Some(m) = metrics() {
        m.publishes.with_label_values(&[outcome]).inc();
    }
}

/// Clients waiting for a notice, each at most once, oldest first.
#[derive(Default)]
struct Queue {
    order: VecDeque<String>,
    queued: HashSet<String>,
    republish_all: bool,
}

struct Shared {
    store: Arc<dyn MessageStore>,
    clock: Arc<dyn Clock>,
    client: AsyncClient,
    queue: Mutex<Queue>,
    wake: Notify,
    connected: watch::Sender<bool>,
    /// True while nothing is queued or being published.
    idle: watch::Sender<bool>,
    /// The PUBACK the publisher waits for: the packet id once known, and who to tell.
    awaiting: Mutex<Awaiting>,
    settings: MqttSettings,
}

impl Shared {
    /// Marks every client for a notice (the list is read from the database by the publisher).
    fn request_republish_all(&self) {
        let mut queue = lock(&self.queue);
        self.idle.send_replace(false);
        queue.republish_all = true;
    }

    /// The next client to publish; marks the publisher idle when there is none.
    fn next_client(&self) -> Option<String> {
        let mut queue = lock(&self.queue);
        let next = queue.order.pop_front();
        match &next {
            Some(client_id) => {
                queue.queued.remove(client_id);
            }
            None if !queue.republish_all => {
                self.idle.send_replace(true);
            }
            None => {}
        }
        next
    }

    /// Queues `client_id` unless it is already waiting; `front` for a retry.
    fn enqueue(&self, client_id: String, front: bool) {
        let mut queue = lock(&self.queue);
        self.idle.send_replace(false);
        if queue.queued.insert(client_id.clone()) {
            if front {
                queue.order.push_front(client_id);
            } else {
                queue.order.push_back(client_id);
            }
        }
    }
}

#[derive(Default)]
struct Awaiting {
    pkid: Option<u16>,
    done: Option<oneshot::Sender<()>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Handle on the publisher: enqueue clients, read the broker state.
#[derive(Clone)]
pub struct Notifier {
    shared: Arc<Shared>,
    /// Aborted when the last handle is dropped.
    _tasks: Arc<Tasks>,
}

struct Tasks(Vec<JoinHandle<()>>);

impl Drop for Tasks {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

impl Notifier {
    /// Connects to the broker (in the background; never fails on an unreachable broker) and
    /// starts the publisher. Every client is queued once the connection is up.
    pub fn start(
        settings: &MqttSettings,
        store: Arc<dyn MessageStore>,
        clock: Arc<dyn Clock>,
    ) -> anyhow::Result<Self> {
        let options = settings.mqtt_options()?;
        let (client, eventloop) = AsyncClient::new(options, 64);
        let (connected, _) = watch::channel(false);
        let (idle, _) = watch::channel(true);
        let shared = Arc::new(Shared {
            store,
            clock,
            client,
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
            connected,
            idle,
            awaiting: Mutex::new(Awaiting::default()),
            settings: settings.clone(),
        });
        let tasks = vec![
            tokio::spawn(drive_connection(shared.clone(), eventloop)),
            tokio::spawn(publish_loop(shared.clone())),
        ];
        Ok(Self {
            shared,
            _tasks: Arc::new(Tasks(tasks)),
        })
    }

    /// Queues a notice for `client_id` (after a write or a window start/end). Never blocks.
    pub fn changed(&self, client_id: &str) {
        self.shared.enqueue(client_id.to_owned(), false);
        self.shared.wake.notify_one();
    }

    /// Queues a notice for every client (what a reconnect does).
    pub fn republish_all(&self) {
        self.shared.request_republish_all();
        self.shared.wake.notify_one();
    }

    /// Whether the broker connection is up.
    pub fn is_connected(&self) -> bool {
        *self.shared.connected.borrow()
    }

    /// Waits until the broker connection is up.
    pub async fn wait_connected(&self) {
        let mut rx = self.shared.connected.subscribe();
        let _ = rx.wait_for(|up| *up).await;
    }

    /// Waits until every queued notice has been published and acknowledged (tests, benchmarks).
    pub async fn wait_idle(&self) {
        let mut rx = self.shared.idle.subscribe();
        let _ = rx.wait_for(|idle| *idle).await;
    }

    /// Closes the broker connection and stops the publisher.
    pub async fn shutdown(&self) {
        let _ = self.shared.client.disconnect().await;
    }
}

#[async_trait]
impl ReadinessCheck for Notifier {
    fn name(&self) -> &'static str {
        "mqtt"
    }

    async fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(self.is_connected(), "the MQTT broker connection is down");
        Ok(())
    }
}

fn set_connected(shared: &Shared, up: bool) {
    shared.connected.send_replace(up);
    if let Some(m) = metrics() {
        m.connected.set(i64::from(up));
    }
}

/// Polls the rumqttc event loop forever: tracks the connection, matches PUBACKs, and queues every
/// client after each `ConnAck`.
async fn drive_connection(shared: Arc<Shared>, mut eventloop: EventLoop) {
    let retry = Duration::from_millis(shared.settings.retry_millis);
    loop {
        match eventloop.poll().await {
            Ok(Event::Incoming(Packet::ConnAck(ack))) => {
                if ack.code == ConnectReturnCode::Success {
                    tracing::info!("connected to the MQTT broker; republishing every client");
                    set_connected(&shared, true);
                    shared.request_republish_all();
                    shared.wake.notify_one();
                } else {
                    tracing::warn!(code = ?ack.code, "the MQTT broker refused the connection");
                }
            }
            Ok(Event::Outgoing(Outgoing::Publish(pkid))) => {
                lock(&shared.awaiting).pkid = Some(pkid);
            }
            Ok(Event::Incoming(Packet::PubAck(ack))) => {
                let mut awaiting = lock(&shared.awaiting);
                if awaiting.pkid == Some(ack.pkid) {
                    if let Some(done) = awaiting.done.take() {
                        let _ = done.send(());
                    }
                    awaiting.pkid = None;
                }
            }
            Ok(Event::Outgoing(Outgoing::Disconnect)) => {
                set_connected(&shared, false);
                return;
            }
            Ok(_) => {}
            Err(err) => {
                if *shared.connected.borrow() {
                    tracing::warn!(error = %err, "lost the MQTT broker connection");
                } else {
                    tracing::debug!(error = %err, "cannot reach the MQTT broker");
                }
                set_connected(&shared, false);
                // Notices not yet acknowledged carry states read before the connection dropped:
                // drop them instead of letting rumqttc resend them, the republish after the next
                // ConnAck sends every client's current state.
                eventloop.pending.clear();
                *lock(&shared.awaiting) = Awaiting::default();
                tokio::time::sleep(retry).await;
            }
        }
    }
}

/// Takes queued clients one at a time and publishes their current state.
async fn publish_loop(shared: Arc<Shared>) {
    let retry = Duration::from_millis(shared.settings.retry_millis);
    let mut connected = shared.connected.subscribe();
    loop {
        if connected.wait_for(|up| *up).await.is_err() {
            return;
        }
        let republish_all = std::mem::take(&mut lock(&shared.queue).republish_all);
        if republish_all {
            match shared.store.all_client_ids().await {
                Ok(ids) => {
                    for id in ids {
                        shared.enqueue(id, false);
                    }
                }
                Err(err) => {
                    tracing::warn!(
                        error = format!("{err:#}"),
                        "cannot list clients to republish; retrying"
                    );
                    shared.request_republish_all();
                    tokio::time::sleep(retry).await;
                    continue;
                }
            }
        }
        let Some(client_id) = shared.next_client() else {
            shared.wake.notified().await;
            continue;
        };
        if let Err(err) = publish_current(&shared, &client_id).await {
            count("failed");
            tracing::warn!(
                client_id,
                error = format!("{err:#}"),
                "change notice not delivered; will retry"
            );
            shared.enqueue(client_id, true);
            tokio::time::sleep(retry).await;
        }
    }
}

/// Publishes the client's state until the state read after the broker's acknowledgement is the
/// one that was published.
async fn publish_current(shared: &Shared, client_id: &str) -> anyhow::Result<()> {
    let mut version = shared
        .store
        .client_state(client_id)
        .await?
        .version_at(shared.clock.now());
    loop {
        publish_acked(shared, client_id, &version.to_string()).await?;
        count("published");
        let now_version = shared
            .store
            .client_state(client_id)
            .await?
            .version_at(shared.clock.now());
        if now_version == version {
            return Ok(());
        }
        version = now_version;
    }
}

/// One retained QoS 1 publish, waiting for its PUBACK.
async fn publish_acked(shared: &Shared, client_id: &str, version: &str) -> anyhow::Result<()> {
    let payload = serde_json::to_vec(&Notice {
        client_id: client_id.to_owned(),
        version: version.to_owned(),
    })?;
    let (done, acked) = oneshot::channel();
    *lock(&shared.awaiting) = Awaiting {
        pkid: None,
        done: Some(done),
    };
    shared
        .client
        .publish(topic(client_id), QoS::AtLeastOnce, true, payload)
        .await
        .context("the MQTT client is closed")?;
    let timeout = Duration::from_millis(shared.settings.publish_timeout_millis);
    match tokio::time::timeout(timeout, acked).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => anyhow::bail!("the broker connection dropped before the acknowledgement"),
        Err(_) => anyhow::bail!("no acknowledgement from the broker within {timeout:?}"),
    }
}
