//! The pending-upload sweep at an injected instant (issue 51, item 6): a file whose
//! pending-upload row is older than `media.pending_max_age_minutes` (a filing that died between
//! writing it and committing) is deleted with its row, a younger one stays, a committed filing's
//! files have no pending row and stay, and a filing committing a file the sweep has taken fails
//! (503) instead of keeping a media row without its file.

use chrono::TimeDelta;
use citizen_api::app::pending_uploads::{max_age, sweep};
use citizen_api::media::MediaStore;
use citizen_api::store::{Media, NewReport, StoreError};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::helpers::{file, form, TestApp};
use crate::media_images::images;

on_both_backends!(crate::helpers::spawn_app;
    the_sweep_removes_only_files_pending_past_their_age,
    a_filing_whose_file_the_sweep_took_fails_and_stores_nothing,
);

/// A file written for a request that then died: its pending row at `age_minutes` before the
/// app's clock, its bytes in the media folder.
async fn abandoned(app: &TestApp, age_minutes: i64) -> Uuid {
    let id = Uuid::new_v4();
    app.stores
        .uploads
        .record_pending(id, app.clock_now() - TimeDelta::minutes(age_minutes))
        .await
        .unwrap();
    std::fs::write(
        app.settings.media.dir.join(id.to_string()),
        images::jpeg().1,
    )
    .unwrap();
    id
}

fn stored(app: &TestApp, id: Uuid) -> bool {
    app.settings.media.dir.join(id.to_string()).exists()
}

impl TestApp {
    fn clock_now(&self) -> chrono::DateTime<chrono::Utc> {
        use service_kit::clock::Clock;
        self.clock.now()
    }

    async fn sweep_now(&self) -> u64 {
        let media = MediaStore::new(&self.settings.media).unwrap();
        let age = max_age(self.settings.media.pending_max_age_minutes);
        sweep(self.stores.uploads.as_ref(), &media, age, self.clock_now())
            .await
            .unwrap()
    }
}

async fn the_sweep_removes_only_files_pending_past_their_age(app: TestApp) {
    assert_eq!(app.settings.media.pending_max_age_minutes, 60);
    // A filing over HTTP: its photo's pending row goes with its commit.
    let (jpeg, _) = images::jpeg();
    let (status, _, body) = app
        .post_report(
            form("Lamp", "Broken").part("media", file(jpeg, "lamp.jpg")),
            Some(&app.token("citizen-pending", &[])),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let filed: Uuid = body["media"][0]["media_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(stored(&app, filed));

    let old = abandoned(&app, 61).await;
    let young = abandoned(&app, 59).await;

    assert_eq!(app.sweep_now().await, 1);
    assert!(!stored(&app, old), "the file pending past its age is gone");
    assert!(stored(&app, young), "a file pending for less stays");
    assert!(stored(&app, filed), "a committed filing's file stays");
    assert_eq!(app.sweep_now().await, 0, "a second sweep finds nothing");

    // Two hours on, the young one is past its age too; the filed photo is still served.
    app.clock.advance(TimeDelta::hours(2));
    assert_eq!(app.sweep_now().await, 1);
    assert!(!stored(&app, young));
    assert!(stored(&app, filed));
    let served = app.get_response(&format!("/media/{filed}")).await;
    assert_eq!(served.status(), 200);
}

async fn a_filing_whose_file_the_sweep_took_fails_and_stores_nothing(app: TestApp) {
    // A filing so slow that the sweep takes its file (and is deleting it) before it commits.
    let taken = abandoned(&app, 61).await;
    let now = app.clock_now();
    let took = app
        .stores
        .uploads
        .take_stale(now - TimeDelta::minutes(60), now, 10)
        .await
        .unwrap();
    assert_eq!(took, vec![taken]);
    let new = NewReport {
        id: Uuid::now_v7(),
        author: Some("citizen-slow".into()),
        title: "Slow".into(),
        description: "Committed after its file was taken".into(),
        location: None,
        address: None,
        media: vec![Media {
            id: taken,
            filename: "slow.jpg".into(),
            media_type: "image/jpeg".into(),
            size_bytes: 10,
        }],
        ..NewReport::default()
    };
    let filed = citizen_api::app::filing::file_report(app.stores.issues.as_ref(), &new, now).await;
    assert!(
        matches!(filed, Err(StoreError::Unavailable(_))),
        "{filed:?}"
    );
    assert!(app.stores.reports.report(new.id).await.unwrap().is_none());

    // A taken row whose sweep died is taken again after the same age, and its file goes.
    assert_eq!(app.sweep_now().await, 0, "taken just now");
    app.clock.advance(TimeDelta::minutes(61));
    assert_eq!(app.sweep_now().await, 1);
    assert!(!stored(&app, taken));
}
