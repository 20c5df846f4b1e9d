//! The row cache filled after the list index loads (`list_index::Warm`): the newest listed
//! issues, as many as the cache holds (`reports.row_cache_entries`), are read by id in batches
//! and written as the list writes them. With a cache sized above the issue count, every page
//! from the index, nearest first from any place included, then finds its rows in memory; the
//! default size keeps the newest pages warm.

use std::sync::Arc;

use async_trait::async_trait;
use uuid::Uuid;

use super::kept::KeptJson;
use super::rows::keep;
use crate::list_index::Warm;
use crate::media::MediaStore;
use crate::store::ReportStore;

/// Issues read per statement.
const BATCH: usize = 1_000;

/// Fills the list's row cache (module docs).
pub struct RowWarmer {
    pub reports: Arc<dyn ReportStore>,
    pub kept: Arc<KeptJson>,
    pub media: MediaStore,
    /// The cache's size.
    pub capacity: usize,
}

#[async_trait]
impl Warm for RowWarmer {
    fn capacity(&self) -> usize {
        self.capacity
    }

    async fn warm(&self, issues: Vec<(Uuid, i64)>) {
        for batch in issues.chunks(BATCH) {
            let missing: Vec<Uuid> = batch
                .iter()
                .filter(|(id, version)| self.kept.peek(*id).is_none_or(|(v, _)| v != *version))
                .map(|(id, _)| *id)
                .collect();
            if missing.is_empty() {
                continue;
            }
            let rows = match self.reports.public_rows(&missing).await {
                Ok(rows) => rows,
                Err(err) => {
                    // Pages read what is missing by id; the cache fills as they do.
                    tracing::warn!(error = format!("{err:#}"), "warming the list rows stopped");
                    return;
                }
            };
            if let Err(err) = keep(&self.kept, rows, &self.media) {
                tracing::warn!(error = %err, "writing a list row failed");
                return;
            }
        }
    }
}
