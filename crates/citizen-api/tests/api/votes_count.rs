//! A report's `votes_count` and `orderBy=votes`: the kept count of its tokens (migration 0034),
//! the same in the public list (by votes and by date), the detail and the author's own list; an
//! expired token leaves it at the next expiry sweep, driven here with the injected clock.

use chrono::TimeDelta;
use test_support::on_both_backends;

use crate::helpers::{column, Filing, TestApp};

on_both_backends!(crate::votes::spawn_votes;
    votes_count_follows_places_revokes_and_expiry,
    order_by_votes_breaks_ties_by_date_and_pages_cleanly,
);

async fn place(app: &TestApp, token: &str, target: &str, count: u32) {
    let (status, body) = app.vote(token, target, count.into()).await;
    assert_eq!(status, 200, "{body}");
}

/// The `votes_count` of `id` in the public list, its detail and its author's own list (the
/// list by date, written from the index, must count as the list by votes does).
async fn counts(app: &TestApp, id: &str, author: &str) -> (i64, i64, i64) {
    let in_list = |list: serde_json::Value| {
        list["reports"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()["votes_count"]
            .as_i64()
            .unwrap()
    };
    let by_votes = in_list(app.get_ok("/reports?orderBy=votes").await);
    let by_date = in_list(app.get_ok("/reports").await);
    assert_eq!(by_date, by_votes, "the index's count");
    let detail = app.get_ok(&format!("/reports/{id}")).await["votes_count"]
        .as_i64()
        .unwrap();
    let own = in_list(app.get_as("/me/reports", Some(author)).await.1);
    (by_votes, detail, own)
}

async fn votes_count_follows_places_revokes_and_expiry(app: TestApp) {
    let author = app.token("author", &[]);
    let a = app
        .file(Filing::new("A", 1).by("author"))
        .await
        .report
        .to_string();
    assert_eq!(counts(&app, &a, &author).await, (0, 0, 0));
    place(&app, &app.token("citizen-1", &[]), &a, 3).await;
    app.clock.set(app.time(0) + TimeDelta::days(1));
    place(&app, &app.token("citizen-2", &[]), &a, 2).await;
    assert_eq!(counts(&app, &a, &author).await, (5, 5, 5));
    let (status, _) = app.revoke_votes(&app.token("citizen-2", &[]), &a, 1).await;
    assert_eq!(status, 200);
    assert_eq!(counts(&app, &a, &author).await, (4, 4, 4));
    // The first three expire 30 days after placing. Until a sweep runs they are still counted
    // (docs/decisions.md, "Kept vote counts"); a sweep one microsecond early changes nothing.
    app.clock
        .set(app.time(0) + TimeDelta::days(30) - TimeDelta::microseconds(1));
    assert_eq!(app.expire_votes().await, 0);
    app.clock.set(app.time(0) + TimeDelta::days(30));
    assert_eq!(counts(&app, &a, &author).await, (4, 4, 4));
    assert_eq!(app.expire_votes().await, 3);
    assert_eq!(counts(&app, &a, &author).await, (1, 1, 1));
    // The revoked one is not expired again: the second citizen's last token is.
    app.clock.set(app.time(0) + TimeDelta::days(31));
    assert_eq!(app.expire_votes().await, 1);
    assert_eq!(counts(&app, &a, &author).await, (0, 0, 0));
    assert_eq!(app.expire_votes().await, 0, "a second sweep finds nothing");
}

async fn order_by_votes_breaks_ties_by_date_and_pages_cleanly(app: TestApp) {
    let mut ids = Vec::new();
    for (title, second) in [("alpha", 1), ("bravo", 2), ("charlie", 3), ("delta", 4)] {
        ids.push(
            app.file(Filing::new(title, second))
                .await
                .report
                .to_string(),
        );
    }
    let [a, b, c, d] = [&*ids[0], &*ids[1], &*ids[2], &*ids[3]];
    place(&app, &app.token("citizen-1", &[]), b, 3).await;
    place(&app, &app.token("citizen-1", &[]), c, 1).await;
    place(&app, &app.token("citizen-2", &[]), c, 2).await;
    place(&app, &app.token("citizen-2", &[]), a, 1).await;
    // B and C have 3 each: the later filing first when descending, the earlier when ascending.
    let desc = app.get_ok("/reports?orderBy=votes").await;
    assert_eq!(column(&desc, "id"), [c, b, a, d]);
    assert_eq!(column(&desc, "votes_count"), ["3", "3", "1", "0"]);
    let asc = app
        .get_ok("/reports?orderBy=votes&orderDirection=asc")
        .await;
    assert_eq!(column(&asc, "id"), [d, a, b, c]);
    // Pages of one row walk the same order without overlap or gap.
    let mut walked = Vec::new();
    for offset in 0..4 {
        let page = app
            .get_ok(&format!("/reports?orderBy=votes&limit=1&offset={offset}"))
            .await;
        walked.extend(column(&page, "id"));
        assert_eq!(page["hasNextOffset"], offset < 3, "{page}");
    }
    assert_eq!(walked, [c, b, a, d]);
    // Filters still apply, and an expired vote no longer orders.
    let only = app.get_ok("/reports?orderBy=votes&q=bravo").await;
    assert_eq!(column(&only, "id"), [b]);
    app.clock.set(app.time(0) + TimeDelta::days(30));
    assert_eq!(app.expire_votes().await, 7);
    let later = app.get_ok("/reports?orderBy=votes").await;
    assert_eq!(column(&later, "votes_count"), ["0", "0", "0", "0"]);
    assert_eq!(column(&later, "id"), [d, c, b, a]);
}
