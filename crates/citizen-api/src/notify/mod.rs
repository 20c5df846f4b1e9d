//! Notifications beyond the feed: the channels' settings and checks (web push, e-mail).

pub mod keys;
pub mod push_send;
pub mod status_events;
pub mod webpush;
pub mod worker;

use serde::Deserialize;

/// `notifications.*`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NotificationSettings {
    pub webpush: WebPushSettings,
    pub worker: WorkerSettings,
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
}

impl Default for WebPushSettings {
    fn default() -> Self {
        Self {
            allowed_hosts: domain::notifications::DEFAULT_PUSH_HOSTS
                .iter()
                .map(|h| (*h).to_owned())
                .collect(),
            allow_http: false,
        }
    }
}
