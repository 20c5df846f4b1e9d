//! The public list's rows written out, from the replica's kept JSON where it can.
//!
//! A list page is 100 rows of ~400 bytes of JSON each; reading, decoding and writing their text
//! was most of a page's work (docs/benchmarks.md). The content of a row changes only when its
//! issue row in the database does, and each update moves that row's `row_version` (a trigger,
//! migration 0021). So each replica keeps the JSON it wrote for a row under the issue's id with
//! the version it was written from ([`KeptJson`]). A page's statement reads only each row's id,
//! version, point and vote count ([`IssueRowKey`]); the rows whose version is kept are copied,
//! the others are read ([`ReportStore::public_rows`]), written and kept. A write through any
//! replica (or by SQL) moves the version, so an answer is never staler than the statement that
//! found its rows.
//!
//! [`ReportStore::public_rows`]: crate::store::ReportStore::public_rows

use std::collections::HashMap;
use std::sync::Arc;

use domain::geo::{DistancesFrom, LocationParam};
use domain::limits::Page;

use super::super::model::{Report, View};
use super::kept::{finish, head, KeptJson};
use crate::list_index::HeadAt;
use crate::media::MediaStore;
use crate::store::{IssueRow, IssueRowKey};
use uuid::Uuid;

/// The public shape (2.1) of a list row up to, without, its vote count and distance.
pub fn row_head(row: IssueRow, media: &MediaStore) -> Result<String, serde_json::Error> {
    let mut report = Report::from_store(row.report, media, View::Public, None);
    report.issue_id = Some(row.issue_id);
    report.category_id = Some(row.category_id);
    report.status = Some(row.status);
    head(report)
}

/// A page as [`ReportList`] writes it: each row its head and the rest (the vote count and the
/// distance from the list's `location` when both have a point), then the paging fields. A key
/// without a head (its row gone between the page's two statements; issues are never deleted)
/// is left out.
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
    let near = near.map(|near| DistancesFrom::new(near.point));
    let mut first = true;
    for (key, head) in keys.iter().zip(heads) {
        let Some(head) = head else { continue };
        if !first {
            body.push(b',');
        }
        first = false;
        body.extend_from_slice(head.as_bytes());
        let distance = near
            .zip(key.point)
            .map(|(near, point)| near.rounded_cm(point));
        finish(&mut body, key.votes_count, distance)?;
    }
    end_page(&mut body, has_next_offset, page)?;
    Ok(body)
}

/// Closes a page's `reports` array and writes the paging fields after it, as `ReportList` and
/// `AdminReportList` write them.
pub fn end_page(
    body: &mut Vec<u8>,
    has_next_offset: bool,
    page: Page,
) -> Result<(), serde_json::Error> {
    body.extend_from_slice(b"],");
    let tail = serde_json::to_vec(&ListTail {
        has_next_offset,
        offset: page.offset,
        limit: page.limit,
    })?;
    // `{"hasNextOffset":…}` without its opening brace.
    body.extend_from_slice(tail.get(1..).unwrap_or_default());
    Ok(())
}

/// The fields of `ReportList` (and `AdminReportList`) after `reports`, in their order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ListTail {
    has_next_offset: bool,
    offset: u32,
    limit: u32,
}

/// The kept heads of the rows of a page, in the page's order; the rows not kept at their
/// version are `None` (to be read and written by [`fill`]).
pub fn kept_heads(kept: &KeptJson, keys: &[IssueRowKey]) -> Vec<Option<Arc<str>>> {
    kept.get_all(keys.iter().map(|key| (key.issue_id, key.version)))
}

/// [`kept_heads`] for the rows of a page from the list index: the heads the index held
/// (`held`, in the page's order) are taken as they are, counted as found in the row cache
/// (they are its copies), and only the others are looked up. Beside the heads, those found
/// here (id, version, head): for the index's entries to hold (`ListIndex::keep_heads`).
pub fn kept_heads_beside(
    kept: &KeptJson,
    keys: &[IssueRowKey],
    held: Vec<Option<Arc<str>>>,
) -> (Vec<Option<Arc<str>>>, Vec<HeadAt>) {
    let missing: Vec<&IssueRowKey> = keys
        .iter()
        .zip(&held)
        .filter(|(_, head)| head.is_none())
        .map(|(key, _)| key)
        .collect();
    kept.count(true, keys.len() - missing.len());
    let looked_up = kept.get_all(missing.iter().map(|key| (key.issue_id, key.version)));
    let found_here: Vec<HeadAt> = missing
        .iter()
        .zip(&looked_up)
        .filter_map(|(key, head)| Some((key.issue_id, key.version, head.clone()?)))
        .collect();
    let mut looked_up = looked_up.into_iter();
    let heads = held
        .into_iter()
        .map(|head| head.or_else(|| looked_up.next().flatten()))
        .collect();
    (heads, found_here)
}

/// Writes the rows read for the page's misses, keeps them, and puts each head in its place of
/// `heads`. A row read at a newer version than its key is written and kept at the newer one (a
/// write between the page's two statements); a row no longer found stays `None`.
pub fn fill(
    kept: &KeptJson,
    keys: &[IssueRowKey],
    mut heads: Vec<Option<Arc<str>>>,
    rows: Vec<IssueRow>,
    media: &MediaStore,
) -> Result<Vec<Option<Arc<str>>>, serde_json::Error> {
    let written = keep(kept, rows, media)?;
    for (key, slot) in keys.iter().zip(heads.iter_mut()) {
        if slot.is_none() {
            *slot = written.get(&key.issue_id).cloned();
        }
    }
    Ok(heads)
}

/// Writes rows read from the database and keeps each head at the version it was read at;
/// the heads by issue id.
pub fn keep(
    kept: &KeptJson,
    rows: Vec<IssueRow>,
    media: &MediaStore,
) -> Result<HashMap<Uuid, Arc<str>>, serde_json::Error> {
    keep_written(kept, rows, |row| row_head(row, media))
}

/// [`keep`] with another writer of the head (the officers' list writes the report alone).
pub fn keep_written(
    kept: &KeptJson,
    rows: Vec<IssueRow>,
    write: impl Fn(IssueRow) -> Result<String, serde_json::Error>,
) -> Result<HashMap<Uuid, Arc<str>>, serde_json::Error> {
    let mut written = HashMap::with_capacity(rows.len());
    for row in rows {
        let (issue_id, version) = (row.issue_id, row.version);
        let head: Arc<str> = write(row)?.into();
        kept.put(issue_id, version, head.clone());
        written.insert(issue_id, head);
    }
    Ok(written)
}

/// The heads of a page whose rows were read with it (each key's content, in the page's
/// order), written without keeping them (they are rarely asked for again:
/// [`crate::store::ListRead`]).
pub fn written(
    kept: &KeptJson,
    contents: Vec<Option<IssueRow>>,
    media: &MediaStore,
) -> Result<Vec<Option<Arc<str>>>, serde_json::Error> {
    kept.count(false, contents.len());
    contents
        .into_iter()
        .map(|row| {
            row.map(|row| row_head(row, media).map(Arc::from))
                .transpose()
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use chrono::{TimeZone, Utc};
    use domain::geo::{distance_cm, LonLat};
    use domain::issues::IssueStatus;
    use uuid::Uuid;

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
                            let mut got = row_head(row, &media).unwrap().into_bytes();
                            let distance = near
                                .zip(key.point)
                                .map(|(near, point)| distance_cm(near.point, point));
                            finish(&mut got, key.votes_count, distance).unwrap();
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
        let cache = KeptJson::new(10);
        let key = IssueRowKey {
            issue_id: Uuid::now_v7(),
            version: 2,
            votes_count: 0,
            point: None,
        };
        assert_eq!(kept_heads(&cache, &[key]), [None]);
        cache.put(key.issue_id, 2, Arc::from("{\"id\":1"));
        assert_eq!(kept_heads(&cache, &[key]), [Some(Arc::from("{\"id\":1"))]);
        for version in [1, 3] {
            let other = IssueRowKey { version, ..key };
            assert_eq!(kept_heads(&cache, &[other]), [None], "version {version}");
        }
        let off = KeptJson::new(0);
        off.put(key.issue_id, 2, Arc::from("{\"id\":1"));
        assert_eq!(kept_heads(&off, &[key]), [None]);
        assert_eq!(cache.counts(), (1, 3));
    }
}
