//! Sending one push message to one subscription: the encrypted body, VAPID, and the push
//! service's answer read as delivered, gone (remove the subscription) or retry later.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use p256::ecdsa::SigningKey;

use super::keys::decode_b64url;
use super::webpush::{encrypt, vapid_authorization};
use crate::store::notifications::PushSubscription;

/// What the push service answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    /// Accepted (200, 201, 202).
    Delivered,
    /// 404 or 410: the subscription has expired; remove it.
    Gone,
    /// 429, 5xx or a transport error: try again later (with backoff).
    Retry(String),
    /// Another 4xx: the message itself is refused; retrying will not help.
    Rejected(u16),
}

/// How long a signed VAPID header is reused for a push service (it is valid for 12 hours):
/// signing one per message would cost a third of the sending CPU.
pub const VAPID_REUSE_SECS: i64 = 3600;

/// The VAPID public key of `settings` (base64url), `None` without a private key; a key that is
/// not a P-256 private key in base64url is an error naming the setting.
pub fn vapid_public_key(settings: &super::WebPushSettings) -> anyhow::Result<Option<String>> {
    use secrecy::ExposeSecret as _;
    let Some(private_key) = &settings.vapid_private_key else {
        return Ok(None);
    };
    let bytes = decode_b64url(private_key.expose_secret())
        .context("notifications.webpush.vapid_private_key is not base64url")?;
    let key = SigningKey::from_slice(&bytes)
        .context("notifications.webpush.vapid_private_key is not a P-256 private key")?;
    Ok(Some(public_key_of(&key)))
}

fn public_key_of(key: &SigningKey) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(key.verifying_key().to_encoded_point(false).as_bytes())
}

/// Sends pushes with the service's VAPID key.
#[derive(Clone)]
pub struct PushSender {
    http: reqwest::Client,
    key: SigningKey,
    subject: String,
    ttl_secs: u32,
    /// The latest `Authorization` per push service origin, with when it was signed.
    vapid: Arc<Mutex<HashMap<String, (i64, String)>>>,
}

impl PushSender {
    /// `private_key`: the VAPID private key, 32 bytes base64url; `subject`: a `mailto:` or
    /// `https:` contact of the operator (RFC 8292).
    pub fn new(private_key: &str, subject: &str, ttl_secs: u32) -> anyhow::Result<Self> {
        let bytes = decode_b64url(private_key).context("the VAPID private key is not base64url")?;
        let key = SigningKey::from_slice(&bytes).context("the VAPID private key is not P-256")?;
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Self {
            http,
            key,
            subject: subject.to_owned(),
            ttl_secs,
            vapid: Arc::default(),
        })
    }

    /// The VAPID public key browsers subscribe with (`applicationServerKey`), base64url.
    /// (Served by `GET /notifications/webpush/public-key`, [`vapid_public_key`].)
    pub fn public_key(&self) -> String {
        public_key_of(&self.key)
    }

    /// Sends `payload` to `sub`. `topic` (at most 32 base64url characters) is the message's
    /// identity: a repeat with the same topic replaces an undelivered one at the push service.
    pub async fn send(
        &self,
        sub: &PushSubscription,
        payload: &[u8],
        topic: &str,
        now_secs: i64,
    ) -> anyhow::Result<PushOutcome> {
        let endpoint = url::Url::parse(&sub.endpoint).context("stored endpoint")?;
        let body = encrypt(payload, &sub.p256dh, &sub.auth)?;
        let authorization = self.authorization(&endpoint, now_secs)?;
        let sent = self
            .http
            .post(endpoint)
            .header("Authorization", authorization)
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("TTL", self.ttl_secs.to_string())
            .header("Topic", topic)
            .header("Urgency", "normal")
            .body(body)
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(err) => return Ok(PushOutcome::Retry(err.to_string())),
        };
        let status = response.status().as_u16();
        Ok(match status {
            200..=202 => PushOutcome::Delivered,
            404 | 410 => PushOutcome::Gone,
            429 | 500..=599 => PushOutcome::Retry(format!("push service answered {status}")),
            _ => PushOutcome::Rejected(status),
        })
    }
}

impl PushSender {
    /// The VAPID header for `endpoint`'s push service: the one signed within the last
    /// [`VAPID_REUSE_SECS`], else a new one.
    fn authorization(&self, endpoint: &url::Url, now_secs: i64) -> anyhow::Result<String> {
        let origin = endpoint.origin().ascii_serialization();
        let fresh =
            |(signed, _): &(i64, String)| (0..VAPID_REUSE_SECS).contains(&(now_secs - signed));
        if let Ok(cache) = self.vapid.lock() {
            if let Some(entry) = cache.get(&origin).filter(|e| fresh(e)) {
                return Ok(entry.1.clone());
            }
        }
        let header = vapid_authorization(&self.key, endpoint, &self.subject, now_secs)?;
        if let Ok(mut cache) = self.vapid.lock() {
            cache.insert(origin, (now_secs, header.clone()));
        }
        Ok(header)
    }
}

/// A feed entry's tag as a push `Topic`: its 32 hex digits (stable per event and recipient).
pub fn topic(tag: &str) -> String {
    tag.chars().filter(|c| *c != '-').take(32).collect()
}
