//! Notifications beyond the feed: the channels' settings and checks (web push, e-mail).

pub mod deliver;
pub mod digest;
pub mod keys;
pub mod mail;
pub mod push_send;
pub mod status_events;
pub mod webpush;
pub mod worker;

use secrecy::SecretString;
use serde::Deserialize;

/// `notifications.*`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NotificationSettings {
    pub webpush: WebPushSettings,
    pub email: EmailSettings,
    pub worker: WorkerSettings,
    pub delivery: DeliverySettings,
    pub digest: digest::DigestSettings,
}

/// `notifications.delivery.*`: sending feed entries over web push and e-mail.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeliverySettings {
    /// Run the delivery worker in this process (rows are claimed with a lease, so every replica
    /// may). Default false: nothing is sent.
    pub enabled: bool,
    /// Claims of a delivery before it is given up. Default 8.
    pub max_attempts: u32,
    /// The first retry's delay; each further one doubles it. Default 30.
    pub backoff_base_secs: u64,
    /// The longest delay between two attempts. Default 3600.
    pub backoff_max_secs: u64,
    /// How long a claimed delivery is left to its worker before another may take it (longer
    /// than a send's timeouts). Default 120.
    pub lease_secs: u64,
    /// Pause between two rounds. Default 1000.
    pub poll_millis: u64,
    /// Days a done or failed delivery is kept, then deleted (0: kept). Default 30.
    pub retain_days: u32,
    /// Hours an undelivered row is tried, counted from when it was written; then it is given
    /// up as `expired` instead of being sent late (0: no limit). Default 72.
    pub max_age_hours: u32,
}

impl Default for DeliverySettings {
    fn default() -> Self {
        Self {
            enabled: false,
            max_attempts: 8,
            backoff_base_secs: 30,
            backoff_max_secs: 3600,
            lease_secs: 120,
            poll_millis: 1000,
            retain_days: 30,
            max_age_hours: 72,
        }
    }
}

impl DeliverySettings {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.max_attempts == 0 {
            return Err("notifications.delivery.max_attempts must be at least 1".into());
        }
        if self.backoff_base_secs == 0 || self.backoff_max_secs < self.backoff_base_secs {
            return Err(
                "notifications.delivery.backoff_base_secs must be at least 1 and at most \
                        notifications.delivery.backoff_max_secs"
                    .into(),
            );
        }
        if self.lease_secs < 30 {
            return Err(
                "notifications.delivery.lease_secs must be at least 30 (longer than a send)".into(),
            );
        }
        Ok(())
    }
}

/// `notifications.email.*`: e-mail over SMTP.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmailSettings {
    /// `smtp://user:pass@host:587?tls=required` (STARTTLS), `smtps://…:465` (TLS) or
    /// `smtp://host:25` (plain, local catchers only). A secret. None: e-mails are not sent.
    pub smtp_url: Option<SecretString>,
    /// The sender, e.g. `Město <noreply@example.org>`.
    pub from: String,
    /// The public URL of the one-click unsubscribe endpoint (`?token=…` is appended); its host
    /// also names the e-mails' `Message-ID`s.
    pub unsubscribe_base_url: String,
}

impl Default for EmailSettings {
    fn default() -> Self {
        Self {
            smtp_url: None,
            from: "noreply@localhost".into(),
            unsubscribe_base_url: "http://localhost:8080/api/v1/notifications/email/unsubscribe"
                .into(),
        }
    }
}

/// `notifications.worker.*`: the in-process outbox worker.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkerSettings {
    /// Run the worker in this process (every replica may: rows are claimed). Default true.
    pub enabled: bool,
    /// Pause between two drains of the outbox. Default 1000.
    pub poll_millis: u64,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            poll_millis: 1000,
        }
    }
}

/// `notifications.webpush.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebPushSettings {
    /// Hosts a subscription's endpoint may point at: names, or `*.domain` for any host under a
    /// domain. The server only ever calls these, so it cannot be made to call arbitrary URLs.
    /// Default: the browsers' push services.
    pub allowed_hosts: Vec<String>,
    /// Accept `http://` endpoints (only for a local stand-in push service; never in
    /// production). Default false.
    pub allow_http: bool,
    /// The VAPID private key (32 bytes, base64url). A secret. None: pushes are not sent.
    pub vapid_private_key: Option<SecretString>,
    /// The operator's contact in the VAPID claims (`mailto:` or `https:`).
    pub vapid_subject: String,
    /// How long a push service keeps an undelivered message (the `TTL` header). Default 86400.
    pub ttl_secs: u32,
}

impl Default for WebPushSettings {
    fn default() -> Self {
        Self {
            allowed_hosts: domain::notifications::DEFAULT_PUSH_HOSTS
                .iter()
                .map(|h| (*h).to_owned())
                .collect(),
            allow_http: false,
            vapid_private_key: None,
            vapid_subject: "mailto:noreply@localhost".into(),
            ttl_secs: 86_400,
        }
    }
}
