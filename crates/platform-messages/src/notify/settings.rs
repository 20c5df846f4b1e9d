//! `mqtt.*` settings and how they become rumqttc options.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use rumqttc::{MqttOptions, Transport};
use secrecy::{ExposeSecret as _, SecretString};
use serde::Deserialize;

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
    /// Put it in the environment (`PLATFORM_MESSAGES__MQTT__PASSWORD`).
    pub password: Option<SecretString>,
    /// PEM file of the CA that signed the broker's certificate (`mqtts://`); without it the
    /// system's roots are used.
    pub ca_file: Option<PathBuf>,
    /// Start an in-process broker (rumqttd) on `embedded_listen` and connect to it.
    pub embedded_broker: bool,
    /// Address of the in-process broker, e.g. `127.0.0.1:1884`.
    pub embedded_listen: String,
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

    pub fn mqtt_options(&self) -> anyhow::Result<MqttOptions> {
        let url = BrokerUrl::parse(&self.effective_url())?;
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        let client_id = format!("{}-{}", self.client_id, &suffix[..12]);
        let mut options = MqttOptions::new(client_id, url.host, url.port);
        options.set_keep_alive(Duration::from_secs(self.keep_alive_seconds.max(5)));
        options.set_clean_session(true);
        if let Some(user) = &self.username {
            let password = self
                .password
                .as_ref()
                .map(|p| p.expose_secret().to_owned())
                .unwrap_or_default();
            options.set_credentials(user, password);
        }
        if url.tls {
            let transport = match &self.ca_file {
                Some(path) => {
                    let ca = std::fs::read(path)
                        .with_context(|| format!("cannot read mqtt.ca_file {}", path.display()))?;
                    Transport::tls(ca, None, None)
                }
                None => Transport::tls_with_default_config(),
            };
            options.set_transport(transport);
        }
        Ok(options)
    }
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
