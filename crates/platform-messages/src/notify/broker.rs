//! The in-process MQTT broker (rumqttd) of the embedded default: `make run` needs nothing else.
//! In production the service talks to an external broker and this is off.
//!
//! rumqttd is behind the cargo feature `embedded-broker` (a default feature): the container image
//! builds without it, so the production binary carries no rumqttd and none of its second HTTP
//! stack (axum 0.6, hyper 0.14, rustls 0.21). A build without it refuses
//! `mqtt.embedded_broker = true` when the settings are validated ([`check_embedded_broker`]).

use std::net::SocketAddr;

#[cfg(feature = "embedded-broker")]
use anyhow::Context as _;

use super::MqttSettings;

/// Whether this build carries the in-process broker (cargo feature `embedded-broker`).
pub const BUILT_IN: bool = cfg!(feature = "embedded-broker");

/// Why a build without the broker cannot honour `mqtt.embedded_broker = true`.
const NOT_BUILT_IN: &str = "mqtt.embedded_broker is true, but this build of platform-messages has \
     no in-process broker (cargo feature `embedded-broker` off, as in the container image): set \
     mqtt.embedded_broker = false and mqtt.url to the MQTT broker, or build with the feature";

/// Refuses `mqtt.embedded_broker = true` (`requested`) in a build without the broker
/// (`built_in` false); the message names the setting and the feature.
pub fn check_embedded_broker(requested: bool, built_in: bool) -> Result<(), String> {
    if requested && !built_in {
        return Err(NOT_BUILT_IN.to_owned());
    }
    Ok(())
}

/// A running in-process broker. rumqttd has no stop operation: it runs until the process ends.
#[derive(Debug)]
pub struct EmbeddedBroker {
    pub listen: SocketAddr,
    /// Where its HTTP console answers, when it has one.
    pub console: Option<SocketAddr>,
    /// Where it takes MQTT over WebSocket (browsers), when it does.
    pub websocket: Option<SocketAddr>,
}

impl EmbeddedBroker {
    /// Starts a MQTT 3.1.1 broker on `listen` (in the background), without a console.
    pub fn start(listen: &str) -> anyhow::Result<Self> {
        Self::start_with(listen, None, None)
    }

    /// Starts the broker on `mqtt.embedded_listen` with its console on
    /// `mqtt.embedded_console_listen` and its WebSocket listener on
    /// `mqtt.embedded_websocket_listen` (each when set).
    pub fn from_settings(settings: &MqttSettings) -> anyhow::Result<Self> {
        Self::start_with(
            &settings.embedded_listen,
            settings.console_listen(),
            settings.websocket_listen(),
        )
    }

    /// Starts the broker on `listen` with its console on `console` (no WebSocket listener).
    pub fn start_with_console(listen: &str, console: Option<&str>) -> anyhow::Result<Self> {
        Self::start_with(listen, console, None)
    }

    /// Without the feature `embedded-broker` there is no broker to start: the error of
    /// [`check_embedded_broker`].
    #[cfg(not(feature = "embedded-broker"))]
    pub fn start_with(
        _listen: &str,
        _console: Option<&str>,
        _websocket: Option<&str>,
    ) -> anyhow::Result<Self> {
        anyhow::bail!(NOT_BUILT_IN)
    }

    /// Starts the broker on `listen`, rumqttd's HTTP console on `console` and its MQTT over
    /// WebSocket listener (MQTT 3.1.1, the subprotocol `mqtt`, any path) on `websocket`. The
    /// console is a convenience: when its address is taken (a second local instance, parallel
    /// tests) the broker starts without it and a warning says so.
    #[cfg(feature = "embedded-broker")]
    pub fn start_with(
        listen: &str,
        console: Option<&str>,
        websocket: Option<&str>,
    ) -> anyhow::Result<Self> {
        use rumqttd::{
            Broker, Config, ConnectionSettings, ConsoleSettings, RouterConfig, ServerSettings,
        };
        use std::collections::HashMap;

        let listen: SocketAddr = listen
            .parse()
            .with_context(|| format!("mqtt.embedded_listen must be host:port, got {listen}"))?;
        let websocket: Option<SocketAddr> = websocket
            .map(|address| {
                address.parse().with_context(|| {
                    format!("mqtt.embedded_websocket_listen must be host:port, got {address}")
                })
            })
            .transpose()?;
        let server = |name: &str, listen: SocketAddr| ServerSettings {
            name: name.to_owned(),
            listen,
            tls: None,
            next_connection_delay_ms: 1,
            connections: ConnectionSettings {
                connection_timeout_ms: 60_000,
                max_payload_size: 20_480,
                max_inflight_count: 100,
                auth: None,
                external_auth: None,
                dynamic_filters: true,
            },
        };
        let console = match console {
            Some(address) => console_address(address)?,
            None => None,
        };
        let config = Config {
            id: 0,
            router: RouterConfig {
                max_connections: 10_000,
                max_outgoing_packet_count: 200,
                max_segment_size: 10 * 1024 * 1024,
                max_segment_count: 10,
                ..RouterConfig::default()
            },
            v4: Some(HashMap::from([(
                "1".to_owned(),
                server("platform-messages-embedded", listen),
            )])),

            console: console.map(|address| {
                let mut settings = ConsoleSettings::default();
                settings.listen = address.to_string();
                settings
            }),
            ..Config::default()
        };
        std::thread::Builder::new()
            .name("embedded-mqtt-broker".to_owned())
            .spawn(move || {
                let mut broker = Broker::new(config);
                if let Err(err) = broker.start() {
                    tracing::error!(error = %err, "the embedded MQTT broker stopped");
                }
            })
            .context("cannot start the embedded MQTT broker thread")?;
        // The broker binds its listener on its own thread; the application waits for its own
        // connection to it (a proper MQTT handshake) before reporting the start as done.
        if let Some(console) = console {
            tracing::info!(%console, "embedded MQTT broker console (HTTP) running");
        }
        if let Some(address) = websocket {
            websocket_bridge::start(address, listen)?;
            tracing::info!(websocket = %address, "embedded MQTT broker WebSocket listener running");
        }
        Ok(Self {
            listen,
            console,
            websocket,
        })
    }
}

/// The console's address when it is free now; rumqttd would panic its console thread on a taken
/// one.
#[cfg(feature = "embedded-broker")]
fn console_address(address: &str) -> anyhow::Result<Option<SocketAddr>> {
    let address: SocketAddr = address.parse().with_context(|| {
        format!("mqtt.embedded_console_listen must be host:port, got {address}")
    })?;
    match std::net::TcpListener::bind(address) {
        Ok(probe) => {
            let bound = probe.local_addr()?;
            drop(probe);
            Ok(Some(bound))
        }
        Err(err) => {
            tracing::warn!(%address, error = %err, "embedded MQTT broker console not started");
            Ok(None)
        }
    }
}

/// MQTT over WebSocket for the embedded broker: each WebSocket connection (subprotocol `mqtt`,
/// any path) is bridged to a TCP connection to the broker, binary frames one way and bytes the
/// other, each frame sent as soon as the broker's bytes arrive. rumqttd 0.19 has a WebSocket
/// listener of its own, but it writes without flushing, so a packet (the retained notice after
/// a SUBACK) sits in the WebSocket's buffer until the next one.
#[cfg(feature = "embedded-broker")]
mod websocket_bridge {
    use std::net::SocketAddr;

    use anyhow::Context as _;
    use async_tungstenite::tokio::accept_hdr_async;
    use async_tungstenite::tungstenite::handshake::server::{Request, Response};
    use async_tungstenite::tungstenite::http::HeaderValue;
    use async_tungstenite::tungstenite::Message;
    use futures::{SinkExt as _, StreamExt as _};
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    use tokio::net::{TcpListener, TcpStream};

    /// Binds `listen` now (a taken address fails the start) and serves it on a thread of its
    /// own, as the broker runs, until the process ends.
    pub fn start(listen: SocketAddr, broker: SocketAddr) -> anyhow::Result<()> {
        let listener = std::net::TcpListener::bind(listen).with_context(|| {
            format!("mqtt.embedded_websocket_listen: cannot listen on {listen}")
        })?;
        listener.set_nonblocking(true)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        std::thread::Builder::new()
            .name("embedded-mqtt-websocket".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(err) => {
                            tracing::error!(error = %err, "the MQTT WebSocket listener stopped");
                            return;
                        }
                    };
                    loop {
                        match listener.accept().await {
                            Ok((stream, _)) => {
                                tokio::spawn(async move {
                                    if let Err(err) = bridge(stream, broker).await {
                                        tracing::debug!(error = %err, "MQTT WebSocket connection ended");
                                    }
                                });
                            }
                            Err(err) => tracing::warn!(error = %err, "MQTT WebSocket accept failed"),
                        }
                    }
                });
            })
            .context("cannot start the embedded MQTT WebSocket thread")?;
        Ok(())
    }

    /// Answers the handshake with the subprotocol `mqtt` (MQTT over WebSocket, MQTT 3.1.1 §6),
    /// which browsers' clients ask for.
    #[allow(clippy::result_large_err)] // tungstenite's callback signature
    fn mqtt_subprotocol(
        _request: &Request,
        mut response: Response,
    ) -> Result<Response, async_tungstenite::tungstenite::handshake::server::ErrorResponse> {
        response
            .headers_mut()
            .insert("sec-websocket-protocol", HeaderValue::from_static("mqtt"));
        Ok(response)
    }

    /// The length of the MQTT packet at the start of `bytes` (fixed header with its remaining
    /// length, MQTT 3.1.1 §2.2.3, and the rest), when it is all there.
    pub(super) fn packet_length(bytes: &[u8]) -> Option<usize> {
        let mut remaining = 0_usize;
        for (index, byte) in bytes.iter().skip(1).take(4).enumerate() {
            remaining |= usize::from(byte & 0x7f) << (7 * index);
            if byte & 0x80 == 0 {
                let total = 1 + (index + 1) + remaining;
                return (bytes.len() >= total).then_some(total);
            }
        }
        None
    }

    async fn bridge(stream: TcpStream, broker: SocketAddr) -> anyhow::Result<()> {
        let websocket = accept_hdr_async(stream, mqtt_subprotocol).await?;
        let (mut from_broker, mut to_broker) = TcpStream::connect(broker).await?.into_split();
        let (mut to_client, mut from_client) = websocket.split();
        let upstream = async {
            while let Some(message) = from_client.next().await {
                match message? {
                    Message::Binary(bytes) => to_broker.write_all(&bytes).await?,
                    Message::Close(_) => break,
                    _ => {}
                }
            }
            anyhow::Ok(())
        };
        let downstream = async {
            let mut pending = Vec::with_capacity(16 * 1024);
            let mut buffer = vec![0_u8; 16 * 1024];
            loop {
                let read = from_broker.read(&mut buffer).await?;
                if read == 0 {
                    break;
                }
                pending.extend_from_slice(&buffer[..read]);
                // A frame per MQTT packet, each sent (and flushed) as soon as it is whole: some
                // clients (Paho C) read one packet per frame, though the standard allows more.
                while let Some(length) = packet_length(&pending) {
                    let rest = pending.split_off(length);
                    to_client.send(Message::Binary(pending)).await?;
                    pending = rest;
                }
            }
            anyhow::Ok(())
        };
        tokio::select! {
            done = upstream => done,
            done = downstream => done,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::*;

    #[test]
    fn a_build_without_the_broker_refuses_the_embedded_broker_setting() {
        let err = check_embedded_broker(true, false).unwrap_err();
        assert!(err.contains("mqtt.embedded_broker"), "{err}");
        assert!(err.contains("`embedded-broker`"), "{err}");
    }

    #[test]
    fn an_external_broker_or_a_build_with_the_broker_passes() {
        assert_eq!(check_embedded_broker(false, false), Ok(()));
        assert_eq!(check_embedded_broker(false, true), Ok(()));
        assert_eq!(check_embedded_broker(true, true), Ok(()));
    }

    #[cfg(feature = "embedded-broker")]
    #[test]
    fn the_bridge_cuts_the_brokers_bytes_at_packet_ends() {
        use super::websocket_bridge::packet_length;
        // CONNACK (2 bytes of rest), SUBACK (3), a PUBLISH of 200 bytes (a 2-byte length).
        assert_eq!(packet_length(&[0x20, 0x02, 0, 0]), Some(4));
        assert_eq!(packet_length(&[0x20, 0x02, 0]), None);
        assert_eq!(packet_length(&[0x90, 0x03, 0, 1, 1, 0x30]), Some(5));
        let mut publish = vec![0x31, 0xc8, 0x01];
        publish.resize(3 + 200, 7);
        assert_eq!(packet_length(&publish), Some(203));
        assert_eq!(packet_length(&publish[..202]), None);
        assert_eq!(packet_length(&[0x31]), None);
        assert_eq!(packet_length(&[]), None);
        // A length of four continuation bytes without an end is no packet yet.
        assert_eq!(packet_length(&[0x31, 0xff, 0xff, 0xff, 0xff]), None);
    }

    #[test]
    fn this_build_says_whether_it_carries_the_broker() {
        assert_eq!(BUILT_IN, cfg!(feature = "embedded-broker"));
        assert_eq!(
            check_embedded_broker(true, BUILT_IN).is_ok(),
            cfg!(feature = "embedded-broker")
        );
    }
}
