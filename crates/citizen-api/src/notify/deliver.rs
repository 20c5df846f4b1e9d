//! The delivery worker: sends feed entries over web push and e-mail. It keeps up to
//! [`CONCURRENCY`] sends under way, claiming due delivery rows with a lease for the places that
//! free up (a send that hangs until its time-out holds one place, never the others), and records
//! each outcome (delivered; the push subscription gone; retried later with exponential backoff;
//! failed). A worker that crashes
//! between sending and recording leaves its rows to be claimed again after the lease: delivery
//! is at least once, and a repeat carries the same identity (push `Topic`, e-mail `Message-ID`,
//! both made of the entry's tag).

use std::sync::Arc;

use secrecy::ExposeSecret as _;
use serde::Serialize;

use super::mail::{MailOutcome, MailTexts, Mailer};
use super::push_send::{topic, PushOutcome, PushSender};
use super::{DeliverySettings, NotificationSettings};
use crate::app::retention::{cut_off, in_batches, BATCH as PRUNE_BATCH};
use crate::store::composition::Stores;
use crate::store::deliveries::{Channel, Claim, Delivery, Finish, Target};
use crate::store::{Instant, StoreResult};
use service_kit::clock::Clock;
use tokio::task::{JoinError, JoinSet};

/// Sends in flight at once. Only free places are claimed for, so a claimed delivery is sent at
/// once and its lease is not spent waiting behind others (with 100 claimed and 32 sent at a
/// time, slow sends outlasted the lease and another replica sent the same rows again: the fault
/// suite's two replicas).
pub const CONCURRENCY: usize = 32;

/// Sends in flight at or below which the free places are claimed for: one claim (a statement)
/// per half of the places at least, and a slow send holds one place, never the others.
const REFILL_AT: usize = CONCURRENCY / 2;

/// The sends under way, each a task (so it goes on while the worker claims, and never holds a
/// pool connection the claim waits for) ending with its outcome as recorded (`None`: the claim
/// had run out during the send and another worker took the row).
type Sending = JoinSet<StoreResult<Option<Finish>>>;

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

    /// Counts one send's recorded outcome.
    fn count(&mut self, recorded: Option<Finish>) {
        match recorded {
            Some(Finish::Delivered) => self.delivered += 1,
            Some(Finish::RetryAt { .. }) => self.retried += 1,
            Some(Finish::Failed(_)) => self.failed += 1,
            Some(Finish::Gone) => self.gone += 1,
            None => self.lost_claims += 1,
        }
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

    /// Sends a claimed delivery and records how it went, reading `clock` for the send and for
    /// the outcome (a retry's back-off counts from the failure): `None` when the claim ran out
    /// during the send and the outcome was not recorded.
    async fn deliver(&self, delivery: Delivery, clock: &dyn Clock) -> StoreResult<Option<Finish>> {
        let sent = self.send(&delivery, clock.now()).await;
        let now = clock.now();
        if !self.record(&delivery, &sent, now).await? {
            tracing::warn!(
                tag = %delivery.key.tag,
                "delivery outcome not recorded: the claim ran out during the send"
            );
            return Ok(None);
        }
        Ok(Some(self.finish(delivery.attempts, &sent, now)))
    }

    /// Claims due deliveries for the free places of `sending` (their leases start at the claim)
    /// and starts their sends; whether every free place was filled (more may be due).
    async fn top_up(
        self: &Arc<Self>,
        sending: &mut Sending,
        clock: &Arc<dyn Clock>,
    ) -> StoreResult<bool> {
        let free = CONCURRENCY.saturating_sub(sending.len());
        if free == 0 {
            return Ok(true);
        }
        let claimed = self
            .claim_due(u32::try_from(free).unwrap_or(u32::MAX), clock.now())
            .await?;
        let filled = claimed.len() == free;
        for delivery in claimed {
            let (this, clock) = (Arc::clone(self), Arc::clone(clock));
            sending.spawn(async move { this.deliver(delivery, clock.as_ref()).await });
        }
        Ok(filled)
    }

    /// Gives up the deliveries past their maximum age, then claims, sends and records due
    /// deliveries until none is left, all at the instant `now` (tests and benchmarks; the
    /// worker's loop keeps sending as it goes, [`start`]).
    pub async fn run_once(&self, now: Instant) -> StoreResult<Round> {
        self.run_with(Arc::new(service_kit::clock::ManualClock::new(now)))
            .await
    }

    /// [`Self::run_once`] reading `clock` for each claim and each outcome.
    pub async fn run_with(&self, clock: Arc<dyn Clock>) -> StoreResult<Round> {
        let this = Arc::new(self.clone());
        let mut round = Round {
            expired: usize::try_from(self.expire(clock.now()).await?).unwrap_or(usize::MAX),
            ..Round::default()
        };
        let mut sending = Sending::new();
        let mut more = true;
        loop {
            if more && sending.len() <= REFILL_AT {
                more = this.top_up(&mut sending, &clock).await?;
            }
            match sending.join_next().await {
                Some(joined) => round.count(ended(joined)?),
                None if more => {}
                None => return Ok(round),
            }
        }
    }
}

/// A send task's outcome; one that panicked is logged and counted as a lost claim (its row is
/// sent again once the lease is over).
fn ended(joined: Result<StoreResult<Option<Finish>>, JoinError>) -> StoreResult<Option<Finish>> {
    joined.unwrap_or_else(|err| {
        tracing::error!(error = %err, "a notification send ended without an outcome");
        Ok(None)
    })
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
    let deliverer = Arc::new(deliverer);
    Ok(Some(tokio::spawn(async move {
        let mut pruned_at: Option<Instant> = None;
        let mut round = Round::default();
        // Sends go on while the loop claims more: a send that hangs until its time-out holds
        // its place and no other delivery.
        let mut sending = Sending::new();
        let mut more = false;
        let mut poll = tokio::time::interval(pause);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                Some(joined) = sending.join_next(), if !sending.is_empty() => match ended(joined) {
                    Ok(recorded) => round.count(recorded),
                    Err(err) => tracing::warn!(error = %err, "delivery outcome not recorded"),
                },
                _ = poll.tick() => {
                    if round.total() + round.lost_claims > 0 {
                        tracing::debug!(?round, "notifications delivered");
                        round = Round::default();
                    }
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
                    match deliverer.expire(clock.now()).await {
                        Ok(0) => {}
                        Ok(expired) => round.expired += usize::try_from(expired).unwrap_or(usize::MAX),
                        Err(err) => tracing::warn!(error = %err, "old deliveries not given up"),
                    }
                    more = true;
                }
            }
            if more && sending.len() <= REFILL_AT {
                more = match deliverer.top_up(&mut sending, &clock).await {
                    Ok(filled) => filled,
                    Err(err) => {
                        tracing::warn!(error = %err, "notification delivery failed");
                        false
                    }
                };
            }
        }
    })))
}
