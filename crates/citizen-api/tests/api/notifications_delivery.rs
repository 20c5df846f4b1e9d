//! Web push delivery against a local stand-in push service that checks VAPID and decrypts: the
//! payload in the recipient's language with the entry's tag as `Topic`; 404/410 removes the
//! subscription; 500/429 are retried with backoff on the injected clock, then given up; a
//! digest interval gets no immediate delivery.

use chrono::TimeDelta;
use serde_json::json;
use service_kit::clock::Clock;
use service_kit::startup::ServiceApp;
use test_support::on_both_backends;

use crate::delivery_helpers::{
    accepted_report, deliver_now, deliverer, delivery_settings, feed_tags, push_sender,
    set_settings, stand_in, subscribe_push, topics,
};
use crate::helpers::TestApp;
use crate::notifications_push::verify_vapid;
use citizen_api::notify::deliver::{Deliverer, Round};
use citizen_api::notify::push_send::topic;
use citizen_api::notify::DeliverySettings;

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    a_push_reaches_each_browser_in_the_recipients_language,
    gone_removes_the_subscription,
    server_errors_are_retried_with_backoff_then_given_up,
    digests_and_disabled_settings_get_no_push,
    rows_older_than_the_maximum_age_are_given_up_unsent,
);

async fn a_push_reaches_each_browser_in_the_recipients_language(app: TestApp) {
    let server = stand_in(201).await;
    let author = subscribe_push(&app, "author-1", &server, None).await;
    let voter_phone = subscribe_push(&app, "voter-1", &server, Some("cs")).await;
    let voter_laptop = subscribe_push(&app, "voter-1", &server, Some("cs")).await;
    set_settings(&app, "voter-1", "cs", serde_json::Value::Null).await;
    let filed = accepted_report(&app, "author-1", &["voter-1"], 1).await;

    let round = deliver_now(&app, true, None).await;
    assert_eq!(
        round,
        Round {
            delivered: 3,
            ..Round::default()
        }
    );
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 3);
    let public = push_sender().public_key();
    for (browser, subject, title) in [
        (&author, "author-1", "Your report has a new status"),
        (&voter_phone, "voter-1", "Hlášení má nový stav"),
        (&voter_laptop, "voter-1", "Hlášení má nový stav"),
    ] {
        let request = requests
            .iter()
            .find(|r| browser.endpoint.ends_with(r.url.path()))
            .unwrap();
        let claims = verify_vapid(request, &public);
        assert_eq!(claims["aud"], server.uri());
        let payload = browser.read(request);
        let tag = feed_tags(&app, subject).await[0].clone();
        assert_eq!(payload["title"], title);
        assert_eq!(payload["tag"], json!(tag));
        assert!(payload["body"].as_str().unwrap().contains("Broken lamp"));
        assert_eq!(
            payload["url"],
            format!("https://city.example/reports/{}", filed.report)
        );
        assert_eq!(
            request.headers.get("topic").unwrap().to_str().unwrap(),
            topic(&tag)
        );
    }
    // Delivered rows are done: nothing more to send.
    let again = deliverer(&app, true, None)
        .run_once(app.clock.now() + TimeDelta::days(1))
        .await
        .unwrap();
    assert_eq!(again, Round::default());
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
}

async fn gone_removes_the_subscription(app: TestApp) {
    for status in [404, 410] {
        let server = stand_in(status).await;
        let subject = format!("author-{status}");
        let browser = subscribe_push(&app, &subject, &server, None).await;
        accepted_report(&app, &subject, &[], i64::from(status)).await;
        let round = deliver_now(&app, true, None).await;
        assert_eq!(round.gone, 1, "{status}");
        let path = format!(
            "/me/notifications/webpush?endpoint={}",
            form_urlencoded::byte_serialize(browser.endpoint.as_bytes()).collect::<String>()
        );
        let (_, body) = app.get_as(&path, Some(&app.token(&subject, &[]))).await;
        assert_eq!(body, json!({"status": false}), "{status}");
    }
}

async fn server_errors_are_retried_with_backoff_then_given_up(app: TestApp) {
    for (status, second) in [(500, 1), (429, 2)] {
        let server = stand_in(status).await;
        let subject = format!("author-{status}");
        subscribe_push(&app, &subject, &server, None).await;
        accepted_report(&app, &subject, &[], second).await;
        let d = deliverer(&app, true, None);
        let t0 = app.clock.now();
        let at = |secs: i64| t0 + TimeDelta::seconds(secs);
        let retried = Round {
            retried: 1,
            ..Round::default()
        };
        // Attempt 1 now; attempt 2 after 30 s; attempt 3 (the last) 60 s later.
        assert_eq!(d.run_once(at(0)).await.unwrap(), retried, "{status}");
        assert_eq!(d.run_once(at(29)).await.unwrap(), Round::default());
        assert_eq!(d.run_once(at(30)).await.unwrap(), retried);
        assert_eq!(d.run_once(at(89)).await.unwrap(), Round::default());
        let failed = d.run_once(at(90)).await.unwrap();
        assert_eq!(
            failed,
            Round {
                failed: 1,
                ..Round::default()
            }
        );
        assert_eq!(d.run_once(at(10_000)).await.unwrap(), Round::default());
        let topics = topics(&server).await;
        assert_eq!(topics.len(), 3, "{status}");
        assert!(topics.iter().all(|t| *t == topics[0]), "{topics:?}");
    }
}

async fn digests_and_disabled_settings_get_no_push(app: TestApp) {
    let server = stand_in(201).await;
    subscribe_push(&app, "daily-1", &server, None).await;
    set_settings(&app, "daily-1", "en", json!("daily")).await;
    subscribe_push(&app, "off-1", &server, None).await;
    let (status, _) = app
        .save_settings(&app.token("off-1", &[]), false, serde_json::Value::Null)
        .await;
    assert_eq!(status, 200);
    accepted_report(&app, "daily-1", &["off-1"], 1).await;
    // Both have their feed entry, neither a push.
    assert_eq!(feed_tags(&app, "daily-1").await.len(), 1);
    let round = deliver_now(&app, true, None).await;
    assert_eq!(round, Round::default());
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// A VAPID key that is not a P-256 key, or an SMTP URL lettre cannot use, stops start-up with
/// the key's name (also with delivery off).
#[tokio::test]
async fn bad_channel_secrets_fail_start_up() {
    use secrecy::SecretString;
    let db = test_support::database(test_support::Backend::Sqlite, "deliver-bad")
        .await
        .unwrap();
    for (vapid, smtp, named) in [
        (
            Some("not-a-key"),
            None,
            "notifications.webpush.vapid_private_key",
        ),
        (
            None,
            Some("ftp://mail.example.org"),
            "notifications.email.smtp_url",
        ),
        (None, Some("not a url"), "notifications.email.smtp_url"),
        (
            None,
            Some("smtp://user:secret@mail.example.org:587"),
            "notifications.email.smtp_url",
        ),
    ] {
        let mut settings = crate::helpers::settings(&db);
        settings.notifications.webpush.vapid_private_key = vapid.map(SecretString::from);
        settings.notifications.email.smtp_url = smtp.map(SecretString::from);
        let options = citizen_api::BuildOptions { clock: None };
        let err = citizen_api::Application::build_with(&settings, options)
            .await
            .err()
            .expect("start-up must fail");
        assert!(format!("{err:#}").contains(named), "{named}: {err:#}");
    }
}

async fn rows_older_than_the_maximum_age_are_given_up_unsent(app: TestApp) {
    // Written while no worker ran (delivery off, or the push service down for days).
    let server = stand_in(201).await;
    subscribe_push(&app, "old-1", &server, None).await;
    subscribe_push(&app, "new-1", &server, None).await;
    let t0 = app.clock.now();
    accepted_report(&app, "old-1", &[], 1).await;
    app.clock.set(t0 + TimeDelta::hours(2));
    accepted_report(&app, "new-1", &[], 2).await;
    let new_tags = feed_tags(&app, "new-1").await;

    // max_age_hours = 72: at 72 h the first row is still due, a second later it is given up.
    let d = deliverer(&app, true, None);
    assert_eq!(d.expire(t0 + TimeDelta::hours(72)).await.unwrap(), 0);
    let later = t0 + TimeDelta::hours(72) + TimeDelta::seconds(1);
    assert_eq!(
        d.run_once(later).await.unwrap(),
        Round {
            delivered: 1,
            expired: 1,
            ..Round::default()
        }
    );
    assert_eq!(topics(&server).await, vec![topic(&new_tags[0])]);
    // Given up for good: nothing later either, and the feed still holds the entry.
    assert_eq!(
        d.run_once(later + TimeDelta::days(1)).await.unwrap(),
        Round::default()
    );
    assert_eq!(feed_tags(&app, "old-1").await.len(), 1);

    // With no maximum age nothing expires.
    accepted_report(&app, "old-1", &[], 3).await;
    let keep = Deliverer::new(
        app.stores.clone(),
        Some(push_sender()),
        None,
        DeliverySettings {
            max_age_hours: 0,
            ..delivery_settings()
        },
    );
    let round = keep
        .run_once(app.clock.now() + TimeDelta::days(365))
        .await
        .unwrap();
    assert_eq!((round.delivered, round.expired), (1, 0));

    // Ages beyond the calendar (u32::MAX hours and days): nothing is old enough, no panic.
    let forever = Deliverer::new(
        app.stores.clone(),
        Some(push_sender()),
        None,
        DeliverySettings {
            max_age_hours: u32::MAX,
            retain_days: u32::MAX,
            ..delivery_settings()
        },
    );
    assert_eq!(forever.expire(app.clock.now()).await.unwrap(), 0);
    assert_eq!(forever.prune(app.clock.now()).await.unwrap(), 0);
}
