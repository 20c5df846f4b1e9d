//! Two service instances on one database, hundreds of simultaneous place and revoke requests for
//! one account: the pool is never overdrawn, never more is revoked than was active, and the
//! figures add up afterwards.

use std::sync::Arc;

use futures::future::join_all;
use test_support::Backend;

use crate::helpers::{spawn_on, Filing, TestApp};

const MAX: u64 = 10;
const REQUESTS: usize = 300;

async fn two_instances(backend: Backend) -> Option<(TestApp, TestApp)> {
    let db = Arc::new(test_support::database(backend, "race").await?);
    let configure = |s: &mut citizen_api::Settings| {
        s.votes.max_count = MAX as u32;
        s.database.max_connections = 8;
    };
    // One replica commits votes without waiting for the disk (the default), the other waits
    // (`votes.synchronous_commit`): both paths share the lock.
    let first = spawn_on(db.clone(), configure).await;
    let second = spawn_on(db, |s| {
        configure(s);
        s.votes.synchronous_commit = true;
    })
    .await;
    Some((first, second))
}

async fn race(backend: Backend) {
    let Some((one, two)) = two_instances(backend).await else {
        return;
    };
    let targets = [
        one.file(Filing::new("A", 1)).await.report.to_string(),
        one.file(Filing::new("B", 2)).await.report.to_string(),
    ];
    let token = one.token("racer", &[]);
    let requests = (0..REQUESTS).map(|i| {
        let app = if i % 2 == 0 { &one } else { &two };
        let target = &targets[i % 4 / 2];
        let count = 1 + (i % 3) as u64;
        let token = token.clone();
        async move {
            if i % 3 == 2 {
                let (status, body) = app.revoke_votes(&token, &target, count).await;
                assert_eq!(status, 200, "revoke: {body}");
                (0, body["revoked_count"].as_u64().unwrap())
            } else {
                let (status, body) = app.vote(&token, &target, count).await;
                match status {
                    200 => {
                        let active = body["active_tokens"].as_u64().unwrap();
                        assert!(active <= MAX, "the pool was overdrawn: {body}");
                        assert_eq!(body["tokens"].as_array().unwrap().len() as u64, count);
                        (count, 0)
                    }
                    409 => {
                        assert_eq!(body["name"], "NOT_ENOUGH_VOTE_TOKENS");
                        (0, 0)
                    }
                    other => panic!("place answered {other}: {body}"),
                }
            }
        }
    });
    let results = join_all(requests).await;
    let placed: u64 = results.iter().map(|r| r.0).sum();
    let revoked: u64 = results.iter().map(|r| r.1).sum();
    assert!(
        placed > MAX,
        "the race placed too little to mean anything ({placed})"
    );
    assert!(revoked > 0, "the race revoked nothing");
    let (_, summary) = one.get_as("/me/vote-tokens-summary", Some(&token)).await;
    let active = summary["active_tokens"].as_u64().unwrap();
    assert_eq!(
        placed - revoked,
        active,
        "placed {placed} - revoked {revoked} != active: {summary}"
    );
    assert!(active <= MAX);
    assert_eq!(summary["available_tokens"].as_u64().unwrap(), MAX - active);
    let per_target: u64 = {
        let mut sum = 0;
        for target in &targets {
            let (_, on) = two
                .get_as(&format!("/me/vote-tokens/{target}"), Some(&token))
                .await;
            sum += on["active_tokens"].as_u64().unwrap();
        }
        sum
    };
    assert_eq!(
        per_target, active,
        "the per-target figures add up to the pool's"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_on_postgres_never_overdraw_the_pool() {
    race(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_on_sqlite_never_overdraw_the_pool() {
    race(Backend::Sqlite).await;
}
