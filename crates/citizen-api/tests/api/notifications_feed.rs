//! `/me/notifications`, `/read` and `/unread-count`: the feed's order and cursor, read marks
//! (all or nothing) and the capped count.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::helpers::{assert_error, TestApp};
use crate::notifications_helpers::fields;

on_both_backends!(crate::helpers::spawn_app;
    the_feed_pages_newest_first_and_ties_never_overlap_or_skip,
    one_entry_per_event_and_recipient,
    read_marks_are_all_or_nothing,
    the_unread_count_stops_at_ten,
    bad_parameters_are_400_and_the_feed_needs_a_token,
);

async fn page(app: &TestApp, token: &str, query: &str) -> Value {
    let (status, body) = app
        .get_as(&format!("/me/notifications{query}"), Some(token))
        .await;
    assert_eq!(status, 200, "{query}: {body}");
    body
}

async fn the_feed_pages_newest_first_and_ties_never_overlap_or_skip(app: TestApp) {
    let t0 = app.time(0);
    let mut expected = Vec::new();
    // Five entries with one sent_at written at one instant (ties on both), then two newer.
    for i in 0..5 {
        expected.push(
            app.notify("citizen-1", &format!("tie {i}"), t0, None)
                .await
                .unwrap(),
        );
    }
    for i in 1..=2 {
        let at = t0 + TimeDelta::seconds(i);
        expected.push(app.notify("citizen-1", "newer", at, None).await.unwrap());
    }
    app.notify("citizen-2", "someone else's", t0, None)
        .await
        .unwrap();
    expected.reverse(); // newest first: by sent_at, then the later written
    let me = app.token("citizen-1", &[]);

    let all = page(&app, &me, "").await;
    assert_eq!(fields(&all, "tag"), expected);
    assert_eq!(all["hasNextOffset"], false);
    let first = &all["notifications"][0];
    assert_eq!(first["title"], "newer");
    assert_eq!(first["body"], "newer body");
    assert_eq!(first["url"], "https://example.org/reports/1");
    assert!(first.get("read_at").is_none() && first.get("icon").is_none());
    let inserted = fields(&all, "inserted_at");
    let mut unique = inserted.clone();
    unique.dedup();
    assert_eq!(
        unique.len(),
        inserted.len(),
        "inserted_at unique per account"
    );

    let mut seen = Vec::new();
    let mut query = "?limit=3".to_owned();
    loop {
        let p = page(&app, &me, &query).await;
        let tags = fields(&p, "tag");
        assert!(tags.len() <= 3);
        seen.extend(tags);
        if p["hasNextOffset"] == false {
            break;
        }
        let last = p["notifications"].as_array().unwrap().last().unwrap();
        query = format!(
            "?limit=3&pagecursor={}&pagecursor={}",
            last["sent_at"].as_str().unwrap(),
            last["inserted_at"].as_str().unwrap()
        );
    }
    assert_eq!(seen, expected);
}

async fn one_entry_per_event_and_recipient(app: TestApp) {
    let event = Uuid::now_v7();
    let t0 = app.time(0);
    let tag = app.notify("citizen-1", "once", t0, Some(event)).await;
    assert!(tag.is_some());
    app.clock.advance(TimeDelta::seconds(5));
    assert_eq!(
        app.notify("citizen-1", "again", t0, Some(event)).await,
        None
    );
    // The same event for another recipient is their own entry.
    let other = app.notify("citizen-2", "once", t0, Some(event)).await;
    assert!(other.is_some() && other != tag);
    let me = app.token("citizen-1", &[]);
    let all = page(&app, &me, "").await;
    assert_eq!(fields(&all, "tag"), vec![tag.unwrap()]);
}

async fn read_marks_are_all_or_nothing(app: TestApp) {
    let t0 = app.time(0);
    let a = app.notify("citizen-1", "a", t0, None).await.unwrap();
    let b = app
        .notify("citizen-1", "b", t0 + TimeDelta::seconds(1), None)
        .await
        .unwrap();
    let c = app
        .notify("citizen-1", "c", t0 + TimeDelta::seconds(2), None)
        .await
        .unwrap();
    let foreign = app.notify("citizen-2", "x", t0, None).await.unwrap();
    let me = app.token("citizen-1", &[]);
    let read = |tags: Value| {
        let me = me.clone();
        let app = &app;
        async move {
            app.send_json(
                Method::PATCH,
                "/me/notifications/read",
                &me,
                &json!({ "notificationTags": tags }),
            )
            .await
        }
    };

    let (status, body) = read(json!([a, b, a])).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(fields(&body, "tag"), vec![b.clone(), a.clone()]);
    assert_eq!(body["unread_count"], 1);
    let read_at = body["notifications"][0]["read_at"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        read_at,
        app.time(0)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );

    // Again later: the first read_at stays.
    app.clock.advance(TimeDelta::minutes(1));
    let (_, body) = read(json!([b])).await;
    assert_eq!(body["notifications"][0]["read_at"], read_at.as_str());

    // A foreign, unknown or malformed tag: 400 and nothing marked.
    for tags in [
        json!([c, foreign]),
        json!([c, Uuid::now_v7().to_string()]),
        json!([c, "not-a-tag"]),
        json!([c.to_uppercase()]),
        json!([]),
        json!(vec![c.clone(); 101]),
    ] {
        let (status, body) = read(tags.clone()).await;
        assert_error(status, &body, 400, "INVALID_NOTIFICATION_TAGS");
    }
    let (_, count) = app
        .get_as("/me/notifications/unread-count", Some(&me))
        .await;
    assert_eq!(count, json!({"unread_count": 1}));
    let theirs = app.token("citizen-2", &[]);
    let (_, count) = app
        .get_as("/me/notifications/unread-count", Some(&theirs))
        .await;
    assert_eq!(count, json!({"unread_count": 1}));

    // Not the documented shape: 400 (and nothing marked).
    for body in [
        json!({"notificationTags": [c], "other": 1}),
        json!({}),
        json!({"notificationTags": [1]}),
        json!([c]),
    ] {
        let (status, answer) = app
            .send_json(Method::PATCH, "/me/notifications/read", &me, &body)
            .await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer["name"].is_string(), "{answer}");
    }
    let (_, count) = app
        .get_as("/me/notifications/unread-count", Some(&me))
        .await;
    assert_eq!(count["unread_count"], 1);
}

async fn the_unread_count_stops_at_ten(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    assert_eq!(unread(&app, &me).await, 0);
    let mut tags = Vec::new();
    for i in 0..12 {
        tags.push(
            app.notify("citizen-1", "n", app.time(i), None)
                .await
                .unwrap(),
        );
    }
    assert_eq!(unread(&app, &me).await, 10);
    let (status, body) = app
        .send_json(
            Method::PATCH,
            "/me/notifications/read",
            &me,
            &json!({ "notificationTags": tags[..3] }),
        )
        .await;
    assert_eq!((status, &body["unread_count"]), (200, &json!(9)), "{body}");
    assert_eq!(unread(&app, &me).await, 9);
}

async fn unread(app: &TestApp, token: &str) -> u64 {
    let (status, body) = app
        .get_as("/me/notifications/unread-count", Some(token))
        .await;
    assert_eq!(status, 200, "{body}");
    body["unread_count"].as_u64().unwrap()
}

async fn bad_parameters_are_400_and_the_feed_needs_a_token(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    for query in [
        "?limit=0",
        "?limit=101",
        "?limit=x",
        "?limit=1&limit=2",
        "?pagecursor=2026-01-01T00:00:00Z",
        "?pagecursor=x&pagecursor=2026-01-01T00:00:00Z",
        "?pagecursor=2026-01-01T00:00:00Z&pagecursor=2026-01-01T00:00:00Z&pagecursor=2026-01-01T00:00:00Z",
    ] {
        let (status, body) = app
            .get_as(&format!("/me/notifications{query}"), Some(&me))
            .await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    for path in [
        "/me/notifications",
        "/me/notifications/unread-count",
        "/me/notifications/settings",
    ] {
        let (status, body) = app.get(path).await;
        assert_error(status, &body, 401, "UNAUTHORIZED");
    }
}
