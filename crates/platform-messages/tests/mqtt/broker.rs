//! The brokers the notices go through, and MQTT clients that watch them.

use std::time::Duration;

use platform_messages::notify::{topic, Notice};
use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};

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

/// An MQTT subscriber on one client's topic.
pub struct Subscriber {
    pub client: AsyncClient,
    rx: tokio::sync::mpsc::UnboundedReceiver<(bool, Vec<u8>)>,
    _task: tokio::task::JoinHandle<()>,
}

impl Subscriber {
    /// Connects and subscribes to `system/messages/<client_id>`; returns once subscribed.
    pub async fn connect(broker: &Broker, client_id: &str) -> Self {
        let (host, port) = broker.address();
        let id = format!("sub-{}", uuid::Uuid::new_v4().simple());
        let mut options = MqttOptions::new(id, host, port);
        options.set_keep_alive(Duration::from_secs(30));
        let (client, mut eventloop) = AsyncClient::new(options, 16);
        client
            .subscribe(topic(client_id), QoS::AtLeastOnce)
            .await
            .unwrap();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let (subscribed_tx, subscribed_rx) = tokio::sync::oneshot::channel();
        let task = tokio::spawn(async move {
            let mut subscribed = Some(subscribed_tx);
            loop {
                match eventloop.poll().await {
                    Ok(Event::Incoming(Packet::SubAck(_))) => {
                        if let Some(s) = subscribed.take() {
                            let _ = s.send(());
                        }
                    }
                    Ok(Event::Incoming(Packet::Publish(p))) => {
                        let _ = tx.send((p.retain, p.payload.to_vec()));
                    }
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
        });
        tokio::time::timeout(WAIT, subscribed_rx)
            .await
            .expect("suback in time")
            .expect("subscribed");
        Self {
            client,
            rx,
            _task: task,
        }
    }

    /// The next notice (skipping empty payloads, which clear a retained message).
    pub async fn next(&mut self) -> (bool, Notice) {
        loop {
            let (retained, payload) = tokio::time::timeout(WAIT, self.rx.recv())
                .await
                .expect("a notice in time")
                .expect("subscriber alive");
            if payload.is_empty() {
                continue;
            }
            return (
                retained,
                serde_json::from_slice(&payload).expect("notice JSON"),
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
    let (host, port) = broker.address();
    let mut options = MqttOptions::new(
        format!("clear-{}", uuid::Uuid::new_v4().simple()),
        host,
        port,
    );
    options.set_keep_alive(Duration::from_secs(30));
    let (client, mut eventloop) = AsyncClient::new(options, 16);
    client
        .publish(topic(client_id), QoS::AtLeastOnce, true, Vec::<u8>::new())
        .await
        .unwrap();
    let acked = async {
        loop {
            if let Event::Incoming(Packet::PubAck(_)) =
                eventloop.poll().await.expect("broker reachable")
            {
                return;
            }
        }
    };
    tokio::time::timeout(WAIT, acked)
        .await
        .expect("puback in time");
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
    sub.client
        .publish(topic(client_id), QoS::AtLeastOnce, false, probe)
        .await
        .unwrap();
    let (retained, first) = sub.next().await;
    assert_eq!(
        (retained, first.version.as_str()),
        (false, "probe"),
        "the retained notice was cleared"
    );
}
