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
}

impl EmbeddedBroker {
    /// Starts a MQTT 3.1.1 broker on `listen` (in the background), without a console.
    pub fn start(listen: &str) -> anyhow::Result<Self> {
        Self::start_with_console(listen, None)
    }

    /// Starts the broker on `mqtt.embedded_listen` with its console on
    /// `mqtt.embedded_console_listen` (when set).
    pub fn from_settings(settings: &MqttSettings) -> anyhow::Result<Self> {
        Self::start_with_console(&settings.embedded_listen, settings.console_listen())
    }

    /// Without the feature `embedded-broker` there is no broker to start: the error of
    /// [`check_embedded_broker`].
    #[cfg(not(feature = "embedded-broker"))]
    pub fn start_with_console(_listen: &str, _console: Option<&str>) -> anyhow::Result<Self> {
        anyhow::bail!(NOT_BUILT_IN)
    }

    /// Starts the broker on `listen` and rumqttd's HTTP console on `console`. The console is a
    /// convenience: when its address is taken (a second local instance, parallel tests) the broker
    /// starts without it and a warning says so.
    #[cfg(feature = "embedded-broker")]
    pub fn start_with_console(listen: &str, console: Option<&str>) -> anyhow::Result<Self> {
        let listen: SocketAddr = listen
            .parse()
            .with_context(|| format!("mqtt.embedded_listen must be host:port, got {listen}"))?;
        let server = ServerSettings {
            name: "platform-messages-embedded".to_owned(),
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
        use rumqttd::{
            Broker, Config, ConnectionSettings, ConsoleSettings, RouterConfig, ServerSettings,
        };
        use std::collections::HashMap;

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
            v4: Some(HashMap::from([("1".to_owned(), server)])),
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
        Ok(Self { listen, console })
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

    #[test]
    fn this_build_says_whether_it_carries_the_broker() {
        assert_eq!(BUILT_IN, cfg!(feature = "embedded-broker"));
        assert_eq!(
            check_embedded_broker(true, BUILT_IN).is_ok(),
            cfg!(feature = "embedded-broker")
        );
    }
}
