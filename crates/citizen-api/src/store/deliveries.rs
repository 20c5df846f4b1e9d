//! Deliveries of feed entries over web push and e-mail: one row per entry and channel target,
//! written by the outbox drain, claimed with a lease by the delivery worker, and finished as
//! delivered, retried later, or failed.

use async_trait::async_trait;

use super::notifications::{EmailSubscription, PushSubscription};
use super::{Instant, StoreResult};

/// A delivery's channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    WebPush,
    Email,
}

impl Channel {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::WebPush => "webpush",
            Self::Email => "email",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        match text {
            "webpush" => Some(Self::WebPush),
            "email" => Some(Self::Email),
            _ => None,
        }
    }
}

/// Which row: the entry's tag, the channel, and the target (a push endpoint, or the e-mail
/// subscriber's subject).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryKey {
    pub tag: String,
    pub channel: Channel,
    pub target: String,
}

/// Where a claimed delivery goes, as the subscription is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    WebPush(PushSubscription),
    Email(EmailSubscription),
    /// The subscription has ended since the row was written: nothing to send.
    Unsubscribed,
}

/// A claimed delivery with what is sent: the feed entry's texts (already in the recipient's
/// language).
#[derive(Debug, Clone, PartialEq)]
pub struct Delivery {
    pub key: DeliveryKey,
    /// Claims so far, this one included.
    pub attempts: u32,
    pub title: String,
    pub body: Option<String>,
    pub url: Option<String>,
    pub target: Target,
    /// The end of this claim's lease: its outcome is recorded only while the row still carries
    /// it (a worker that records after its lease ran out and another claimed the row changes
    /// nothing).
    pub lease_until: Instant,
}

/// How a delivery ends (or does not yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Accepted by the push service or the mail server.
    Delivered,
    /// Not now: claim it again at `at`.
    RetryAt { at: Instant, error: String },
    /// Given up (refused, or out of attempts).
    Failed(String),
    /// The push service says the subscription has expired: the row fails and the web push
    /// subscription is removed.
    Gone,
}

/// A claimed delivery from the claim query's row (`tag`, `channel`, `target`, `attempts` with
/// the claim's own, `title`, `body`, `url`, and the subscription's `p256dh`/`auth` or
/// `email`/`unsubscribe_token`, null when the subscription ended).
pub(crate) fn delivery_from_row<R>(row: &R, lease_until: Instant) -> StoreResult<Delivery>
where
    R: sqlx::Row,
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> &'r str: sqlx::ColumnIndex<R>,
{
    let attempts: i64 = row.try_get("attempts")?;
    let attempts = u32::try_from(attempts).unwrap_or(0);
    let text = |column: &str| -> StoreResult<Option<String>> { Ok(row.try_get(column)?) };
    let channel: String = row.try_get("channel")?;
    let channel = Channel::parse(&channel).ok_or_else(|| {
        super::StoreError::Other(anyhow::anyhow!("unknown delivery channel {channel}"))
    })?;
    let target: String = row.try_get("target")?;
    let found = match channel {
        Channel::WebPush => text("p256dh")?.zip(text("auth")?).map(|(p256dh, auth)| {
            Target::WebPush(PushSubscription {
                endpoint: target.clone(),
                p256dh,
                auth,
                locale: None,
            })
        }),
        Channel::Email => {
            // The language the entry's texts were written in (the account's notification
            // settings, else the subscription's), for the footer.
            let locale = text("locale")?;
            text("email")?
                .zip(text("unsubscribe_token")?)
                .map(|(email, unsubscribe_token)| {
                    Target::Email(EmailSubscription {
                        email,
                        locale,
                        unsubscribe_token,
                    })
                })
        }
    };
    Ok(Delivery {
        key: DeliveryKey {
            tag: row.try_get("tag")?,
            channel,
            target,
        },
        attempts,
        title: row.try_get("title")?,
        body: text("body")?,
        url: text("url")?,
        target: found.unwrap_or(Target::Unsubscribed),
        lease_until,
    })
}

/// What a delivery worker claims at `now`: up to `limit` due rows of `channels`, held until
/// `lease_until`.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    pub channels: &'a [Channel],
    pub limit: u32,
    pub now: Instant,
    pub lease_until: Instant,
}

#[async_trait]
pub trait DeliveryStore: Send + Sync + 'static {
    /// Claims up to `claim.limit` due deliveries of its channels (oldest due first; rows
    /// another worker holds under a lease are skipped): each gets `claimed_until =
    /// claim.lease_until` and one more attempt.
    async fn claim_deliveries(&self, claim: Claim<'_>) -> StoreResult<Vec<Delivery>>;

    /// Records how a claimed delivery went, if the claim (`lease_until`) still holds; `false`
    /// when it ran out and another worker claimed the row since (nothing is changed then).
    async fn finish_delivery(
        &self,
        key: &DeliveryKey,
        lease_until: Instant,
        finish: &Finish,
        now: Instant,
    ) -> StoreResult<bool>;

    /// Deletes up to `limit` deliveries that ended (done or failed) before `before`; how many
    /// were deleted. Open rows are never touched.
    async fn prune_deliveries(&self, before: Instant, limit: u32) -> StoreResult<u64>;

    /// Gives up (fails, `last_error = 'expired'`) up to `limit` open deliveries written before
    /// `written_before` and not under a live lease at `now`; how many. Sent late, they would
    /// be noise: the feed still holds the entry.
    async fn expire_deliveries(
        &self,
        written_before: Instant,
        now: Instant,
        limit: u32,
    ) -> StoreResult<u64>;

    /// Ends the e-mails of the subscription with this unsubscribe token; `false` when no
    /// subscription has it.
    async fn unsubscribe_email(&self, token: &str) -> StoreResult<bool>;
}
