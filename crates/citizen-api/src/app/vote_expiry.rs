//! The vote expiry sweep (issue 55, docs/decisions.md "Kept vote counts"): a report's
//! `votes_count` is kept by the vote operations, and a token that expires (`votes.expiry`) stops
//! counting when a sweep reaches it. Every replica sweeps each `votes.expiry_sweep_seconds`; the
//! store lets one sweep at a time do the work. Until the first sweep after a token's expiry, the
//! lists and the detail still count it; the vote pool never does (it counts at the request's
//! instant).

use std::sync::Arc;

use crate::app::retention::{in_batches, BATCH};
use crate::store::votes::VoteStore;
use crate::store::{Instant, StoreResult};

/// Stops every token that has expired at `now` counting, in batches; how many did.
#[tracing::instrument(name = "vote_expiry_sweep", skip_all)]
pub async fn sweep(store: &dyn VoteStore, now: Instant) -> StoreResult<u64> {
    in_batches(|| async {
        // Another replica sweeping: it finishes the work, this round ends (a short batch).
        Ok(store.expire_votes(now, BATCH).await?.unwrap_or(0))
    })
    .await
}

/// Sweeps every `interval_seconds` (the first at once, which also catches up after downtime)
/// until the task is aborted; `None` when the sweep is off (0).
pub fn start(
    store: Arc<dyn VoteStore>,
    interval_seconds: u32,
    clock: Arc<dyn service_kit::clock::Clock>,
) -> Option<tokio::task::JoinHandle<()>> {
    if interval_seconds == 0 {
        tracing::info!("the vote expiry sweep is off (votes.expiry_sweep_seconds = 0)");
        return None;
    }
    let pause = std::time::Duration::from_secs(u64::from(interval_seconds));
    Some(tokio::spawn(async move {
        loop {
            match sweep(store.as_ref(), clock.now()).await {
                Ok(0) => {}
                Ok(expired) => tracing::info!(expired, "expired vote tokens stopped counting"),
                Err(err) => {
                    tracing::warn!(error = %err, "vote expiry sweep failed; next one later")
                }
            }
            tokio::time::sleep(pause).await;
        }
    }))
}
