//! The brokers the notices go through, and MQTT clients that watch them.

use paho_mqtt::{AsyncClient, Message};
use platform_messages::notify::{topic, Notice};

use crate::helpers::{Broker, WAIT};

impl Broker {
    /// The test environment's Mosquitto, or `None` (recorded skip) when unreachable.
    pub async fn mosquitto() -> Option<Self> {
        if test_support::mqtt_broker().await {
            let (host, port) = test_support::mqtt_address();
            Some(Broker::External { host, port })
        } else {
            None
        }
    }

    /// A fresh embedded broker on a free port.
    pub fn embedded() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Broker::Embedded { port }
    }
}

/// A connected paho client (MQTT 3.1.1, clean session, nothing persisted).
pub async fn connect_client(broker: &Broker, prefix: &str) -> AsyncClient {
    let (host, port) = broker.address();
    let client = test_support::mqtt::client(&format!("tcp://{host}:{port}"), prefix);
    let options = test_support::mqtt::options().clean_session(true).finalize();
    tokio::time::timeout(WAIT, client.connect(options))
        .await
        .expect("connected in time")
        .expect("broker reachable");
    client
}

/// Publishes and waits for the broker's acknowledgement (QoS 1).
pub async fn publish_acked(client: &AsyncClient, message: Message) {
    tokio::time::timeout(WAIT, client.publish(message))
        .await
        .expect("puback in time")
        .expect("published");
}

/// An MQTT subscriber on one client's topic.
pub struct Subscriber {
    pub client: AsyncClient,
    rx: paho_mqtt::AsyncReceiver<Option<Message>>,
}

impl Subscriber {
    /// Connects and subscribes to `system/messages/<client_id>`; returns once subscribed.
    pub async fn connect(broker: &Broker, client_id: &str) -> Self {
        let mut client = connect_client(broker, "sub").await;
        // The stream before the subscription: retained notices arrive right after the SUBACK.
        let rx = client.get_stream(None);
        tokio::time::timeout(WAIT, client.subscribe(topic(client_id), 1))
            .await
            .expect("suback in time")
            .expect("subscribed");
        Self { client, rx }
    }

    /// The next notice (skipping empty payloads, which clear a retained message).
    pub async fn next(&mut self) -> (bool, Notice) {
        loop {
            let message = tokio::time::timeout(WAIT, self.rx.recv())
                .await
                .expect("a notice in time")
                .expect("subscriber alive")
                .expect("subscriber connected");
            if message.payload().is_empty() {
                continue;
            }
            return (
                message.retained(),
                serde_json::from_slice(message.payload()).expect("notice JSON"),
            );
        }
    }

    /// Reads notices until one carries `version`.
    pub async fn until_version(&mut self, version: &str) -> Notice {
        loop {
            let (_, notice) = self.next().await;
            if notice.version == version {
                return notice;
            }
        }
    }
}

/// Publishes an empty retained payload on the client's topic: what a broker restarted without
/// persistence looks like to subscribers.
pub async fn clear_retained(broker: &Broker, client_id: &str) {
    let client = connect_client(broker, "clear").await;
    publish_acked(
        &client,
        Message::new_retained(topic(client_id), Vec::<u8>::new(), 1),
    )
    .await;
    let _ = client.disconnect(None).await;
}

/// Checks that the broker holds no retained notice for the client: a subscriber's first message
/// must be a probe published after it subscribed (brokers send retained messages first).
pub async fn assert_nothing_retained(broker: &Broker, client_id: &str) {
    let mut sub = Subscriber::connect(broker, client_id).await;
    let probe = serde_json::to_vec(&Notice {
        client_id: client_id.into(),
        version: "probe".into(),
    })
    .unwrap();
    publish_acked(&sub.client, Message::new(topic(client_id), probe, 1)).await;
    let (retained, first) = sub.next().await;
    assert_eq!(
        (retained, first.version.as_str()),
        (false, "probe"),
        "the retained notice was cleared"
    );
}
