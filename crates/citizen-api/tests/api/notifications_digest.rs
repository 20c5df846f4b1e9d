//! Digests on the injected clock: an account with a daily (weekly) interval gets one push per
//! period, at the configured local time in the city's time zone, listing the period's entries in
//! its language; nothing before the period ends, nothing twice, nothing for an empty period.

use chrono::{NaiveTime, TimeDelta, TimeZone as _, Utc};
use citizen_api::notify::digest::{DigestSettings, DigestWriter};
use domain::notifications::Interval;
use serde_json::json;
use service_kit::clock::Clock;
use service_kit::startup::ServiceApp;
use test_support::on_both_backends;

use crate::delivery_helpers::{
    accepted_report, deliverer, set_settings, stand_in, subscribe_push, topics,
};
use crate::helpers::TestApp;
use citizen_api::notify::push_send::topic;
use citizen_api::store::Instant;

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    a_daily_digest_lists_the_days_entries_once_at_the_local_time,
    a_weekly_digest_waits_for_monday,
    missed_periods_come_in_the_next_digest_within_the_catch_up,
    an_entry_sent_alone_in_the_period_does_not_hold_the_digest_back,
);

fn writer(app: &TestApp) -> DigestWriter {
    DigestWriter::from_settings(
        &DigestSettings::default(),
        app.stores.clone(),
        i18n::Locale::En,
    )
    .unwrap()
}

/// The first end of an `interval` period after `after` (08:00 in Prague).
fn next_end(interval: Interval, after: Instant) -> Instant {
    let zone = chrono_tz::Europe::Prague;
    let at = NaiveTime::from_hms_opt(8, 0, 0).unwrap();
    let mut probe = after;
    loop {
        probe += TimeDelta::hours(1);
        let local = probe.with_timezone(&zone).naive_local();
        let end = domain::digest::due_period(interval, at, local).1;
        let end = zone
            .from_local_datetime(&end)
            .earliest()
            .unwrap()
            .with_timezone(&Utc);
        if end > after {
            return end;
        }
    }
}

async fn a_daily_digest_lists_the_days_entries_once_at_the_local_time(app: TestApp) {
    let server = stand_in(201).await;
    let browser = subscribe_push(&app, "daily-1", &server, Some("cs")).await;
    set_settings(&app, "daily-1", "cs", json!("daily")).await;
    accepted_report(&app, "author-1", &["daily-1"], 1).await;
    accepted_report(&app, "author-2", &["daily-1"], 2).await;
    let written_at = app.clock.now();
    let end = next_end(Interval::Daily, written_at);
    let digests = writer(&app);
    let push = deliverer(&app, true, None);

    // As it happens: nothing for a digest account.
    assert_eq!(push.run_once(written_at).await.unwrap().total(), 0);
    // A minute before the period ends: nothing.
    let before = end - TimeDelta::minutes(1);
    assert_eq!(digests.run_once(before).await.unwrap(), 0);
    // At its end: one digest, once.
    assert_eq!(digests.run_once(end).await.unwrap(), 1);
    assert_eq!(
        digests.run_once(end + TimeDelta::hours(3)).await.unwrap(),
        0
    );
    assert_eq!(push.run_once(end).await.unwrap().delivered, 1);
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1);
    let payload = browser.read(&requests[0]);
    assert_eq!(payload["title"], "2 nová oznámení");
    assert_eq!(
        payload["body"],
        "• Hlášení má nový stav\n• Hlášení má nový stav"
    );
    // Its identity is the newest entry's tag.
    assert_eq!(
        topics(&server).await,
        vec![topic(payload["tag"].as_str().unwrap())]
    );
    // The next day has no entries: no digest.
    let next = next_end(Interval::Daily, end);
    assert_eq!(digests.run_once(next).await.unwrap(), 0);
}

async fn a_weekly_digest_waits_for_monday(app: TestApp) {
    let server = stand_in(201).await;
    let browser = subscribe_push(&app, "weekly-1", &server, None).await;
    set_settings(&app, "weekly-1", "en", json!("weekly")).await;
    for second in 1..=7 {
        accepted_report(&app, "author-1", &["weekly-1"], second).await;
    }
    let written_at = app.clock.now();
    let monday = next_end(Interval::Weekly, written_at);
    let daily = next_end(Interval::Daily, written_at);
    let digests = writer(&app);
    if daily < monday {
        assert_eq!(
            digests.run_once(daily).await.unwrap(),
            0,
            "a day is not a week"
        );
    }
    assert_eq!(
        digests
            .run_once(monday - TimeDelta::minutes(1))
            .await
            .unwrap(),
        0
    );
    assert_eq!(digests.run_once(monday).await.unwrap(), 1);
    assert_eq!(
        deliverer(&app, true, None)
            .run_once(monday)
            .await
            .unwrap()
            .delivered,
        1
    );
    let requests = server.received_requests().await.unwrap();
    let payload = browser.read(&requests[0]);
    assert_eq!(payload["title"], "7 new notifications");
    let body = payload["body"].as_str().unwrap();
    assert_eq!(body.lines().count(), 6, "five titles and the rest: {body}");
    assert!(body.ends_with("… and 2 more"), "{body}");
}

/// A citizen who left the digest for a while and came back: the entry sent alone meanwhile is
/// not sent again, and the digest still brings the entries that were not.
async fn an_entry_sent_alone_in_the_period_does_not_hold_the_digest_back(app: TestApp) {
    let server = stand_in(201).await;
    let browser = subscribe_push(&app, "daily-3", &server, None).await;
    set_settings(&app, "daily-3", "en", json!("daily")).await;
    accepted_report(&app, "author-1", &["daily-3"], 1).await;
    // Without an interval the next entry goes out as it happens.
    set_settings(&app, "daily-3", "en", serde_json::Value::Null).await;
    accepted_report(&app, "author-2", &["daily-3"], 2).await;
    let push = deliverer(&app, true, None);
    assert_eq!(push.run_once(app.clock.now()).await.unwrap().delivered, 1);
    set_settings(&app, "daily-3", "en", json!("daily")).await;

    let end = next_end(Interval::Daily, app.clock.now());
    assert_eq!(writer(&app).run_once(end).await.unwrap(), 1);
    assert_eq!(push.run_once(end).await.unwrap().delivered, 1, "the digest");
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    let alone = browser.read(&requests[0]);
    let digest = browser.read(&requests[1]);
    assert_eq!(digest["title"], "One new notification");
    assert_ne!(
        digest["tag"], alone["tag"],
        "the digest's identity is its own entry's"
    );
}

async fn missed_periods_come_in_the_next_digest_within_the_catch_up(app: TestApp) {
    let server = stand_in(201).await;
    let browser = subscribe_push(&app, "daily-2", &server, None).await;
    set_settings(&app, "daily-2", "en", json!("daily")).await;
    let settings = DigestSettings {
        catch_up_periods: 2,
        ..DigestSettings::default()
    };
    let digests =
        DigestWriter::from_settings(&settings, app.stores.clone(), i18n::Locale::En).unwrap();
    let push = deliverer(&app, true, None);
    let titles = || async {
        let requests = server.received_requests().await.unwrap();
        requests
            .iter()
            .map(|r| browser.read(r)["title"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    // A first digest, on time.
    accepted_report(&app, "author-1", &["daily-2"], 1).await;
    let first = next_end(Interval::Daily, app.clock.now());
    assert_eq!(digests.run_once(first).await.unwrap(), 1);
    push.run_once(first).await.unwrap();
    assert_eq!(titles().await, ["One new notification"]);

    // Then one entry on each of three days, and no worker at the next two period ends.
    app.clock.set(first + TimeDelta::hours(1));
    let mut end = first;
    for second in 2..=4 {
        accepted_report(&app, "author-1", &["daily-2"], second).await;
        end = next_end(Interval::Daily, app.clock.now());
        app.clock.set(end + TimeDelta::hours(2));
    }
    // Two hours after the third end: one digest reaching back two periods (the last two days'
    // entries); the first of the three is older than the catch-up.
    assert_eq!(digests.run_once(app.clock.now()).await.unwrap(), 1);
    assert_eq!(push.run_once(app.clock.now()).await.unwrap().delivered, 1);
    assert_eq!(
        titles().await,
        ["One new notification", "2 new notifications"]
    );

    // The next period opens where that digest closed: one new entry, one in its digest.
    accepted_report(&app, "author-1", &["daily-2"], 5).await;
    let next = next_end(Interval::Daily, app.clock.now());
    assert!(next > end);
    assert_eq!(digests.run_once(next).await.unwrap(), 1);
    push.run_once(next).await.unwrap();
    assert_eq!(titles().await.last().unwrap(), "One new notification");
}

/// `catch_up_periods` outside 1..=366 stops start-up with the key's name (also with delivery
/// off); both edges start.
#[tokio::test]
async fn catch_up_periods_out_of_range_fail_start_up() {
    let db = test_support::database(test_support::Backend::Sqlite, "digest-bad")
        .await
        .unwrap();
    for (periods, starts) in [(0, false), (1, true), (366, true), (367, false)] {
        let mut settings = crate::helpers::settings(&db);
        settings.notifications.digest.catch_up_periods = periods;
        let options = citizen_api::BuildOptions { clock: None };
        match citizen_api::Application::build_with(&settings, options).await {
            Ok(_) => assert!(starts, "{periods} must not start"),
            Err(err) => {
                assert!(!starts, "{periods}: {err:#}");
                let text = format!("{err:#}");
                assert!(
                    text.contains("notifications.digest.catch_up_periods"),
                    "{text}"
                );
            }
        }
    }
}
