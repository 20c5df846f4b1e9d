//! The delivery worker: sends feed entries over web push and e-mail. Each round claims due
//! delivery rows with a lease, sends them, and records the outcome (delivered; the push
//! subscription gone; retried later with exponential backoff; failed). A worker that crashes
//! between sending and recording leaves its rows to be claimed again after the lease: delivery
//! is at least once, and a repeat carries the same identity (push `Topic`, e-mail `Message-ID`,
//! both made of the entry's tag).

use std::sync::Arc;

use futures::StreamExt as _;
use secrecy::ExposeSecret as _;
use serde::Serialize;

use super::mail::{MailOutcome, MailTexts, Mailer};
use super::push_send::{topic, PushOutcome, PushSender};
use super::{DeliverySettings, NotificationSettings};
use crate::app::retention::{cut_off, in_batches, BATCH as PRUNE_BATCH};
use crate::store::deliveries::{Channel, Claim, Delivery, Finish, Target};
use crate::store::{Instant, StoreResult};
use crate::stores::Stores;

/// Sends in flight at once, and deliveries claimed per round trip: a claimed delivery is sent
/// at once, so its lease is not spent waiting behind others of its batch (with 100 claimed and
/// 32 sent at a time, slow sends outlasted the lease and another replica sent the same rows
/// again: the fault suite's two replicas).
pub const CONCURRENCY: usize = 32;

/// How one send went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    Delivered,
    /// The push subscription has expired (404/410).
    Gone,
    Retry(String),
    Rejected(String),
    /// The subscription ended after the row was written: nothing was sent.
    Unsubscribed,
}

/// What a round did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Round {
    pub delivered: usize,
    pub retried: usize,
    pub failed: usize,
    pub gone: usize,
    /// Sent, but the claim had run out and another worker took the row: not recorded.
    pub lost_claims: usize,
    /// Given up unsent: older than `max_age_hours`.
    pub expired: usize,
}

impl Round {
    /// Deliveries the round handled.
    pub fn total(&self) -> usize {
        self.delivered + self.retried + self.failed + self.gone + self.expired
    }
}

/// The push message's payload (what the service worker shows).
#[derive(Serialize)]
struct Payload<'a> {
    title: &'a str,
    body: Option<&'a str>,
    url: Option<&'a str>,
    tag: &'a str,
}

/// Sends due deliveries of one database.
#[derive(Clone)]
pub struct Deliverer {
    stores: Stores,
    push: Option<PushSender>,
    mail: Option<Mailer>,
    settings: DeliverySettings,
}

impl Deliverer {
    /// A deliverer with the given senders (a channel without one is left undelivered).
    pub fn new(
        stores: Stores,
        push: Option<PushSender>,
        mail: Option<Mailer>,
        settings: DeliverySettings,
    ) -> Self {
        Self {
            stores,
            push,
            mail,
            settings,
        }
    }

    /// The senders of `settings`: a bad VAPID key or SMTP URL is an error naming the key.
    pub fn from_settings(
        settings: &NotificationSettings,
        stores: Stores,
        default_locale: i18n::Locale,
    ) -> anyhow::Result<Self> {
        let push = match &settings.webpush.vapid_private_key {
            Some(key) => Some(
                PushSender::new(
                    key.expose_secret(),
                    &settings.webpush.vapid_subject,
                    settings.webpush.ttl_secs,
                )
                .map_err(|err| {
                    anyhow::anyhow!("notifications.webpush.vapid_private_key: {err:#}")
                })?,
            ),
            None => None,
        };
        let mail = Mailer::new(&settings.email, default_locale)?;
        Ok(Self::new(stores, push, mail, settings.delivery.clone()))
    }

    /// The channels this deliverer can send on.
    pub fn channels(&self) -> Vec<Channel> {
        let mut channels = Vec::new();
        if self.push.is_some() {
            channels.push(Channel::WebPush);
        }
        if self.mail.is_some() {
            channels.push(Channel::Email);
        }
        channels
    }

    /// Claims up to `limit` due deliveries under a lease of `lease_secs` from `now`.
    pub async fn claim_due(&self, limit: u32, now: Instant) -> StoreResult<Vec<Delivery>> {
        let channels = self.channels();
        if channels.is_empty() {
            return Ok(Vec::new());
        }
        let lease = chrono::TimeDelta::seconds(
            i64::try_from(self.settings.lease_secs).unwrap_or(i64::MAX / 1_000_000),
        );
        self.stores
            .deliveries
            .claim_deliveries(Claim {
                channels: &channels,
                limit,
                now,
                lease_until: now + lease,
            })
            .await
    }

    /// Deletes the deliveries that ended (done or failed) more than `retain_days` before `now`,
    /// in batches; how many. Nothing with `retain_days = 0`.
    pub async fn prune(&self, now: Instant) -> StoreResult<u64> {
        let age = chrono::TimeDelta::days(i64::from(self.settings.retain_days));
        let Some(before) = cut_off(now, age) else {
            return Ok(0);
        };
        in_batches(|| self.stores.deliveries.prune_deliveries(before, PRUNE_BATCH)).await
    }

    /// Gives up the open deliveries written more than `max_age_hours` before `now` (not those
    /// under a live lease), in batches; how many. Nothing with `max_age_hours = 0`.
    pub async fn expire(&self, now: Instant) -> StoreResult<u64> {
        let age = chrono::TimeDelta::hours(i64::from(self.settings.max_age_hours));
        let Some(before) = cut_off(now, age) else {
            return Ok(0);
        };
        in_batches(|| {
            self.stores
                .deliveries
                .expire_deliveries(before, now, PRUNE_BATCH)
        })
        .await
    }

    /// Sends one claimed delivery (records nothing).
    pub async fn send(&self, delivery: &Delivery, now: Instant) -> Sent {
        let tag = delivery.key.tag.as_str();
        match (&delivery.target, &self.push, &self.mail) {
            (Target::WebPush(sub), Some(push), _) => {
                let payload = Payload {
                    title: &delivery.title,
                    body: delivery.body.as_deref(),
                    url: delivery.url.as_deref(),
                    tag,
                };
                let payload = match serde_json::to_vec(&payload) {
                    Ok(payload) => payload,
                    Err(err) => return Sent::Rejected(err.to_string()),
                };
                match push.send(sub, &payload, &topic(tag), now.timestamp()).await {
                    Ok(PushOutcome::Delivered) => Sent::Delivered,
                    Ok(PushOutcome::Gone) => Sent::Gone,
                    Ok(PushOutcome::Retry(why)) => Sent::Retry(why),
                    Ok(PushOutcome::Rejected(status)) => {
                        Sent::Rejected(format!("push service answered {status}"))
                    }
                    Err(err) => Sent::Rejected(format!("{err:#}")),
                }
            }
            (Target::Email(sub), _, Some(mail)) => {
                let texts = MailTexts {
                    tag,
                    title: &delivery.title,
                    body: delivery.body.as_deref(),
                    url: delivery.url.as_deref(),
                };
                match mail.send(sub, texts).await {
                    MailOutcome::Delivered => Sent::Delivered,
                    MailOutcome::Retry(why) => Sent::Retry(why),
                    MailOutcome::Rejected(why) => Sent::Rejected(why),
                }
            }
            (Target::Unsubscribed, _, _) => Sent::Unsubscribed,
            // Not claimed without its sender; should the settings change under a claim, retry.
            _ => Sent::Retry("channel not configured".into()),
        }
    }

    /// The row's new state after `sent` on attempt `attempts`.
    pub fn finish(&self, attempts: u32, sent: &Sent, now: Instant) -> Finish {
        match sent {
            Sent::Delivered => Finish::Delivered,
            Sent::Gone => Finish::Gone,
            Sent::Rejected(why) => Finish::Failed(why.clone()),
            Sent::Unsubscribed => Finish::Failed("unsubscribed".into()),
            Sent::Retry(why) if attempts >= self.settings.max_attempts => {
                Finish::Failed(format!("gave up after {attempts} attempts: {why}"))
            }
            Sent::Retry(why) => Finish::RetryAt {
                at: now + backoff(&self.settings, attempts),
                error: why.clone(),
            },
        }
    }

    /// Records how a claimed delivery went; `false` when the claim's lease had run out and
    /// another worker took the row meanwhile (its outcome is then that worker's to record).
    pub async fn record(
        &self,
        delivery: &Delivery,
        sent: &Sent,
        now: Instant,
    ) -> StoreResult<bool> {
        let finish = self.finish(delivery.attempts, sent, now);
        self.stores
            .deliveries
            .finish_delivery(&delivery.key, delivery.lease_until, &finish, now)
            .await
    }

    /// Gives up the deliveries past their maximum age, then claims, sends and records due
    /// deliveries until none is left, all at the instant `now` (tests; the worker's loop runs
    /// [`Self::run_with`] on its clock).
    pub async fn run_once(&self, now: Instant) -> StoreResult<Round> {
        self.run_with(&service_kit::clock::ManualClock::new(now))
            .await
    }

    /// [`Self::run_once`] reading `clock` for each claim (its lease starts when it is taken) and
    /// for each outcome (a retry's back-off counts from the failure, not from the round's
    /// start).
    pub async fn run_with(&self, clock: &dyn service_kit::clock::Clock) -> StoreResult<Round> {
        let mut round = Round {
            expired: usize::try_from(self.expire(clock.now()).await?).unwrap_or(usize::MAX),
            ..Round::default()
        };
        let batch = u32::try_from(CONCURRENCY).unwrap_or(u32::MAX);
        loop {
            let claimed = self.claim_due(batch, clock.now()).await?;
            let count = claimed.len();
            let results: Vec<StoreResult<Option<Finish>>> = futures::stream::iter(claimed)
                .map(|delivery| async move {
                    let sent = self.send(&delivery, clock.now()).await;
                    let now = clock.now();
                    let finish = self.finish(delivery.attempts, &sent, now);
                    let recorded = self
                        .stores
                        .deliveries
                        .finish_delivery(&delivery.key, delivery.lease_until, &finish, now)
                        .await?;
                    if !recorded {
                        tracing::warn!(
                            tag = %delivery.key.tag,
                            "delivery outcome not recorded: the claim ran out during the send"
                        );
                    }
                    Ok(recorded.then_some(finish))
                })
                .buffer_unordered(CONCURRENCY)
                .collect()
                .await;
            for result in results {
                match result? {
                    Some(Finish::Delivered) => round.delivered += 1,
                    Some(Finish::RetryAt { .. }) => round.retried += 1,
                    Some(Finish::Failed(_)) => round.failed += 1,
                    Some(Finish::Gone) => round.gone += 1,
                    None => round.lost_claims += 1,
                }
            }
            if count < CONCURRENCY {
                return Ok(round);
            }
        }
    }
}

/// The delay before attempt `attempts + 1`: the base doubled per attempt after the first, at
/// most the cap.
pub fn backoff(settings: &DeliverySettings, attempts: u32) -> chrono::TimeDelta {
    let doublings = attempts.saturating_sub(1).min(40);
    let secs = settings
        .backoff_base_secs
        .saturating_mul(1u64 << doublings)
        .min(settings.backoff_max_secs);
    chrono::TimeDelta::seconds(i64::try_from(secs).unwrap_or(i64::MAX / 1_000_000))
}

/// Builds the deliverer (failing on a bad VAPID key or SMTP URL) and, when
/// `notifications.delivery.enabled`, runs its loop on the current runtime. Logs which channels
/// are delivered.
pub fn start(
    settings: &NotificationSettings,
    stores: Stores,
    clock: Arc<dyn service_kit::clock::Clock>,
    default_locale: i18n::Locale,
) -> anyhow::Result<Option<tokio::task::JoinHandle<()>>> {
    let digests = super::digest::DigestWriter::from_settings(
        &settings.digest,
        stores.clone(),
        default_locale,
    )?;
    let deliverer = Deliverer::from_settings(settings, stores, default_locale)?;
    if !settings.delivery.enabled {
        tracing::info!("notification delivery is off (notifications.delivery.enabled)");
        return Ok(None);
    }
    if deliverer.push.is_none() {
        tracing::warn!(
            "web push is not delivered: notifications.webpush.vapid_private_key is not set"
        );
    }
    if deliverer.mail.is_none() {
        tracing::warn!("e-mail is not delivered: notifications.email.smtp_url is not set");
    }
    let pause = std::time::Duration::from_millis(settings.delivery.poll_millis.max(10));
    Ok(Some(tokio::spawn(async move {
        let mut pruned_at: Option<Instant> = None;
        loop {
            let now = clock.now();
            if pruned_at.is_none_or(|at| now - at >= chrono::TimeDelta::hours(1)) {
                pruned_at = Some(now);
                match deliverer.prune(now).await {
                    Ok(0) => {}
                    Ok(deleted) => tracing::info!(deleted, "ended notification deliveries pruned"),
                    Err(err) => tracing::warn!(error = %err, "ended deliveries not pruned"),
                }
            }
            match digests.run_once(clock.now()).await {
                Ok(0) => {}
                Ok(written) => tracing::debug!(written, "notification digests written"),
                Err(err) => tracing::warn!(error = %err, "notification digests not written"),
            }
            match deliverer.run_with(clock.as_ref()).await {
                Ok(round) if round.total() == 0 => {}
                Ok(round) => tracing::debug!(?round, "notifications delivered"),
                Err(err) => tracing::warn!(error = %err, "notification delivery failed"),
            }
            tokio::time::sleep(pause).await;
        }
    })))
}
