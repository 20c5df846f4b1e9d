//! The public list's rows written out, and the replica's row cache.
//!
//! A list page is 100 rows of ~400 bytes of JSON each; reading, decoding and writing their text
//! was most of a page's work (docs/benchmarks.md). The content of a row changes only when its
//! issue row in the database does, and each update moves that row's `row_version` (a trigger,
//! migration 0021). So each replica keeps the JSON it wrote for a row under the issue's id with
//! the version it was written from. A page's statement reads only each row's id, version, point
//! and vote count ([`IssueRowKey`]); the rows whose version the cache holds are copied from it,
//! the others are read ([`ReportStore::public_rows`]), written and kept. A write through any
//! replica (or by SQL) moves the version, so an answer is never staler than the statement that
//! found its rows. What changes with the request, the vote count (expiry is against the
//! request's instant) and the distance, is written after the kept part.
//!
//! [`ReportStore::public_rows`]: crate::store::ReportStore::public_rows

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use domain::geo::{distance_m, LocationParam};
use domain::limits::Page;
use quick_cache::sync::Cache;
use service_kit::metrics::Metrics;
use uuid::Uuid;

use super::super::model::{round_cm, Report, View};
use crate::media::MediaStore;
use crate::store::{IssueRow, IssueRowKey};

/// What [`head`] leaves off the end of a row's JSON: the vote count the serialisation ends
/// with when written with no votes and no distance (`votes_count` is the last field of the
/// model that is always there, `distance` the only one after it).
const TAIL: &str = ",\"votes_count\":0}";

/// A row's JSON up to the vote count, for one version of its issue row.
#[derive(Debug)]
struct Kept {
    version: i64,
    head: Arc<str>,
}

/// The replica's written rows, by issue id (`reports.row_cache_entries`; `None` when 0), and
/// how many rows of pages it answered and how many it had to read.
pub struct RowCache {
    rows: Option<Cache<Uuid, Arc<Kept>>>,
    hits: Arc<AtomicU64>,
    misses: Arc<AtomicU64>,
}

impl RowCache {
    /// A cache of at most `entries` rows (0: none kept).
    pub fn new(entries: usize) -> Self {
        Self {
            rows: (entries > 0).then(|| Cache::new(entries)),
            hits: Arc::default(),
            misses: Arc::default(),
        }
    }

    /// Registers `report_list_rows_total{source="cache"|"database"}`: the public list's rows
    /// by where their content came from, filled at every scrape.
    pub fn watch(&self, metrics: &Metrics) -> anyhow::Result<()> {
        let rows = prometheus::IntCounterVec::new(
            prometheus::Opts::new(
                "report_list_rows_total",
                "Rows of public report list pages by where their content was read from",
            ),
            &["source"],
        )?;
        metrics.registry().register(Box::new(rows.clone()))?;
        let (hits, misses) = (self.hits.clone(), self.misses.clone());
        metrics.add_collector(move |_| {
            for (label, total) in [("cache", &hits), ("database", &misses)] {
                let counter = rows.with_label_values(&[label]);
                counter.inc_by(total.load(Ordering::Relaxed).saturating_sub(counter.get()));
            }
        });
        Ok(())
    }

    /// The kept JSON of the row `key` names, if it was written from the same version.
    fn get(&self, key: &IssueRowKey) -> Option<Arc<str>> {
        let kept = self.rows.as_ref()?.get(&key.issue_id)?;
        (kept.version == key.version).then(|| kept.head.clone())
    }

    fn put(&self, issue_id: Uuid, version: i64, head: Arc<str>) {
        if let Some(rows) = &self.rows {
            rows.insert(issue_id, Arc::new(Kept { version, head }));
        }
    }
}

/// The public shape (2.1) of a list row up to, without, its vote count and distance (an open
/// JSON object: the caller writes the rest with [`finish`]).
pub fn head(row: IssueRow, media: &MediaStore) -> Result<String, serde_json::Error> {
    let mut report = Report::from_store(row.report, media, View::Public, None);
    report.issue_id = Some(row.issue_id);
    report.category_id = Some(row.category_id);
    report.status = Some(row.status);
    report.votes_count = 0;
    let mut json = serde_json::to_string(&report)?;
    match json.strip_suffix(TAIL) {
        Some(head) => {
            json.truncate(head.len());
            Ok(json)
        }
        None => Err(serde::ser::Error::custom(
            "a list row's JSON does not end with its vote count",
        )),
    }
}

/// Writes the rest of a row after its [`head`]: the vote count, the distance from the list's
/// `location` when both have a point, and the closing brace.
pub fn finish(
    out: &mut Vec<u8>,
    key: &IssueRowKey,
    near: Option<&LocationParam>,
) -> Result<(), serde_json::Error> {
    out.extend_from_slice(b",\"votes_count\":");
    serde_json::to_writer(&mut *out, &key.votes_count)?;
    if let (Some(near), Some(point)) = (near, key.point) {
        out.extend_from_slice(b",\"distance\":");
        serde_json::to_writer(&mut *out, &round_cm(distance_m(near.point, point)))?;
    }
    out.push(b'}');
    Ok(())
}

/// A page as [`ReportList`] writes it: each row its head and the rest ([`finish`]), then the
/// paging fields. A key without a head (its row gone between the page's two statements; issues
/// are never deleted) is left out.
///
/// [`ReportList`]: super::super::model::ReportList
pub fn page_body(
    keys: &[IssueRowKey],
    heads: &[Option<Arc<str>>],
    near: Option<&LocationParam>,
    has_next_offset: bool,
    page: Page,
) -> Result<Vec<u8>, serde_json::Error> {
    let size: usize = heads.iter().flatten().map(|head| head.len() + 48).sum();
    let mut body = Vec::with_capacity(size + 96);
    body.extend_from_slice(b"{\"reports\":[");
    let mut first = true;
    for (key, head) in keys.iter().zip(heads) {
        let Some(head) = head else { continue };
        if !first {
            body.push(b',');
        }
        first = false;
        body.extend_from_slice(head.as_bytes());
        finish(&mut body, key, near)?;
    }
    body.extend_from_slice(b"],");
    let tail = serde_json::to_vec(&ListTail {
        has_next_offset,
        offset: page.offset,
        limit: page.limit,
    })?;
    // `{"hasNextOffset":…}` without its opening brace.
    body.extend_from_slice(tail.get(1..).unwrap_or_default());
    Ok(body)
}

/// The fields of `ReportList` after `reports`, in its order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ListTail {
    has_next_offset: bool,
    offset: u32,
    limit: u32,
}

impl RowCache {
    /// The kept heads of the rows of a page, in the page's order; the rows the cache does not
    /// hold at their version are `None` (to be read and written by [`RowCache::fill`]).
    pub fn heads(&self, keys: &[IssueRowKey]) -> Vec<Option<Arc<str>>> {
        let heads: Vec<_> = keys.iter().map(|key| self.get(key)).collect();
        let hits = heads.iter().flatten().count();
        self.hits.fetch_add(hits as u64, Ordering::Relaxed);
        self.misses
            .fetch_add((heads.len() - hits) as u64, Ordering::Relaxed);
        heads
    }

    /// Writes the rows read for the page's misses, keeps them, and puts each head in its place
    /// of `heads`. A row read at a newer version than its key is written from the newer one (a
    /// write between the page's two statements); a row no longer found stays `None`.
    pub fn fill(
        &self,
        keys: &[IssueRowKey],
        mut heads: Vec<Option<Arc<str>>>,
        rows: Vec<IssueRow>,
        media: &MediaStore,
    ) -> Result<Vec<Option<Arc<str>>>, serde_json::Error> {
        let written = write_all(rows, media, |issue_id, version, head| {
            self.put(issue_id, version, head.clone());
        })?;
        for (key, slot) in keys.iter().zip(heads.iter_mut()) {
            if slot.is_none() {
                *slot = written.get(&key.issue_id).cloned();
            }
        }
        Ok(heads)
    }

    /// The heads of a page whose rows were read with it, in the order of `keys`, written
    /// without keeping them (they are rarely asked for again: [`crate::store::ListRead`]).
    pub fn written(
        &self,
        rows: impl IntoIterator<Item = IssueRow>,
        media: &MediaStore,
        keys: &[IssueRowKey],
    ) -> Result<Vec<Option<Arc<str>>>, serde_json::Error> {
        self.misses.fetch_add(keys.len() as u64, Ordering::Relaxed);
        let written = write_all(rows, media, |_, _, _| {})?;
        Ok(keys
            .iter()
            .map(|key| written.get(&key.issue_id).cloned())
            .collect())
    }
}

/// The heads of `rows` by issue id; `each` sees every row's issue id and version with its head.
fn write_all(
    rows: impl IntoIterator<Item = IssueRow>,
    media: &MediaStore,
    mut each: impl FnMut(Uuid, i64, &Arc<str>),
) -> Result<HashMap<Uuid, Arc<str>>, serde_json::Error> {
    let mut written = HashMap::new();
    for row in rows {
        let (issue_id, version) = (row.issue_id, row.version);
        let json: Arc<str> = head(row, media)?.into();
        each(issue_id, version, &json);
        written.insert(issue_id, json);
    }
    Ok(written)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use chrono::{TimeZone, Utc};
    use domain::geo::LonLat;
    use domain::issues::IssueStatus;

    use super::*;
    use crate::media::MediaSettings;
    use crate::store::{Media, Report as StoredReport};

    fn row(explicit: bool, at: Option<LonLat>, processed: bool, title: &str) -> IssueRow {
        let inserted_at = Utc.timestamp_opt(1_764_000_000, 123_456_000).unwrap();
        IssueRow {
            report: StoredReport {
                id: Uuid::now_v7(),
                author: Some("citizen".into()),
                title: title.into(),
                description: "Line one\nline \"two\" – ščř \u{1}".into(),
                location: at.map(|point| LocationParam {
                    point,
                    radius_m: Some(12.5),
                }),
                explicit,
                inserted_at,
                processed_at: processed.then(|| inserted_at + chrono::TimeDelta::hours(3)),
                media: vec![Media {
                    id: Uuid::now_v7(),
                    filename: "a \"photo\".jpg".into(),
                    media_type: "image/jpeg".into(),
                    size_bytes: 1234,
                }],
                votes_count: 0,
            },
            issue_id: Uuid::now_v7(),
            category_id: Uuid::now_v7(),
            status: IssueStatus::Accepted,
            version: 3,
        }
    }

    /// The row as the model writes it whole, with the vote count and distance of `key`.
    fn whole(
        row: IssueRow,
        key: &IssueRowKey,
        near: Option<&LocationParam>,
        media: &MediaStore,
    ) -> Vec<u8> {
        let mut stored = row.report;
        stored.votes_count = key.votes_count;
        let mut report = Report::from_store(stored, media, View::Public, near);
        report.issue_id = Some(row.issue_id);
        report.category_id = Some(row.category_id);
        report.status = Some(row.status);
        serde_json::to_vec(&report).unwrap()
    }

    #[test]
    fn head_and_finish_write_the_whole_row() {
        let dir = tempfile::tempdir().unwrap();
        let media = MediaStore::new(&MediaSettings {
            dir: dir.path().to_owned(),
            ..MediaSettings::default()
        })
        .unwrap();
        let near = LocationParam {
            point: LonLat {
                lon: 14.4213,
                lat: 50.0875,
            },
            radius_m: None,
        };
        let point = LonLat {
            lon: 14.437_812_345_678_9,
            lat: 50.075_5,
        };
        for explicit in [false, true] {
            for at in [None, Some(point)] {
                for processed in [false, true] {
                    for votes_count in [0, 7, 1_000_000] {
                        for near in [None, Some(&near)] {
                            let row = row(explicit, at, processed, "Title \"quoted\"\t");
                            let key = IssueRowKey {
                                issue_id: row.issue_id,
                                version: row.version,
                                votes_count,
                                point: at,
                            };
                            let want = whole(row.clone(), &key, near, &media);
                            let mut got = head(row, &media).unwrap().into_bytes();
                            finish(&mut got, &key, near).unwrap();
                            assert_eq!(
                                String::from_utf8(got).unwrap(),
                                String::from_utf8(want).unwrap()
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_kept_row_is_used_only_at_its_version() {
        let cache = RowCache::new(10);
        let key = IssueRowKey {
            issue_id: Uuid::now_v7(),
            version: 2,
            votes_count: 0,
            point: None,
        };
        assert_eq!(cache.heads(&[key]), [None]);
        cache.put(key.issue_id, 2, Arc::from("{\"id\":1"));
        assert_eq!(cache.heads(&[key]), [Some(Arc::from("{\"id\":1"))]);
        for version in [1, 3] {
            let other = IssueRowKey { version, ..key };
            assert_eq!(cache.heads(&[other]), [None], "version {version}");
        }
        let off = RowCache::new(0);
        off.put(key.issue_id, 2, Arc::from("{\"id\":1"));
        assert_eq!(off.heads(&[key]), [None]);
        assert_eq!(cache.hits.load(Ordering::Relaxed), 1);
        assert_eq!(cache.misses.load(Ordering::Relaxed), 3);
    }
}
