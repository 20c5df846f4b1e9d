//! The embedded broker's MQTT-over-WebSocket listener (`mqtt.embedded_websocket_listen`), which
//! the citizens' web app subscribes on under `make run`: a browser-like client over `ws://` gets
//! a retained notice published over TCP, as the page gets an announcement's.

use paho_mqtt::{Message, MessageBuilder};
use platform_messages::notify::EmbeddedBroker;

use crate::console::free_address;
use crate::helpers::WAIT;

#[tokio::test]
async fn a_websocket_subscriber_gets_the_retained_notice() {
    let (tcp, ws) = (free_address(), free_address());
    let broker = EmbeddedBroker::start_with(&tcp, None, Some(&ws)).unwrap();
    assert_eq!(broker.websocket.map(|a| a.to_string()), Some(ws.clone()));

    // The publisher over TCP, as platform-messages publishes: retained, QoS 1. The broker binds
    // its listeners on its own thread: the first connect may come before they listen.
    let publisher = test_support::mqtt::client(&format!("tcp://{tcp}"), "pub");
    let options = test_support::mqtt::options()
        .connect_timeout(WAIT)
        .clean_session(true)
        .finalize();
    tokio::time::timeout(WAIT, async {
        while publisher.connect(options.clone()).await.is_err() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the broker accepts TCP connections");
    let notice = r#"{"version":"7"}"#;
    let retained: Message = MessageBuilder::new()
        .topic("system/messages/citizen-web")
        .payload(notice)
        .qos(1)
        .retained(true)
        .finalize();
    tokio::time::timeout(WAIT, publisher.publish(retained))
        .await
        .expect("puback in time")
        .expect("published");

    // The browser's side: MQTT 3.1.1 over ws://host:port/mqtt.
    let mut subscriber = test_support::mqtt::client(&format!("ws://{ws}/mqtt"), "ws-sub");
    let stream = subscriber.get_stream(None);
    tokio::time::timeout(WAIT, subscriber.connect(options))
        .await
        .expect("connected over WebSocket in time")
        .expect("the WebSocket listener takes MQTT");
    tokio::time::timeout(WAIT, subscriber.subscribe("system/messages/citizen-web", 1))
        .await
        .expect("suback in time")
        .expect("subscribed");
    let message = tokio::time::timeout(WAIT, stream.recv())
        .await
        .expect("the retained notice in time")
        .expect("subscriber alive")
        .expect("a message, not a disconnect");
    assert_eq!(message.topic(), "system/messages/citizen-web");
    assert_eq!(message.payload_str(), notice);
    assert!(message.retained());
}
