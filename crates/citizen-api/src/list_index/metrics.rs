//! The list index's metrics (docs/operations.md).

use std::sync::atomic::Ordering;

use service_kit::metrics::Metrics;

use super::ListIndex;

impl ListIndex {
    /// Registers `report_list_pages_total{source="index"|"database"}` (public list pages by
    /// date and nearest first) and `admin_report_list_pages_total{source=…}` (officers' pages
    /// by date), by where their rows were found, `report_detail_keys_total{source=…}`
    /// (anonymous details' keys, [`Self::detail_key`]), `list_index_feed_reads_total` and the
    /// gauge `list_index_heads` (rows whose list JSON the index's entries hold,
    /// `Index::keep_head`), filled at every scrape.
    pub fn watch(&self, metrics: &Metrics) -> anyhow::Result<()> {
        let pages = |name: &str, help: &str| -> anyhow::Result<prometheus::IntCounterVec> {
            let counters =
                prometheus::IntCounterVec::new(prometheus::Opts::new(name, help), &["source"])?;
            metrics.registry().register(Box::new(counters.clone()))?;
            Ok(counters)
        };
        let public = pages(
            "report_list_pages_total",
            "Public list pages by date or nearest first, by where their rows were found",
        )?;
        let admin = pages(
            "admin_report_list_pages_total",
            "Officers' list pages by date, by where their rows were found",
        )?;
        let details = pages(
            "report_detail_keys_total",
            "Anonymous report details' versions and vote counts, by where they were found",
        )?;
        let reads = prometheus::IntCounter::new(
            "list_index_feed_reads_total",
            "Reads of the issue feed before index pages (one read serves every page waiting)",
        )?;
        metrics.registry().register(Box::new(reads.clone()))?;
        let heads = prometheus::IntGauge::new(
            "list_index_heads",
            "List rows whose JSON the list index holds with its entries (at most reports.row_cache_entries)",
        )?;
        metrics.registry().register(Box::new(heads.clone()))?;
        let inner = self.inner.clone();
        metrics.add_collector(move |_| {
            let started = inner.started.load(Ordering::Relaxed);
            reads.inc_by(started.saturating_sub(reads.get()));
            // A scrape never waits for the index: while a read holds it, the last figure stays.
            if let Ok(index) = inner.index.try_read() {
                let held = index.as_ref().map_or(0, |index| index.heads());
                heads.set(i64::try_from(held).unwrap_or(i64::MAX));
            }
            for (counters, label, total) in [
                (&public, "index", &inner.pages_index),
                (&public, "database", &inner.pages_database),
                (&admin, "index", &inner.admin_pages_index),
                (&admin, "database", &inner.admin_pages_database),
                (&details, "index", &inner.detail_keys_index),
                (&details, "database", &inner.detail_keys_database),
            ] {
                let counter = counters.with_label_values(&[label]);
                counter.inc_by(total.load(Ordering::Relaxed).saturating_sub(counter.get()));
            }
        });
        Ok(())
    }
}
