//! The media limits of `POST /reports` at and past their edges (small limits so the edge is
//! cheap: 64 KiB per file, 2 files, 100 KiB in total).

use std::sync::Arc;

use test_support::{on_both_backends, Backend};

use crate::helpers::{assert_error, file, form, spawn_on, TestApp};
use crate::media_images::images;

const FILE: u64 = 64 * 1024;
const TOTAL: u64 = 100 * 1024;

pub async fn spawn_small(backend: Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "limits").await?);
    Some(
        spawn_on(db, |s| {
            s.media.max_file_bytes = FILE;
            s.media.max_files = 2;
            s.media.max_total_bytes = TOTAL;
        })
        .await,
    )
}

on_both_backends!(crate::filing_limits::spawn_small;
    each_media_limit_at_and_past_its_edge,
);

/// A valid JPEG of exactly `size` bytes: the test photo with comment segments (which are
/// stripped) inserted after its start marker.
fn jpeg_of(size: usize) -> Vec<u8> {
    let (photo, _) = images::jpeg();
    let mut out = photo[..2].to_vec();
    let mut missing = size - photo.len();
    while missing > 0 {
        // A segment is its 2-byte marker plus length (2 bytes, counting itself) plus data.
        let segment = missing.min(65_535 + 2);
        let segment = if missing - segment < 4 && missing != segment {
            segment - 4
        } else {
            segment
        };
        let length = segment - 2;
        out.extend_from_slice(&[0xFF, 0xFE, (length >> 8) as u8, length as u8]);
        out.resize(out.len() + length - 2, b'x');
        missing -= segment;
    }
    out.extend_from_slice(&photo[2..]);
    assert_eq!(out.len(), size);
    out
}

async fn each_media_limit_at_and_past_its_edge(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    let file_limit = FILE as usize;
    // One file exactly at the per-file limit: stored.
    let (status, _, body) = app
        .post_report(
            form("t", "d").part("media", file(jpeg_of(file_limit), "a.jpg")),
            Some(&token),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    // One byte over: 413.
    let (status, _, body) = app
        .post_report(
            form("t", "d").part("media", file(jpeg_of(file_limit + 1), "a.jpg")),
            Some(&token),
        )
        .await;
    assert_error(status, &body, 413, "PAYLOAD_TOO_LARGE");
    // Two files at the total (50 KiB each): stored; a third file is one too many.
    let half = (TOTAL / 2) as usize;
    let two = form("t", "d")
        .part("media", file(jpeg_of(half), "a.jpg"))
        .part("media", file(jpeg_of(half), "b.jpg"));
    let (status, _, body) = app.post_report(two, Some(&token)).await;
    assert_eq!(status, 201, "{body}");
    let three = form("t", "d")
        .part("media", file(jpeg_of(1000), "a.jpg"))
        .part("media", file(jpeg_of(1000), "b.jpg"))
        .part("media", file(jpeg_of(1000), "c.jpg"));
    let (status, _, body) = app.post_report(three, Some(&token)).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    // Two files each under the per-file limit but together over the total.
    let over = form("t", "d")
        .part("media", file(jpeg_of(half), "a.jpg"))
        .part("media", file(jpeg_of(half + 1), "b.jpg"));
    let (status, _, body) = app.post_report(over, Some(&token)).await;
    assert_error(status, &body, 400, "TOTAL_MEDIA_SIZE_TOO_LARGE");
    // Only the two good filings' three files are kept.
    assert_eq!(app.stored_files().len(), 3, "{:?}", app.stored_files());
    assert_eq!(
        app.get_ok("/reports").await["reports"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}
