//! SIGKILL between a filing's file write and its commit (issue 51, item 6): the finished photo
//! of a filing whose transaction never committed is named by its pending-upload row from the
//! moment it is written, a restarted service serves on, and the pending-upload sweep
//! (`citizen-api sweep-uploads`, once the row is past `media.pending_max_age_minutes`) removes
//! the file and the row, and nothing else.
//!
//! The kill falls exactly between the two: the debug build's test-only hook
//! `CITIZEN_API_TEST_HOLD_FILING` holds the filing after its files are written, before its
//! transaction, and names the files in a marker file the case waits for.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use uuid::Uuid;

use crate::harness::{one_case_at_a_time, token, Platform};

/// How long the held filing may take to write its photo on a loaded machine.
const WRITTEN_WITHIN: Duration = Duration::from_secs(30);

async fn pending_rows(platform: &Platform) -> BTreeSet<Uuid> {
    sqlx::query_scalar::<_, Uuid>("SELECT media_id FROM pending_uploads")
        .fetch_all(&mut platform.sql().await)
        .await
        .expect("the pending-upload rows")
        .into_iter()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_photo_of_a_filing_killed_before_its_commit_is_named_by_a_row_and_swept() {
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("killed-filing", false).await else {
        return;
    };
    let hold = tempfile::tempdir().expect("a folder for the marker");
    let marker = hold.path().join("held");
    let api = platform
        .citizen_api_with(
            None,
            &[],
            &[(
                "CITIZEN_API_TEST_HOLD_FILING",
                marker.to_str().expect("UTF-8 temp path").to_owned(),
            )],
        )
        .await;
    let held = tokio::spawn(api.filing(Some(&token("killed-filer", &[])), "Held").send());

    // The photo is written and the filing waits before its transaction.
    let deadline = Instant::now() + WRITTEN_WITHIN;
    let written: Uuid = loop {
        if let Some(id) = std::fs::read_to_string(&marker)
            .ok()
            .and_then(|ids| ids.lines().next().and_then(|l| l.parse().ok()))
        {
            break id;
        }
        assert!(
            Instant::now() < deadline,
            "the held filing wrote no file within {WRITTEN_WITHIN:?}\n{}",
            api.process.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    api.process.kill().await;
    assert!(
        held.await.expect("the filing task").is_err(),
        "the killed filing was answered"
    );

    assert!(
        platform.ids("reports").await.is_empty(),
        "a report was committed"
    );
    assert!(
        platform.ids("media").await.is_empty(),
        "a media row was committed"
    );
    assert_eq!(
        platform.stored_files(),
        BTreeSet::from([written]),
        "the finished photo is in the media folder"
    );
    assert_eq!(
        pending_rows(&platform).await,
        BTreeSet::from([written]),
        "the file no report owns is named by its pending-upload row"
    );

    // Restarted, the service files again; a committed filing leaves no pending row.
    let api = platform
        .citizen_api(
            None,
            &[("MEDIA__PENDING_SWEEP_INTERVAL_MINUTES", "0".into())],
        )
        .await;
    let filed = api.file(&token("filer-after", &[]), "After the kill").await;
    assert_eq!(filed.status, Some(201), "{filed:?}");
    let kept: BTreeSet<Uuid> = platform.ids("media").await;
    assert_eq!(kept.len(), 1);
    assert_eq!(pending_rows(&platform).await, BTreeSet::from([written]));

    // Younger than media.pending_max_age_minutes (60): the sweep leaves it.
    let swept = platform.citizen_api_command(&["sweep-uploads"]).await;
    assert!(swept.status.success(), "{swept:?}");
    assert!(platform.stored_files().contains(&written));

    // Past it (its row written two hours ago): the file and the row go, nothing else.
    sqlx::query("UPDATE pending_uploads SET written_at = written_at - interval '2 hours'")
        .execute(&mut platform.sql().await)
        .await
        .expect("age the pending row");
    let swept = platform.citizen_api_command(&["sweep-uploads"]).await;
    let out = String::from_utf8_lossy(&swept.stdout);
    assert!(swept.status.success(), "{swept:?}");
    assert!(out.contains("removed 1 abandoned uploads"), "{out}");
    assert_eq!(
        platform.stored_files(),
        kept,
        "only the committed photo stays"
    );
    assert!(pending_rows(&platform).await.is_empty());
    api.process.kill().await;
}
