//! Kept vote counts under racing replicas (issue 55): two service instances on one database,
//! places and revokes of many accounts through both while both replicas' expiry sweeps run;
//! afterwards every report's `votes_count`, and its issues' copies, equal a recount from the
//! tokens, and each expired token left its count exactly once.

use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use citizen_api::settings::votes::Expiry;
use futures::future::join_all;
use service_kit::db::{Database, DatabaseSettings};
use test_support::Backend;

use crate::helpers::{spawn_on, Filing, TestApp};

const REPORTS: usize = 4;
const ACCOUNTS: usize = 24;
/// Tokens each account places before the race, all expired when it starts.
const EARLY: u64 = 3;

/// Per report: (id, kept `votes_count`, the recount of its tokens active at `now`, how many of
/// its issues carry another count than the report).
pub async fn kept_and_recounted(app: &TestApp, now: DateTime<Utc>) -> Vec<(String, i64, i64, i64)> {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    let db = Database::connect(&settings, citizen_api::store::SCHEMA)
        .await
        .unwrap();
    let sql = |id: &str| {
        format!(
            "SELECT {id}, r.votes_count, \
             (SELECT count(*) FROM vote_tokens v WHERE v.target_id = r.id \
              AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > $1)), \
             (SELECT count(*) FROM issues i WHERE i.report_id = r.id \
              AND i.votes_count <> r.votes_count) \
             FROM reports r ORDER BY r.id"
        )
    };
    match db {
        Database::Postgres(pool) => sqlx::query_as(&sql("r.id::text"))
            .bind(now)
            .fetch_all(&pool)
            .await
            .unwrap(),
        Database::Sqlite(pool) => sqlx::query_as(&sql("r.id"))
            .bind(now.timestamp_micros())
            .fetch_all(&pool)
            .await
            .unwrap(),
    }
}

async fn race(backend: Backend) {
    let Some(db) = test_support::database(backend, "count-race").await else {
        return;
    };
    let db = Arc::new(db);
    let configure = |s: &mut citizen_api::Settings| {
        s.votes.max_count = 6;
        s.votes.expiry = Expiry::Days;
        s.votes.expiry_days = Some(1);
        s.database.max_connections = 8;
    };
    let one = spawn_on(db.clone(), configure).await;
    let two = spawn_on(db, configure).await;
    let t0 = one.time(0);
    let t1 = t0 + TimeDelta::days(1) + TimeDelta::seconds(1);
    for app in [&one, &two] {
        app.clock.set(t0);
    }
    let mut targets = Vec::new();
    for k in 0..REPORTS {
        let filed = one
            .file(Filing::new(&format!("report {k}"), k as i64 + 1))
            .await;
        targets.push(filed.report.to_string());
    }
    let tokens: Vec<String> = (0..ACCOUNTS)
        .map(|k| one.token(&format!("voter-{k}"), &[]))
        .collect();
    // Before the race every account places tokens that expire a day later.
    for (status, body) in join_all(
        tokens
            .iter()
            .enumerate()
            .map(|(k, token)| one.vote(token, &targets[k % REPORTS], EARLY)),
    )
    .await
    {
        assert_eq!(status, 200, "{body}");
    }
    // The race, once they have expired: places and revokes on both replicas, and both
    // replicas' sweeps at the same instant.
    for app in [&one, &two] {
        app.clock.set(t1);
    }
    // Rounds of every account: two places, then a revoke, on one report, then the next report.
    let votes = (0..ACCOUNTS * 9).map(|i| {
        let (round, account) = (i / ACCOUNTS, i % ACCOUNTS);
        let app = if i % 2 == 0 { &one } else { &two };
        let token = &tokens[account];
        let target = &targets[(account + round / 3) % REPORTS];
        async move {
            if round % 3 == 2 {
                let (status, body) = app.revoke_votes(token, target, 1).await;
                assert_eq!(status, 200, "revoke: {body}");
                (0, body["revoked_count"].as_u64().unwrap())
            } else {
                let (status, body) = app.vote(token, target, 2).await;
                match status {
                    200 => (2, 0),
                    409 => (0, 0),
                    other => panic!("place answered {other}: {body}"),
                }
            }
        }
    });
    let sweeps = [&one, &two].map(|app| async move {
        let mut swept = 0;
        for _ in 0..4 {
            swept += citizen_api::app::vote_expiry::sweep(app.stores.votes.as_ref(), t1)
                .await
                .expect("a sweep");
        }
        swept
    });
    let (results, swept) = futures::join!(join_all(votes), join_all(sweeps));
    let placed: u64 = results.iter().map(|r| r.0).sum();
    let revoked: u64 = results.iter().map(|r| r.1).sum();
    assert!(
        placed > 0 && revoked > 0,
        "placed {placed}, revoked {revoked}"
    );
    // A sweep that found the other's lock left its share to the next one.
    let swept: u64 = swept.iter().sum::<u64>() + one.expire_votes().await;
    assert_eq!(
        swept,
        EARLY * ACCOUNTS as u64,
        "each expired token leaves its count exactly once"
    );
    let rows = kept_and_recounted(&one, t1).await;
    assert_eq!(rows.len(), REPORTS);
    for (id, kept, recount, stale_copies) in &rows {
        assert_eq!(
            kept, recount,
            "report {id}: kept {kept}, recounted {recount}"
        );
        assert_eq!(*stale_copies, 0, "report {id}: an issue's copy differs");
    }
    let total: i64 = rows.iter().map(|r| r.1).sum();
    assert_eq!(
        total as u64,
        placed - revoked,
        "the counts add up to the race's net"
    );
    // And the API reads them: the public list by votes shows each report's count.
    let list = two.get_ok("/reports?orderBy=votes").await;
    for row in list["reports"].as_array().unwrap() {
        let kept = rows
            .iter()
            .find(|r| r.0 == row["id"].as_str().unwrap())
            .unwrap()
            .1;
        assert_eq!(row["votes_count"].as_i64().unwrap(), kept, "{row}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_replicas_keep_every_count_equal_to_a_recount_on_postgres() {
    race(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_replicas_keep_every_count_equal_to_a_recount_on_sqlite() {
    race(Backend::Sqlite).await;
}
