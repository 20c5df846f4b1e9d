//! PostgreSQL stopped (`pg_ctl stop -m fast`: its sessions are cut) for 3 s and started again
//! while four citizens file reports with a photo and vote and revoke, and an officer accepts and
//! resolves. Every answer is 2xx or a 503 error body within the pool's acquire time-out (and the
//! work's margin); afterwards every acknowledged filing is there with its photo, no file is left
//! without its report, no report without its file, every acknowledged step is the issue's
//! state, and every account's pool is what its acknowledged places and revokes make it.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use futures::future::join_all;
use sqlx::Row;
use uuid::Uuid;

use crate::harness::{self, one_case_at_a_time, token, Answer, Api, Platform, Tally, MANAGER};

const CASE: &str = "postgres stopped for 3 s";
/// Load before the stop, the stop, and load after the start.
const BEFORE: Duration = Duration::from_millis(1500);
const STOPPED: Duration = Duration::from_secs(3);
const AFTER: Duration = Duration::from_secs(3);
const CITIZENS: usize = 4;
/// Reports filed before the fault: the officers' work and the citizens' vote targets.
const WORKED: usize = 12;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_for_three_seconds_under_load() {
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("dbrestart", false).await else {
        return;
    };
    let api = platform.citizen_api(None, &[]).await;
    let officer = token("officer-1", MANAGER);
    let seeder = token("seeder", &[]);
    let mut targets = Vec::new();
    for i in 0..WORKED {
        let filed = api.file(&seeder, &format!("Before the fault {i}")).await;
        assert_eq!(filed.status, Some(201), "{filed:?}");
        targets.push(filed.id());
    }
    let mut issues = Vec::new();
    for &report in &targets {
        issues.push(api.issue_of(&officer, report).await);
    }

    let started = Instant::now();
    let until = started + BEFORE + STOPPED + AFTER;
    let fault = async {
        tokio::time::sleep(BEFORE).await;
        platform.pg.stop().await;
        tokio::time::sleep(STOPPED).await;
        platform.pg.start_server().await;
    };
    let citizens = join_all((0..CITIZENS).map(|n| citizen(&api, n, &targets, until)));
    let ((), citizens, steps) =
        tokio::join!(fault, citizens, officer_work(&api, &officer, &issues));

    // Every answer under the fault kept the promise.
    for work in &citizens {
        for answer in work.filings.iter().chain(&work.votes) {
            answer.check_under_fault();
        }
    }
    for (_, _, answer) in &steps {
        answer.check_under_fault();
    }

    // Afterwards: what was acknowledged is there, and nothing else half.
    let mut sql = platform.sql().await;
    let mut filings = Tally::default();
    let mut filed = BTreeSet::new();
    for answer in citizens.iter().flat_map(|w| &w.filings) {
        filings.count(answer);
        if answer.acknowledged() {
            filed.insert(answer.id());
        }
    }
    let in_db: BTreeSet<Uuid> = platform.ids("reports").await;
    filings.found = filed.intersection(&in_db).count();
    filings.lost = filed.difference(&in_db).count();
    filings.report(CASE, "filings");
    assert_eq!(filings.lost, 0, "acknowledged filings not found");
    assert!(
        filings.refused_503 > 0,
        "the fault refused no filing: {filings:?}"
    );
    // Refused filings left nothing: every report is one acknowledged or filed before.
    let unacknowledged: Vec<_> = in_db
        .iter()
        .filter(|id| !filed.contains(id) && !targets.contains(id))
        .collect();
    // A filing refused with 503 whose commit had in fact gone through would be here.
    assert!(
        unacknowledged.is_empty(),
        "reports in the database that were not acknowledged: {unacknowledged:?}"
    );
    let media: BTreeSet<Uuid> = platform.ids("media").await;
    assert_eq!(
        media.len(),
        in_db.len(),
        "one photo per report: {} photos, {} reports",
        media.len(),
        in_db.len()
    );
    let files = platform.stored_files();
    let orphaned: Vec<_> = files.difference(&media).collect();
    let missing: Vec<_> = media.difference(&files).collect();
    assert!(orphaned.is_empty(), "files without a report: {orphaned:?}");
    assert!(
        missing.is_empty(),
        "reports' photos without a file: {missing:?}"
    );
    eprintln!(
        "{CASE}: files in the media store {}, orphaned {}, missing {}",
        files.len(),
        orphaned.len(),
        missing.len()
    );

    // Every account's pool is exactly what its acknowledged answers made it.
    let mut votes = Tally::default();
    for work in &citizens {
        let before = votes.acknowledged;
        for answer in &work.votes {
            votes.count(answer);
        }
        let acknowledged = votes.acknowledged - before;
        let active: BTreeMap<Uuid, i64> = sqlx::query(
            "SELECT target_id, count(*) AS n FROM vote_tokens \
             WHERE subject = $1 AND revoked_at IS NULL GROUP BY target_id",
        )
        .bind(&work.subject)
        .fetch_all(&mut sql)
        .await
        .expect("tokens")
        .iter()
        .map(|r| (r.get("target_id"), r.get("n")))
        .collect();
        let expected: BTreeMap<Uuid, i64> = work
            .active
            .iter()
            .filter(|(_, &n)| n > 0)
            .map(|(&t, &n)| (t, n))
            .collect();
        // An exact pool holds the effect of every acknowledged place and revoke.
        if active == expected {
            votes.found += acknowledged;
        } else {
            votes.lost += acknowledged;
        }
        assert_eq!(active, expected, "the pool of {}", work.subject);
        let (status, summary) = api
            .get(&token(&work.subject, &[]), "/me/vote-tokens-summary")
            .await;
        assert_eq!(status, Some(200));
        let total: i64 = expected.values().sum();
        assert_eq!(summary["active_tokens"], total, "{summary}");
        assert_eq!(
            summary["available_tokens"],
            harness::MAX_VOTES - total,
            "{summary}"
        );
    }
    votes.report(CASE, "places and revokes (found: in an exact pool)");

    // Every acknowledged step is the issue's state.
    let mut tally = Tally::default();
    for (issue, step, answer) in &steps {
        tally.count(answer);
        if !answer.acknowledged() {
            continue;
        }
        let status: String = sqlx::query_scalar("SELECT status FROM issues WHERE id = $1")
            .bind(issue)
            .fetch_one(&mut sql)
            .await
            .expect("issue");
        let at_least = match *step {
            "accept" => ["accepted", "resolved"].contains(&status.as_str()),
            _ => status == "resolved",
        };
        if at_least {
            tally.found += 1;
        } else {
            tally.lost += 1;
        }
    }
    tally.report(CASE, "officers' steps");
    assert_eq!(tally.lost, 0);
    assert!(
        tally.refused_503 > 0,
        "the fault refused no step: {tally:?}"
    );
    api.process.terminate(Duration::from_secs(30)).await;
}

/// One citizen's answers and its pool as they acknowledged it.
struct CitizenWork {
    subject: String,
    filings: Vec<Answer>,
    votes: Vec<Answer>,
    /// Active tokens per target, as the acknowledged answers say.
    active: BTreeMap<Uuid, i64>,
}

/// Files a report with a photo, then places a token while the pool has room, else revokes
/// every token of the target holding most, until `until`. The pool is tracked from the
/// acknowledged answers only, so a refusal that wrote nothing never leads to a 409.
async fn citizen(api: &Api, n: usize, targets: &[Uuid], until: Instant) -> CitizenWork {
    let subject = format!("citizen-{n}");
    let bearer = token(&subject, &[]);
    let mut work = CitizenWork {
        subject,
        filings: Vec::new(),
        votes: Vec::new(),
        active: BTreeMap::new(),
    };
    let mut round = 0;
    while Instant::now() < until {
        work.filings.push(
            api.file(&bearer, &format!("{} round {round}", work.subject))
                .await,
        );
        let used: i64 = work.active.values().sum();
        let answer = if used < harness::MAX_VOTES {
            let target = targets[(round + n) % targets.len()];
            let answer = api.place(&bearer, target, 1).await;
            if answer.acknowledged() {
                *work.active.entry(target).or_default() += 1;
            }
            answer
        } else {
            let (&target, &held) = work
                .active
                .iter()
                .max_by_key(|(_, &held)| held)
                .expect("a full pool holds tokens");
            let answer = api.revoke(&bearer, target, held).await;
            if answer.acknowledged() {
                assert_eq!(answer.body["revoked_count"], held, "{answer:?}");
                work.active.insert(target, 0);
            }
            answer
        };
        work.votes.push(answer);
        round += 1;
    }
    work
}

/// Accepts, then resolves, each issue in turn, a step every 250 ms, sending a refused step
/// again: (issue, step, answer) of every attempt.
async fn officer_work(
    api: &Api,
    bearer: &str,
    issues: &[Uuid],
) -> Vec<(Uuid, &'static str, Answer)> {
    let mut answers = Vec::new();
    for &issue in issues {
        for step in ["accept", "resolve"] {
            loop {
                let answer = api.step(bearer, issue, step).await;
                let done = answer.acknowledged() || answer.status != Some(503);
                answers.push((issue, step, answer));
                tokio::time::sleep(Duration::from_millis(250)).await;
                if done {
                    break;
                }
            }
        }
    }
    answers
}
