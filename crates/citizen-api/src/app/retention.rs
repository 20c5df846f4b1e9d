//! Keeping nothing longer than needed (GDPR Art. 5(1)(e); docs/privacy.md, "Retention"): the
//! sweep that deletes, in bounded batches, what is past its time. Every replica may sweep; two
//! sweeps at once delete each row once.

use std::sync::Arc;

use chrono::TimeDelta;

use crate::store::privacy::PrivacyStore;
use crate::store::{Instant, StoreResult};

/// The settings' section `privacy.*` (docs/privacy.md): how long an export's link works and
/// what the sweep deletes when.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivacySettings {
    /// How long the link of a citizen's data export works, in hours (1 to 168).
    pub export_valid_hours: u32,
    /// Feed entries (and digest records) older than this many days are deleted; 0 keeps them.
    pub feed_retain_days: u32,
    /// The detail of officers' events older than this many days is cleared (the action, its
    /// actor and time stay); 0 keeps it.
    pub audit_detail_retain_days: u32,
    /// Minutes between two retention sweeps of a replica; 0 turns the sweep off.
    pub sweep_interval_minutes: u32,
}

impl PrivacySettings {
    /// How long an export's link works.
    pub fn export_valid(&self) -> TimeDelta {
        TimeDelta::hours(i64::from(self.export_valid_hours))
    }
}

/// Rows one statement of a sweep (or of the delivery log's pruning) changes at most.
pub const BATCH: u32 = 1000;

/// What one sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Feed entries deleted (their delivery rows went with them).
    pub feed: u64,
    pub digests: u64,
    /// Officers' events whose detail was cleared.
    pub event_details: u64,
    /// Expired export links deleted.
    pub exports: u64,
}

impl Swept {
    pub fn total(&self) -> u64 {
        self.feed + self.digests + self.event_details + self.exports
    }
}

/// `age` before `now`: `None` for an age of zero (no limit), and for a setting so large that the
/// cut-off falls before chrono's calendar (nothing is that old).
pub fn cut_off(now: Instant, age: TimeDelta) -> Option<Instant> {
    if age.is_zero() {
        return None;
    }
    now.checked_sub_signed(age)
}

/// Runs `step` (one statement over at most [`BATCH`] rows) until a batch comes back short; the
/// rows of all batches.
pub async fn in_batches<F, Fut>(mut step: F) -> StoreResult<u64>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = StoreResult<u64>>,
{
    let mut total = 0;
    loop {
        let done = step().await?;
        total += done;
        if done < u64::from(BATCH) {
            return Ok(total);
        }
    }
}

/// Deletes what is past its time at `now` under `settings`.
#[tracing::instrument(name = "retention_sweep", skip_all)]
pub async fn sweep(
    store: &dyn PrivacyStore,
    settings: &PrivacySettings,
    now: Instant,
) -> StoreResult<Swept> {
    let days = |n: u32| TimeDelta::days(i64::from(n));
    let mut swept = Swept::default();
    if let Some(before) = cut_off(now, days(settings.feed_retain_days)) {
        swept.feed = in_batches(|| store.delete_feed_before(before, BATCH)).await?;
        swept.digests = in_batches(|| store.delete_digests_before(before, BATCH)).await?;
    }
    if let Some(before) = cut_off(now, days(settings.audit_detail_retain_days)) {
        swept.event_details =
            in_batches(|| store.clear_event_details_before(before, BATCH)).await?;
    }
    swept.exports = in_batches(|| store.delete_expired_exports(now, BATCH)).await?;
    Ok(swept)
}

/// Sweeps every `privacy.sweep_interval_minutes` (the first at once) until the task is
/// aborted; `None` when the sweep is off.
pub fn start(
    store: Arc<dyn PrivacyStore>,
    settings: PrivacySettings,
    clock: Arc<dyn service_kit::clock::Clock>,
) -> Option<tokio::task::JoinHandle<()>> {
    if settings.sweep_interval_minutes == 0 {
        tracing::info!("the retention sweep is off (privacy.sweep_interval_minutes = 0)");
        return None;
    }
    let pause = std::time::Duration::from_secs(u64::from(settings.sweep_interval_minutes) * 60);
    Some(tokio::spawn(async move {
        loop {
            let started = std::time::Instant::now();
            match sweep(store.as_ref(), &settings, clock.now()).await {
                Ok(swept) if swept.total() == 0 => {}
                Ok(swept) => tracing::info!(
                    ?swept,
                    elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                    "retention sweep deleted what is past its time"
                ),
                Err(err) => tracing::warn!(error = %err, "retention sweep failed; next one later"),
            }
            tokio::time::sleep(pause).await;
        }
    }))
}
