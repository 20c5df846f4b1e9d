//! The row cache filled after the list index loads (`list_index::Warm`): the newest listed
//! issues, as many as the cache holds (`reports.row_cache_entries`), are read by id in batches
//! and written as the list writes them, in the order they are handed over (by place), and
//! handed back for the index's entries to hold. With a cache sized above the issue count,
//! every page from the index, nearest first from any place included, then finds its rows in
//! memory; the default size keeps the newest pages warm.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use uuid::Uuid;

use super::kept::KeptJson;
use super::rows::keep;
use crate::list_index::{HeadAt, Warm};
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

    async fn warm(&self, issues: &[(Uuid, i64)]) -> Option<Vec<HeadAt>> {
        let mut held = Vec::with_capacity(issues.len());
        for batch in issues.chunks(BATCH) {
            let mut missing = Vec::new();
            for (id, version) in batch {
                match self.kept.peek(*id) {
                    Some((kept, head)) if kept == *version => held.push((*id, kept, head)),
                    _ => missing.push(*id),
                }
            }
            if missing.is_empty() {
                continue;
            }
            let mut rows = match self.reports.public_rows(&missing).await {
                Ok(rows) => rows,
                Err(err) => {
                    // Pages read what is missing by id; the cache fills as they do.
                    tracing::warn!(error = format!("{err:#}"), "warming the list rows stopped");
                    return None;
                }
            };
            // Written (and their memory taken) in the order asked: neighbours side by side.
            let asked: HashMap<Uuid, usize> =
                missing.iter().zip(0..).map(|(id, at)| (*id, at)).collect();
            rows.sort_by_key(|row| asked.get(&row.issue_id).copied());
            let versions: HashMap<Uuid, i64> =
                rows.iter().map(|row| (row.issue_id, row.version)).collect();
            match keep(&self.kept, rows, &self.media) {
                Ok(written) => held.extend(written.into_iter().filter_map(|(id, head)| {
                    versions.get(&id).map(|version| (id, *version, head))
                })),
                Err(err) => {
                    tracing::warn!(error = %err, "writing a list row failed");
                    return None;
                }
            }
        }
        Some(held)
    }
}
