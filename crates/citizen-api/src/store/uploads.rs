//! Files written to the media store that no committed row owns yet (`pending_uploads`): each
//! gets its row before its bytes are written, so every stored file is named by a row from the
//! moment it exists. The transaction that inserts a file's `media` row deletes its pending row
//! (`IssueTx::insert_report`, `IssueTx::insert_statement`); what a dead request left is found
//! by age and swept (`app::pending_uploads`).

use async_trait::async_trait;
use uuid::Uuid;

use super::{Instant, StoreResult};

/// The pending-upload rows.
#[async_trait]
pub trait UploadStore: Send + Sync + 'static {
    /// Records (and commits) that `media_id` is about to be written at `now`.
    async fn record_pending(&self, media_id: Uuid, now: Instant) -> StoreResult<()>;

    /// Deletes the pending rows of `media_ids` (their files are kept, answered to an editor, or
    /// removed already); the rows deleted.
    async fn forget_pending(&self, media_ids: &[Uuid]) -> StoreResult<u64>;

    /// Takes at most `limit` pending rows written (or last taken) before `before` for the sweep:
    /// marks them taken at `now` and returns their media ids. A taken row's file can no longer
    /// be committed (its filing fails), and a row taken by a sweep that died is taken again
    /// after the same age.
    async fn take_stale(&self, before: Instant, now: Instant, limit: u32)
        -> StoreResult<Vec<Uuid>>;
}
