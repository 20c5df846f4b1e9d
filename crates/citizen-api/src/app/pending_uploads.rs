//! The pending-upload sweep (docs/citizen-api/filing.md, "Nothing left behind"): a file whose
//! pending-upload row is older than `media.pending_max_age_minutes` belongs to a request that
//! died between writing it and committing its row (a killed process, a database gone for good);
//! the sweep deletes the file, then the row. Every replica may sweep; the database hands each
//! row to one sweep (`UploadStore::take_stale`), and a filing still committing a taken file
//! fails (503) instead of keeping a `media` row without its file.
//!
//! Why rows and not a listing of the store: a listing of S3 costs a request per thousand
//! objects, all of them, on every sweep, and needs every table that names a file to tell the
//! unreferenced ones; the rows name exactly the files at risk, on the local folder and on S3
//! alike, for one small insert per file.

use std::sync::Arc;

use chrono::TimeDelta;

use super::retention::BATCH;
use crate::media::MediaStore;
use crate::store::uploads::UploadStore;
use crate::store::{Instant, StoreResult};

/// How long a file may be pending (`media.pending_max_age_minutes`).
pub fn max_age(minutes: u32) -> TimeDelta {
    TimeDelta::minutes(i64::from(minutes))
}

/// Deletes the files (then the rows) of the pending uploads written more than `age` before
/// `now`; how many files went. A file that cannot be deleted keeps its (taken) row and is tried
/// again after the same age.
#[tracing::instrument(name = "pending_upload_sweep", skip_all)]
pub async fn sweep(
    uploads: &dyn UploadStore,
    media: &MediaStore,
    age: TimeDelta,
    now: Instant,
) -> StoreResult<u64> {
    let Some(before) = now.checked_sub_signed(age) else {
        return Ok(0);
    };
    let mut swept = 0;
    loop {
        let taken = uploads.take_stale(before, now, BATCH).await?;
        let mut deleted = Vec::with_capacity(taken.len());
        for &media_id in &taken {
            match media.delete(media_id).await {
                Ok(()) => deleted.push(media_id),
                Err(err) => {
                    tracing::warn!(%media_id, error = %err, "could not remove an abandoned upload")
                }
            }
        }
        swept += uploads.forget_pending(&deleted).await?;
        if taken.len() < BATCH as usize {
            return Ok(swept);
        }
    }
}

/// Sweeps every `media.pending_sweep_interval_minutes` (the first at once) until the task is
/// aborted: the pending uploads, then the `Idempotency-Key`s older than `idempotency_ttl`
/// (`app::idempotency`, the filing's other leftovers); `None` when the sweep is off (0).
pub fn start(
    stores: &crate::store::composition::Stores,
    media: MediaStore,
    settings: &crate::media::MediaSettings,
    idempotency_ttl: TimeDelta,
    clock: Arc<dyn service_kit::clock::Clock>,
) -> Option<tokio::task::JoinHandle<()>> {
    if settings.pending_sweep_interval_minutes == 0 {
        tracing::info!(
            "the pending-upload sweep is off (media.pending_sweep_interval_minutes = 0)"
        );
        return None;
    }
    let pause =
        std::time::Duration::from_secs(u64::from(settings.pending_sweep_interval_minutes) * 60);
    let age = max_age(settings.pending_max_age_minutes);
    let (uploads, keys) = (stores.uploads.clone(), stores.idempotency.clone());
    Some(tokio::spawn(async move {
        loop {
            match sweep(uploads.as_ref(), &media, age, clock.now()).await {
                Ok(0) => {}
                Ok(files) => {
                    tracing::info!(files, "pending-upload sweep removed abandoned uploads")
                }
                Err(err) => {
                    tracing::warn!(error = %err, "pending-upload sweep failed; next one later")
                }
            }
            match super::idempotency::sweep(keys.as_ref(), idempotency_ttl, clock.now()).await {
                Ok(0) => {}
                Ok(keys) => tracing::info!(keys, "expired Idempotency-Keys deleted"),
                Err(err) => {
                    tracing::warn!(error = %err, "Idempotency-Key sweep failed; next one later")
                }
            }
            tokio::time::sleep(pause).await;
        }
    }))
}
