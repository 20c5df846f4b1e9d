//! The retention sweep at an injected instant deletes exactly what is past its time: feed
//! entries and digest records older than `privacy.feed_retain_days`, the detail of officers'
//! events older than `privacy.audit_detail_retain_days`, expired export links; nothing else,
//! and nothing on a second run.

use chrono::{DateTime, TimeDelta, Utc};
use citizen_api::app::retention::{sweep, Swept};
use citizen_api::store::digests::{DigestCandidate, DigestTexts, NewDigest};
use serde_json::{json, Value};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::helpers::{Filing, TestApp};
use crate::privacy_helpers::start_export;

on_both_backends!(crate::helpers::spawn_app;
    a_sweep_deletes_exactly_what_is_past_its_time,
);

const CITIZEN: &str = "citizen-retention-1";
const OTHER: &str = "citizen-retention-2";

fn days(n: i64) -> TimeDelta {
    TimeDelta::days(n)
}

/// A digest record of `subject` whose newest entry is `tag`, written at `at`, for the period
/// ending then.
async fn digest(app: &TestApp, subject: &str, tag: &str, at: DateTime<Utc>) {
    let candidate = DigestCandidate {
        subject: subject.into(),
        locale: None,
        entries: 1,
        newest_tag: tag.into(),
        titles: vec!["Lamp fixed".into()],
    };
    let texts = DigestTexts {
        title: "1 notification".into(),
        body: "Lamp fixed".into(),
    };
    let written = app
        .stores
        .digests
        .add_digest(
            NewDigest {
                candidate: &candidate,
                period_end: at,
                texts: &texts,
            },
            at,
        )
        .await
        .unwrap();
    assert!(written);
}

/// The `(action, detail)` of each officers' event of `report`'s audit trail.
async fn event_details(app: &TestApp, report: Uuid) -> Vec<Value> {
    let (status, audit) = app
        .get_as(&format!("/admin/reports/{report}/audit"), Some(&app.boss()))
        .await;
    assert_eq!(status, 200, "{audit}");
    audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "explicit_set")
        .map(|e| e["detail"].clone())
        .collect()
}

async fn export_at(app: &TestApp, subject: &str, at: DateTime<Utc>) -> String {
    app.clock.set(at);
    let link = start_export(app, subject).await;
    link["download_url"].as_str().unwrap().to_owned()
}

async fn a_sweep_deletes_exactly_what_is_past_its_time(app: TestApp) {
    let settings = &app.settings.privacy;
    assert_eq!(
        (settings.feed_retain_days, settings.audit_detail_retain_days),
        (365, 1095)
    );
    let now = app.time(0);
    // The feed: one entry past its time, one exactly at the cut-off, one within.
    app.notify(
        CITIZEN,
        "past",
        now - days(365) - TimeDelta::seconds(1),
        None,
    )
    .await;
    app.notify(CITIZEN, "at the cut-off", now - days(365), None)
        .await;
    let within = app
        .notify(CITIZEN, "within", now - days(364), None)
        .await
        .unwrap();
    // A digest is written only while its newest entry is there (an erased account has none).
    digest(&app, CITIZEN, &within, now - days(366)).await;
    digest(&app, CITIZEN, &within, now - days(2)).await;
    // Officers' events: one past its time, one within.
    let report = app.file(Filing::new("Lamp out", 1)).await.report;
    for (at, explicit) in [(now - days(1096), true), (now - days(1094), false)] {
        app.clock.set(at);
        let (status, body) = app.set_explicit(report, explicit, &app.boss()).await;
        assert_eq!(status, 200, "{body}");
    }
    // Export links: one expired, one still working.
    let expired = export_at(&app, CITIZEN, now - days(2)).await;
    let live = export_at(&app, OTHER, now).await;

    let swept = sweep(app.stores.privacy.as_ref(), settings, now)
        .await
        .unwrap();
    assert_eq!(
        swept,
        Swept {
            feed: 1,
            digests: 1,
            event_details: 1,
            exports: 1
        }
    );
    let feed = crate::notifications_helpers::feed(&app, CITIZEN).await;
    assert_eq!(
        crate::notifications_helpers::fields(&feed, "title"),
        ["within", "at the cut-off"]
    );
    assert_eq!(
        event_details(&app, report).await,
        [json!({}), json!({"explicit": false})]
    );
    for (link, status) in [(expired, 404), (live, 200)] {
        let response = app.get_url(&format!("{}{link}", app.root)).await;
        assert_eq!(response.status().as_u16(), status, "{link}");
    }
    // What is left is within its time: a second sweep finds nothing.
    let again = sweep(app.stores.privacy.as_ref(), settings, now)
        .await
        .unwrap();
    assert_eq!(again, Swept::default());
    // 0 keeps forever.
    let mut keep = settings.clone();
    (keep.feed_retain_days, keep.audit_detail_retain_days) = (0, 0);
    let later = now + days(5000);
    let swept = sweep(app.stores.privacy.as_ref(), &keep, later)
        .await
        .unwrap();
    assert_eq!(swept.feed + swept.digests + swept.event_details, 0);
}
