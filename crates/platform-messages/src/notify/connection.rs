//! The broker connection: the first connect (retried until it succeeds), then paho's automatic
//! reconnect. paho calls its connected and connection-lost callbacks on a thread of the C
//! library; they only send an event into a channel, and a tokio task tracks the state from there
//! and queues every client on each connect (the republish-all).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use paho_mqtt::{AsyncClient, ConnectOptions};
use tokio::sync::mpsc;

use super::{set_connected, Shared};

/// What the C library reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ConnectionEvent {
    /// A connection is up: the first one or any automatic reconnect.
    Connected,
    /// The connection dropped; paho is reconnecting by itself.
    Lost,
}

/// Installs the callbacks (before the first connect, so none is missed) and returns their channel.
pub(super) fn forward_callbacks(client: &AsyncClient) -> mpsc::UnboundedReceiver<ConnectionEvent> {
    let (tx, rx) = mpsc::unbounded_channel();
    let on_connected = tx.clone();
    client.set_connected_callback(move |_| {
        let _ = on_connected.send(ConnectionEvent::Connected);
    });
    client.set_connection_lost_callback(move |_| {
        let _ = tx.send(ConnectionEvent::Lost);
    });
    rx
}

/// Tracks the connection from the callbacks' events; every connect queues every client.
pub(super) async fn track(
    shared: Arc<Shared>,
    mut events: mpsc::UnboundedReceiver<ConnectionEvent>,
) {
    while let Some(event) = events.recv().await {
        match event {
            ConnectionEvent::Connected => {
                tracing::info!("connected to the MQTT broker; republishing every client");
                set_connected(&shared, true);
                shared.request_republish_all();
                shared.wake.notify_one();
            }
            ConnectionEvent::Lost => {
                tracing::warn!("lost the MQTT broker connection; reconnecting");
                set_connected(&shared, false);
            }
        }
    }
}

/// The first connect, retried every `retry_millis` until the broker accepts it (paho's automatic
/// reconnect only takes over once a connection has been made). Never fails the service's start.
pub(super) async fn connect(shared: Arc<Shared>, options: ConnectOptions) {
    let retry = Duration::from_millis(shared.settings.retry_millis);
    let mut attempts = 0u64;
    while !shared.stopping.load(Ordering::SeqCst) {
        match shared.client.connect(options.clone()).await {
            Ok(_) => return,
            Err(err) => {
                attempts += 1;
                if attempts == 1 {
                    tracing::warn!(error = %err, "cannot reach the MQTT broker; retrying");
                } else {
                    tracing::debug!(error = %err, attempts, "cannot reach the MQTT broker");
                }
                tokio::time::sleep(retry).await;
            }
        }
    }
}
