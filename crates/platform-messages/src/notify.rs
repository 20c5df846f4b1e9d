//! MQTT change notices: `{client_id, version}` retained, QoS 1, on `system/messages/<client_id>`.
//!
//! One publisher task per process takes client ids from a de-duplicating queue, reads the client's
//! state from the database *at publish time*, publishes it, waits for the broker's PUBACK and then
//! reads the state again; when the version moved meanwhile it publishes again. Because of that
//! re-read after the acknowledgement, the last notice the broker retains for a client is the newest
//! state, also with several replicas publishing at once (argument in docs/platform-messages.md).
//!
//! Writers only enqueue: a broker that is down never fails an operator's write. A failed publish
//! stays queued and is retried; every (re)connect queues every client again, which repairs a
//! broker that restarted without persistence.
//!
//! The client is paho-mqtt's `AsyncClient` (the Eclipse Paho C library): its delivery token is a
//! future that completes on the PUBACK; service-kit's `keep_connected` connects and reconnects
//! it, and `connection::track` follows the connection.

pub mod broker;
mod connection;
mod publisher;

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use paho_mqtt::AsyncClient;
use prometheus::{IntCounterVec, IntGauge, Opts};
use serde::{Deserialize, Serialize};
use service_kit::health::ReadinessCheck;
use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

use crate::clock::Clock;
use crate::store::MessageStore;

pub use broker::EmbeddedBroker;
pub use service_kit::mqtt::MqttSettings;

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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Handle on the publisher: enqueue clients, read the broker state.
#[derive(Clone)]
pub struct Notifier {
    shared: Arc<Shared>,
    /// Stops the reconnecting (`shutdown`).
    connecting: tokio::task::AbortHandle,
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
        let (client, options) = settings.client()?;
        let (connecting, link) = service_kit::mqtt::keep_connected(
            client.clone(),
            options,
            Duration::from_millis(settings.retry_millis),
        );
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
            settings: settings.clone(),
        });
        let connecting = tokio::spawn(connecting);
        let connecting_abort = connecting.abort_handle();
        let tasks = vec![
            connecting,
            tokio::spawn(connection::track(shared.clone(), link)),
            tokio::spawn(publisher::publish_loop(shared.clone())),
        ];
        Ok(Self {
            shared,
            connecting: connecting_abort,
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

    /// Closes the broker connection (no reconnect after it) and stops the publisher.
    pub async fn shutdown(&self) {
        self.connecting.abort();
        if self.shared.client.is_connected() {
            let disconnect = self.shared.client.disconnect(None);
            let _ = tokio::time::timeout(Duration::from_secs(2), disconnect).await;
        }
        set_connected(&self.shared, false);
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
