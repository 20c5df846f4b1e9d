//! The publisher task: one client at a time, its state read at publish time, published retained
//! with QoS 1, the PUBACK awaited (paho's delivery token), the state read again.

use std::sync::Arc;
use std::time::Duration;

use paho_mqtt::Message;

use super::{count, lock, topic, Notice, Shared};

/// Takes queued clients one at a time and publishes their current state.
pub(super) async fn publish_loop(shared: Arc<Shared>) {
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

/// One retained QoS 1 publish, waiting for its PUBACK; fails at once when the connection drops
/// meanwhile (the republish after the reconnect sends a fresh state).
async fn publish_acked(shared: &Shared, client_id: &str, version: &str) -> anyhow::Result<()> {
    let payload = serde_json::to_vec(&Notice {
        client_id: client_id.to_owned(),
        version: version.to_owned(),
    })?;
    let mut connected = shared.connected.subscribe();
    let token = shared
        .client
        .try_publish(Message::new_retained(topic(client_id), payload, 1))
        .map_err(|err| anyhow::anyhow!("the MQTT client did not take the notice: {err}"))?;
    let timeout = Duration::from_millis(shared.settings.publish_timeout_millis);
    tokio::select! {
        acked = token => acked.map_err(|err| anyhow::anyhow!("the broker did not acknowledge: {err}")),
        _ = connected.wait_for(|up| !*up) => {
            anyhow::bail!("the broker connection dropped before the acknowledgement")
        }
        () = tokio::time::sleep(timeout) => {
            anyhow::bail!("no acknowledgement from the broker within {timeout:?}")
        }
    }
}
