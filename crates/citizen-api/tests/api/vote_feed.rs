//! The vote feed (migration 0026): every place and revoke, through the API or by SQL alone, is
//! in the next read from the reader's position; reads and refused places add nothing; a read
//! from the start holds exactly the tokens active at its instant; and a reader polling while
//! two replicas place and revoke misses nothing that committed before its read.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use chrono::TimeDelta;
use citizen_api::store::{VoteChanges, VoteState};
use futures::future::join_all;
use reqwest::Method;
use serde_json::{json, Value};
use service_kit::clock::Clock;
use test_support::{on_both_backends, Backend};
use uuid::Uuid;

use crate::helpers::{spawn_on, Filing, TestApp};
use crate::news_generation::raw_execute;

on_both_backends!(crate::votes::spawn_votes;
    every_vote_write_is_in_the_next_read,
    a_read_from_the_start_holds_the_active_tokens_only,
);

async fn read(app: &TestApp, since: i64) -> VoteChanges {
    let now = app.clock.now();
    app.stores.reports.vote_changes(since, now).await.unwrap()
}

/// A reader of the feed: what it holds of each token and its position; what changed is what
/// differs from what it held (a PostgreSQL read may bring a token again unchanged).
struct Reader {
    at: i64,
    held: HashMap<Uuid, VoteState>,
}

impl Reader {
    async fn changed(&mut self, app: &TestApp, want: usize, what: &str) -> Vec<VoteState> {
        let changes = read(app, self.at).await;
        assert!(changes.next >= self.at, "{what}: the position went back");
        self.at = changes.next;
        let mut changed = Vec::new();
        for token in changes.tokens {
            if self.held.get(&token.token_id) != Some(&token) {
                self.held.insert(token.token_id, token.clone());
                changed.push(token);
            }
        }
        assert_eq!(changed.len(), want, "{what}: {changed:?}");
        changed
    }
}

pub(crate) async fn place(app: &TestApp, citizen: &str, target: Uuid, count: u32) -> (u16, Value) {
    app.send_json(
        Method::POST,
        "/me/vote-tokens",
        &app.token(citizen, &[]),
        &json!({"target": target, "count": count}),
    )
    .await
}

async fn revoke(app: &TestApp, citizen: &str, target: Uuid, count: u32) {
    let (status, body) = app
        .send_json(
            Method::PATCH,
            "/me/vote-token-revoke",
            &app.token(citizen, &[]),
            &json!({"target": target, "count": count}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

async fn every_vote_write_is_in_the_next_read(app: TestApp) {
    let a = app.file(Filing::new("Výtluk", 1)).await.report;
    let mut reader = Reader {
        at: 0,
        held: HashMap::new(),
    };
    reader.changed(&app, 0, "nothing placed").await;
    let (status, body) = place(&app, "citizen-1", a, 3).await;
    assert_eq!(status, 200, "{body}");
    let placed = reader.changed(&app, 3, "placed").await;
    let expires = app.time(0) + TimeDelta::days(30);
    for token in &placed {
        assert_eq!(
            (token.target_id, token.expires_at, token.revoked),
            (a, Some(expires), false)
        );
    }
    // Reads and a refused place (past the pool of 5) write nothing.
    app.get_ok("/reports").await;
    app.get_ok(&format!("/reports/{a}")).await;
    app.get_as("/me/vote-tokens", Some(&app.token("citizen-1", &[])))
        .await;
    let (status, _) = place(&app, "citizen-1", a, 3).await;
    assert_eq!(status, 409);
    reader.changed(&app, 0, "reads and a refusal").await;

    revoke(&app, "citizen-1", a, 1).await;
    let revoked = reader.changed(&app, 1, "revoked").await;
    assert!(revoked[0].revoked);
    // By SQL alone (as a project's deletion revokes its tokens).
    let kept = placed
        .iter()
        .find(|t| t.token_id != revoked[0].token_id)
        .unwrap();
    raw_execute(
        &app,
        &format!(
            "UPDATE vote_tokens SET revoked_at = inserted_at WHERE id = '{}'",
            kept.token_id
        ),
    )
    .await;
    let by_sql = reader.changed(&app, 1, "revoked by SQL").await;
    assert_eq!(
        (by_sql[0].token_id, by_sql[0].revoked),
        (kept.token_id, true)
    );
    reader.changed(&app, 0, "nothing since").await;
}

async fn a_read_from_the_start_holds_the_active_tokens_only(app: TestApp) {
    let a = app.file(Filing::new("Lampa", 1)).await.report;
    let b = app.file(Filing::new("Lavička", 2)).await.report;
    place(&app, "citizen-1", a, 2).await;
    place(&app, "citizen-2", b, 1).await;
    revoke(&app, "citizen-1", a, 1).await;
    app.clock.set(app.time(0) + TimeDelta::days(10));
    place(&app, "citizen-3", a, 4).await;
    let targets = |changes: &VoteChanges| {
        let mut targets: Vec<Uuid> = changes.tokens.iter().map(|t| t.target_id).collect();
        targets.sort();
        targets
    };
    let mut want = vec![a; 5];
    want.push(b);
    want.sort();
    assert_eq!(targets(&read(&app, 0).await), want);
    // The first places' tokens expire 30 days after them; the later ones 10 days later.
    app.clock.set(app.time(0) + TimeDelta::days(30));
    assert_eq!(targets(&read(&app, 0).await), vec![a; 4]);
    app.clock.set(app.time(0) + TimeDelta::days(40));
    let none = read(&app, 0).await;
    assert!(none.tokens.is_empty(), "{none:?}");
    assert!(none.next > 0);
}

const CITIZENS: usize = 40;

/// Two replicas place and revoke at once (each citizen places 3 on one report, then revokes
/// one) while a reader polls the feed from its position: after each read, every write a writer
/// had seen committed before the read started is there, and at the end the reader holds each
/// token as a read from the start sees it. On PostgreSQL, transactions commit in another order
/// than they took their ids, which a feed of ever larger numbers would miss.
async fn race(backend: Backend) {
    let Some(db) = test_support::database(backend, "vote-feed").await else {
        return;
    };
    let db = Arc::new(db);
    let one = spawn_on(db.clone(), |s| s.database.max_connections = 8).await;
    let two = Arc::new(spawn_on(db, |s| s.database.max_connections = 8).await);
    let targets = [
        one.file(Filing::new("Výtluk", 1)).await.report,
        one.file(Filing::new("Lampa", 2)).await.report,
    ];
    let first = read(&one, 0).await;
    // What each citizen had seen committed: (placed, revoked).
    let done: Arc<Mutex<HashMap<usize, (usize, usize)>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let (started, reading) = tokio::sync::oneshot::channel();
    let reader = {
        let (done, stop, app) = (done.clone(), stop.clone(), two.clone());
        let mut at = first.next;
        let mut held: HashMap<Uuid, VoteState> = HashMap::new();
        let mut started = Some(started);
        tokio::spawn(async move {
            let mut reads = 0;
            loop {
                let last = stop.load(Ordering::SeqCst);
                let before = done.lock().unwrap().clone();
                let changes = read(&app, at).await;
                at = changes.next;
                for token in changes.tokens {
                    held.insert(token.token_id, token);
                }
                reads += 1;
                let (placed, revoked) = before
                    .values()
                    .fold((0, 0), |(p, r), (dp, dr)| (p + dp, r + dr));
                let held_revoked = held.values().filter(|t| t.revoked).count();
                assert!(held.len() >= placed, "read {reads} misses a place");
                assert!(held_revoked >= revoked, "read {reads} misses a revoke");
                if let Some(started) = started.take() {
                    let _ = started.send(());
                }
                if last {
                    return (held, reads);
                }
            }
        })
    };
    reading.await.unwrap();
    let writes = (0..CITIZENS).map(|i| {
        let app = if i % 2 == 0 { &one } else { &*two };
        let (done, target) = (done.clone(), targets[i % 2]);
        async move {
            let citizen = format!("citizen-{i}");
            let (status, body) = place(app, &citizen, target, 3).await;
            assert_eq!(status, 200, "{body}");
            done.lock().unwrap().insert(i, (3, 0));
            revoke(app, &citizen, target, 1).await;
            done.lock().unwrap().insert(i, (3, 1));
        }
    });
    join_all(writes).await;
    stop.store(true, Ordering::SeqCst);
    let (held, reads) = reader.await.unwrap();
    assert!(reads >= 2, "the reader read before and after the writes");
    let active: HashMap<Uuid, VoteState> = read(&one, 0)
        .await
        .tokens
        .into_iter()
        .map(|t| (t.token_id, t))
        .collect();
    let held_active: HashMap<Uuid, VoteState> =
        held.into_iter().filter(|(_, t)| !t.revoked).collect();
    assert_eq!(active.len(), CITIZENS * 2);
    assert_eq!(held_active, active, "the reader holds every token as it is");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reader_misses_no_vote_while_two_replicas_write_on_postgres() {
    race(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reader_misses_no_vote_while_two_replicas_write_on_sqlite() {
    race(Backend::Sqlite).await;
}
