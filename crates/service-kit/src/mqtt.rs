//! `mqtt.*` settings and how they become a paho-mqtt client and its connect options, the same
//! for every service that talks to the broker (platform-messages' change notices, citizen-api's
//! report status events), and [`keep_connected`], the one task that connects the client and
//! reconnects it. Behind the `mqtt` feature: only those services build the Paho C library.
//!
//! # Why not paho's automatic reconnect
//!
//! The Paho C library (1.3.16, paho-mqtt-sys 0.11) calls a connect's failure callback with the
//! connect's context and then, when the attempt failed at once (a refused TCP connect: a broker
//! that is away), copies the command, callback and context included, into the client's stored
//! connect (`MQTTAsync_processCommand`, MQTTAsyncUtils.c). With automatic reconnect on, every
//! retry starts from that stored connect and, failing the same way, calls the failure callback
//! again with the same context. The Rust wrapper's context is a reference-counted token that
//! the first callback already released, so each later failure releases freed memory again: heap
//! corruption that surfaced as a SIGSEGV in `malloc` minutes after start (issue 32). A
//! `connect` called by the service while paho retried on its own made it likelier. So the
//! services never turn automatic reconnect on: [`keep_connected`] makes one connect at a time,
//! each with a fresh token, waits for its outcome before the next, and reconnects after the
//! connection-lost callback, so no callback ever sees a released context.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use paho_mqtt::{
    AsyncClient, ConnectOptions, ConnectOptionsBuilder, CreateOptionsBuilder, PersistenceType,
    SslOptionsBuilder, MQTT_VERSION_3_1_1,
};
use secrecy::{ExposeSecret as _, SecretString};
use serde::Deserialize;
use std::future::Future;
use tokio::sync::{mpsc, watch};

/// The broker connection (`mqtt.*`).
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MqttSettings {
    /// `mqtt://host[:port]` (default port 1883) or `mqtts://host[:port]` (default 8883). Ignored
    /// when `embedded_broker` is on: the service then connects to its own broker.
    pub url: String,
    /// MQTT client id prefix; a random suffix per process keeps replicas from taking over each
    /// other's session.
    pub client_id: String,
    pub username: Option<String>,
    /// Put it in the environment (`<SERVICE>__MQTT__PASSWORD`, e.g.
    /// `PLATFORM_MESSAGES__MQTT__PASSWORD`).
    pub password: Option<SecretString>,
    /// PEM file of the CA that signed the broker's certificate (`mqtts://`); without it the
    /// system's roots are used.
    pub ca_file: Option<PathBuf>,
    /// Connect to the in-process broker on `embedded_listen` instead of `url`; platform-messages
    /// starts that broker (rumqttd) itself when built with its cargo feature `embedded-broker`
    /// (the default; the container image is built without it and refuses `true`). Default false.
    #[serde(default)]
    pub embedded_broker: bool,
    /// Address of the in-process broker, e.g. `127.0.0.1:1884`.
    #[serde(default)]
    pub embedded_listen: String,
    /// Address of the in-process broker's HTTP console (rumqttd's `console`), e.g.
    /// `127.0.0.1:3030`; unset or empty: no console.
    #[serde(default)]
    pub embedded_console_listen: Option<String>,
    /// Address of the in-process broker's MQTT-over-WebSocket listener (any path, subprotocol
    /// `mqtt`), e.g. `127.0.0.1:1885`, for browsers (the citizens' web app); unset or empty: none.
    #[serde(default)]
    pub embedded_websocket_listen: Option<String>,
    /// How long to wait for the broker's PUBACK before retrying a notice.
    pub publish_timeout_millis: u64,
    /// Pause between reconnect attempts and between retries of a failed notice.
    pub retry_millis: u64,
    pub keep_alive_seconds: u64,
}

impl std::fmt::Debug for MqttSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MqttSettings")
            .field("url", &self.url)
            .field("client_id", &self.client_id)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("ca_file", &self.ca_file)
            .field("embedded_broker", &self.embedded_broker)
            .field("embedded_listen", &self.embedded_listen)
            .field("embedded_console_listen", &self.embedded_console_listen)
            .field("embedded_websocket_listen", &self.embedded_websocket_listen)
            .finish_non_exhaustive()
    }
}

/// A parsed broker URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerUrl {
    pub tls: bool,
    pub host: String,
    pub port: u16,
}

impl BrokerUrl {
    pub fn parse(url: &str) -> anyhow::Result<Self> {
        let (tls, rest) = if let Some(rest) = url.strip_prefix("mqtt://") {
            (false, rest)
        } else if let Some(rest) = url.strip_prefix("mqtts://") {
            (true, rest)
        } else {
            anyhow::bail!("mqtt.url must start with mqtt:// or mqtts://, got {url}");
        };
        let authority = rest.trim_end_matches('/');
        anyhow::ensure!(
            !authority.is_empty() && !authority.contains(['/', '@', '?']),
            "mqtt.url must be mqtt[s]://host[:port] (credentials go in mqtt.username/password), got {url}"
        );
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) if !host.ends_with(']') || authority.starts_with('[') => (
                host,
                port.parse()
                    .with_context(|| format!("mqtt.url has an invalid port: {url}"))?,
            ),
            _ => (authority, if tls { 8883 } else { 1883 }),
        };
        Ok(Self {
            tls,
            host: host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned(),
            port,
        })
    }
}

impl MqttSettings {
    /// The URL the service connects to.
    pub fn effective_url(&self) -> String {
        if self.embedded_broker {
            format!("mqtt://{}", self.embedded_listen)
        } else {
            self.url.clone()
        }
    }

    /// The embedded broker's console address, when one is configured.
    pub fn console_listen(&self) -> Option<&str> {
        self.embedded_console_listen
            .as_deref()
            .map(str::trim)
            .filter(|listen| !listen.is_empty())
    }

    /// The embedded broker's WebSocket address, when one is configured.
    pub fn websocket_listen(&self) -> Option<&str> {
        self.embedded_websocket_listen
            .as_deref()
            .map(str::trim)
            .filter(|listen| !listen.is_empty())
    }

    /// A paho client for the effective URL (no persistence: nothing is buffered while the broker
    /// is away, the republish-all after the next connect sends fresh states) and its connect
    /// options (clean session, MQTT 3.1.1, no automatic reconnect: [`keep_connected`] reconnects,
    /// see the module documentation).
    pub fn client(&self) -> anyhow::Result<(AsyncClient, ConnectOptions)> {
        let url = BrokerUrl::parse(&self.effective_url())?;
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        let client_id = format!("{}-{}", self.client_id, &suffix[..12]);
        let host = if url.host.contains(':') {
            format!("[{}]", url.host)
        } else {
            url.host.clone()
        };
        let scheme = if url.tls { "ssl" } else { "tcp" };
        let client = CreateOptionsBuilder::new_v3()
            .server_uri(format!("{scheme}://{host}:{}", url.port))
            .client_id(client_id)
            .persistence(PersistenceType::None)
            .mqtt_version(MQTT_VERSION_3_1_1)
            .create_client()
            .context("cannot create the MQTT client")?;
        let mut options = ConnectOptionsBuilder::with_mqtt_version(MQTT_VERSION_3_1_1);
        options
            .keep_alive_interval(Duration::from_secs(self.keep_alive_seconds.max(5)))
            .clean_session(true)
            .connect_timeout(Duration::from_secs(10));
        if let Some(user) = &self.username {
            options.user_name(user.as_str());
            if let Some(password) = &self.password {
                options.password(password.expose_secret());
            }
        }
        if url.tls {
            let mut ssl = SslOptionsBuilder::new();
            // Check the certificate chain and that the certificate names the host.
            ssl.enable_server_cert_auth(true).verify(true);
            if let Some(path) = &self.ca_file {
                anyhow::ensure!(
                    path.is_file(),
                    "cannot read mqtt.ca_file {}",
                    path.display()
                );
                ssl.trust_store(path)
                    .with_context(|| format!("invalid mqtt.ca_file {}", path.display()))?;
            }
            options.ssl_options(ssl.finalize());
        }
        Ok((client, options.finalize()))
    }
}

/// The state of a client's broker connection, as [`keep_connected`] reports it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Link {
    /// Whether the connection is up.
    pub up: bool,
    /// Connections made so far: a higher count is a new connection (a broker that restarted
    /// without its state needs everything retained published again).
    pub connects: u64,
}

/// Connects `client` (retrying every `retry`, at least 10 ms, until the broker accepts) and
/// reconnects it after every lost connection, one attempt at a time, each awaited before the
/// next; never fails on an unreachable broker. Installs the client's connection-lost callback
/// (paho calls it on a thread of the C library; it only sends into a channel). The returned
/// future does the connecting, forever (run it in a task; dropping it stops the reconnecting,
/// and a client then disconnected stays so); the receiver follows the connection.
pub fn keep_connected(
    client: AsyncClient,
    options: ConnectOptions,
    retry: Duration,
) -> (
    impl Future<Output = ()> + Send + 'static,
    watch::Receiver<Link>,
) {
    let retry = retry.max(Duration::from_millis(10));
    let (lost_tx, mut lost) = mpsc::unbounded_channel::<()>();
    client.set_connection_lost_callback(move |_| {
        let _ = lost_tx.send(());
    });
    let (link_tx, link) = watch::channel(Link::default());
    let connecting = async move {
        let mut failures = 0u64;
        loop {
            // A loss reported before this attempt belongs to the previous connection.
            while lost.try_recv().is_ok() {}
            match client.connect(options.clone()).await {
                Ok(_) => {
                    failures = 0;
                    tracing::info!(broker = client.server_uri(), "connected to the MQTT broker");
                    link_tx.send_modify(|link| {
                        link.up = true;
                        link.connects += 1;
                    });
                    if lost.recv().await.is_none() {
                        return;
                    }
                    tracing::warn!("lost the MQTT broker connection; reconnecting");
                    link_tx.send_modify(|link| link.up = false);
                }
                Err(err) => {
                    failures += 1;
                    if failures == 1 {
                        tracing::warn!(error = %err, broker = client.server_uri(), "cannot reach the MQTT broker; retrying");
                    } else {
                        tracing::debug!(error = %err, failures, "cannot reach the MQTT broker");
                    }
                    tokio::time::sleep(retry).await;
                }
            }
        }
    };
    (connecting, link)
}

#[cfg(test)]
mod tests {
    use super::BrokerUrl;

    #[test]
    fn broker_urls() {
        let parse = |u| BrokerUrl::parse(u).ok();
        let url = |tls, host: &str, port| {
            Some(BrokerUrl {
                tls,
                host: host.into(),
                port,
            })
        };
        assert_eq!(
            parse("mqtt://127.0.0.1:1884"),
            url(false, "127.0.0.1", 1884)
        );
        assert_eq!(parse("mqtt://broker"), url(false, "broker", 1883));
        assert_eq!(
            parse("mqtts://broker.city.example/"),
            url(true, "broker.city.example", 8883)
        );
        assert_eq!(parse("mqtts://broker:8884"), url(true, "broker", 8884));
        assert_eq!(parse("http://broker"), None);
        assert_eq!(parse("mqtt://user:pw@broker"), None);
        assert_eq!(parse("mqtt://broker:x"), None);
        assert_eq!(parse("mqtt://"), None);
    }
}
