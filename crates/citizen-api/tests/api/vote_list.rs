//! `GET /me/vote-tokens`: newest first, the active filter, and cursors that never overlap or skip.

use chrono::TimeDelta;
use serde_json::Value;
use test_support::on_both_backends;

use crate::helpers::{assert_error, strs, Filing, TestApp};

on_both_backends!(crate::votes::spawn_votes;
    pages_follow_the_cursor_newest_first,
    bad_cursors_and_filters_are_400,
);

fn ids(page: &Value) -> Vec<String> {
    page["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token_id"].as_str().unwrap().to_owned())
        .collect()
}

fn cursor_query(cursor: &Value, strings: usize) -> String {
    cursor.as_array().unwrap()[..strings]
        .iter()
        .map(|s| format!("pagecursor={}", urlencode(s.as_str().unwrap())))
        .collect::<Vec<_>>()
        .join("&")
}

fn urlencode(s: &str) -> String {
    s.replace('+', "%2B").replace(':', "%3A")
}

async fn pages_follow_the_cursor_newest_first(app: TestApp) {
    let a = app.file(Filing::new("A", 1)).await.report.to_string();
    let me = app.token("citizen-1", &[]);
    // Three tokens at one instant (ties on inserted_at), then two later; one of the first revoked.
    app.vote(&me, &a, 3).await;
    app.clock.advance(TimeDelta::seconds(1));
    app.vote(&me, &a, 2).await;
    app.clock.advance(TimeDelta::seconds(1));
    let (_, all) = app.get_as("/me/vote-tokens", Some(&me)).await;
    let all_ids = ids(&all);
    assert_eq!(all_ids.len(), 5);
    assert!(all["nextCursor"].is_null());
    let times = strs(&all["tokens"], "inserted_at");
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {times:?}"
    );
    // Page by 2 with the handed-out 3-string cursor, and with its first two strings only.
    for strings in [3, 2] {
        let mut seen = Vec::new();
        let mut query = "limit=2".to_owned();
        loop {
            let (status, page) = app
                .get_as(&format!("/me/vote-tokens?{query}"), Some(&me))
                .await;
            assert_eq!(status, 200, "{page}");
            seen.extend(ids(&page));
            if page["nextCursor"].is_null() {
                break;
            }
            assert_eq!(page["nextCursor"][2], "all");
            query = format!("limit=2&{}", cursor_query(&page["nextCursor"], strings));
        }
        assert_eq!(seen, all_ids, "cursor of {strings} strings");
    }
    // Revoking the newest token: it moves to the inactive list.
    app.revoke_votes(&me, &a, 1).await;
    let (_, active) = app
        .get_as("/me/vote-tokens?active=true&limit=3", Some(&me))
        .await;
    assert_eq!(ids(&active), all_ids[1..4].to_vec());
    assert_eq!(active["nextCursor"][2], "true");
    let (_, rest) = app
        .get_as(
            &format!("/me/vote-tokens?{}", cursor_query(&active["nextCursor"], 3)),
            Some(&me),
        )
        .await;
    assert_eq!(
        ids(&rest),
        all_ids[4..].to_vec(),
        "the cursor keeps its filter"
    );
    let (_, inactive) = app.get_as("/me/vote-tokens?active=false", Some(&me)).await;
    assert_eq!(ids(&inactive), all_ids[..1].to_vec());
    assert!(inactive["tokens"][0]["revoked_at"].is_string());
    // Another account sees none of them.
    let (_, theirs) = app
        .get_as("/me/vote-tokens", Some(&app.token("citizen-2", &[])))
        .await;
    assert!(ids(&theirs).is_empty());
}

async fn bad_cursors_and_filters_are_400(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    let id = uuid::Uuid::now_v7();
    for query in [
        "limit=0".to_owned(),
        "limit=101".to_owned(),
        "active=yes".to_owned(),
        "pagecursor=2026-01-01T00%3A00%3A00Z".to_owned(),
        format!("pagecursor=yesterday&pagecursor={id}"),
        "pagecursor=2026-01-01T00%3A00%3A00Z&pagecursor=not-an-id".to_owned(),
        format!("pagecursor=2026-01-01T00%3A00%3A00Z&pagecursor={id}&pagecursor=some"),
        format!("pagecursor=2026-01-01T00%3A00%3A00Z&pagecursor={id}&pagecursor=all&pagecursor=x"),
        format!("active=true&pagecursor=2026-01-01T00%3A00%3A00Z&pagecursor={id}&pagecursor=false"),
    ] {
        let (status, body) = app
            .get_as(&format!("/me/vote-tokens?{query}"), Some(&me))
            .await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    let ok = format!(
        "active=false&pagecursor=2026-01-01T00%3A00%3A00Z&pagecursor={id}&pagecursor=false"
    );
    assert_eq!(
        app.get_as(&format!("/me/vote-tokens?{ok}"), Some(&me))
            .await
            .0,
        200
    );
    let (status, body) = app.get("/me/vote-tokens").await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
}
