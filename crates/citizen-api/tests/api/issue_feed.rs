//! The issue feed (migration 0024): every write of an issue, through the API, a trigger or SQL
//! alone, is in the next read from the reader's position, with the state the list shows; reads
//! and refused writes add nothing; and a reader polling while two replicas write misses nothing
//! that committed before its read.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use citizen_api::store::{FeedPositions, IssueChanges, IssueState};
use domain::geo::LonLat;
use domain::issues::IssueStatus;
use futures::future::join_all;
use reqwest::Method;
use serde_json::json;
use test_support::{on_both_backends, Backend};
use uuid::Uuid;

use citizen_api::store::SCHEMA;
use service_kit::db::Database;

use crate::feed_both::both;
use crate::helpers::{spawn_on, Filing, TestApp};
use crate::news_generation::raw_execute;

on_both_backends!(crate::helpers::spawn_app;
    every_issue_write_is_in_the_next_read,
    issues_older_than_the_feed_are_in_the_read_from_the_start,
);

async fn read(app: &TestApp, since: i64) -> IssueChanges {
    app.stores.reports.issue_changes(since).await.unwrap()
}

/// The issues of a read by id (a read may hold an issue once only).
fn by_id(changes: &IssueChanges) -> HashMap<Uuid, IssueState> {
    let map: HashMap<Uuid, IssueState> = changes
        .issues
        .iter()
        .map(|issue| (issue.issue_id, issue.clone()))
        .collect();
    assert_eq!(map.len(), changes.issues.len(), "an issue read twice");
    map
}

/// A reader of the feed: what it holds of each issue and its position. A read may bring an
/// issue again unchanged (on PostgreSQL every row at or above the oldest transaction running
/// anywhere on the server when the last read ran), so what changed is what differs from what
/// the reader held.
struct Reader {
    at: i64,
    held: HashMap<Uuid, IssueState>,
}

impl Reader {
    async fn from(app: &TestApp, position: i64) -> Self {
        let mut reader = Reader {
            at: position,
            held: HashMap::new(),
        };
        reader.read(app).await;
        reader
    }

    /// Reads from the position and applies: the issues that are new or changed.
    async fn read(&mut self, app: &TestApp) -> HashMap<Uuid, IssueState> {
        let changes = read(app, self.at).await;
        assert!(changes.next >= self.at, "the position went back");
        self.at = changes.next;
        let mut changed = HashMap::new();
        for (id, issue) in by_id(&changes) {
            if self.held.get(&id) != Some(&issue) {
                self.held.insert(id, issue.clone());
                changed.insert(id, issue);
            }
        }
        changed
    }

    /// Reads: exactly `issues` are new or changed; those.
    async fn changed(
        &mut self,
        app: &TestApp,
        issues: &[Uuid],
        what: &str,
    ) -> HashMap<Uuid, IssueState> {
        let changed = self.read(app).await;
        let mut got: Vec<Uuid> = changed.keys().copied().collect();
        let mut want = issues.to_vec();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{what}: the issues that changed");
        changed
    }
}

async fn every_issue_write_is_in_the_next_read(app: TestApp) {
    let mut reader = Reader::from(&app, 0).await;
    let a = app
        .file(Filing::new("Díra v silnici", 1).at(14.42, 50.08))
        .await;
    let b = app.file(Filing::new("Lampa nesvítí", 2)).await;
    let issues = reader.changed(&app, &[a.issue, b.issue], "filed").await;
    let default = app.stores.categories.categories().await.unwrap();
    let default = default.iter().find(|c| c.is_default).unwrap().id;
    let filed_a = &issues[&a.issue];
    assert_eq!(
        (
            filed_a.report_id,
            filed_a.category_id,
            filed_a.status,
            filed_a.filed_at,
            filed_a.point
        ),
        (
            a.report,
            default,
            IssueStatus::Open,
            app.time(1),
            Some(LonLat {
                lon: 14.42,
                lat: 50.08
            })
        )
    );
    assert_eq!(issues[&b.issue].point, None);

    // Reads write nothing.
    app.get_ok("/reports").await;
    app.get_ok(&format!("/reports/{}", a.report)).await;
    app.get_ok(&format!("/reports/{}/status", a.report)).await;
    reader.changed(&app, &[], "reads").await;

    let boss = app.boss();
    let (status, _) = app.step(a.issue, "accept", &boss).await;
    assert_eq!(status, 200);
    let issues = reader.changed(&app, &[a.issue], "accepted").await;
    assert_eq!(issues[&a.issue].status, IssueStatus::Accepted);
    assert!(
        issues[&a.issue].version > filed_a.version,
        "the version moved"
    );

    // A refused step is rolled back, and changes nothing.
    let (status, _) = app.step(b.issue, "resolve", &boss).await;
    assert_eq!(status, 409);
    reader.changed(&app, &[], "refused").await;

    // A move: the moved issue and the one opened in the other category.
    let lights = app.admin_category("Osvětlení", None).await;
    let (status, body) = app.move_to(b.issue, lights, &boss).await;
    assert_eq!(status, 200, "{body}");
    let opened = app.stores.reports.report(b.report).await.unwrap().unwrap();
    let opened = opened.issues.iter().find(|i| i.id != b.issue).unwrap().id;
    let issues = reader.changed(&app, &[b.issue, opened], "moved").await;
    assert_eq!(issues[&b.issue].status, IssueStatus::Moved);
    assert_eq!(
        (issues[&opened].status, issues[&opened].category_id),
        (IssueStatus::Open, lights)
    );

    // A change of the report reaches its issues through the copy triggers (migration 0014).
    let (status, _) = app
        .send_json(
            Method::PUT,
            &format!("/admin/reports/{}/explicit", a.report),
            &boss,
            &json!({ "explicit": true }),
        )
        .await;
    assert_eq!(status, 200);
    reader.changed(&app, &[a.issue], "explicit").await;

    // SQL alone, whoever runs it.
    raw_execute(
        &app,
        &format!("UPDATE issues SET title = 'Lampa u školy' WHERE id = '{opened}'"),
    )
    .await;
    reader.changed(&app, &[opened], "SQL").await;

    // From the start, every issue once, as the reader holds it.
    let all = by_id(&read(&app, 0).await);
    assert_eq!(all, reader.held);
}

/// Puts every issue at the position rows written before migration 0024 hold (0), with the
/// triggers off (PostgreSQL's would stamp the writing transaction).
async fn as_before_the_feed(app: &TestApp) {
    match Database::connect(&app.settings.database, SCHEMA)
        .await
        .unwrap()
    {
        Database::Postgres(pool) => {
            let mut tx = pool.begin().await.unwrap();
            for sql in [
                "SET LOCAL session_replication_role = replica",
                "UPDATE issues SET changed_xid = '0'",
            ] {
                sqlx::query(sql).execute(&mut *tx).await.unwrap();
            }
            tx.commit().await.unwrap();
        }
        Database::Sqlite(pool) => {
            sqlx::query("UPDATE issues SET change_seq = 0")
                .execute(&pool)
                .await
                .unwrap();
        }
    }
}

async fn issues_older_than_the_feed_are_in_the_read_from_the_start(app: TestApp) {
    let a = app.file(Filing::new("Starý výtluk", 1)).await;
    let b = app.file(Filing::new("Stará lampa", 2)).await;
    as_before_the_feed(&app).await;
    let mut reader = Reader {
        at: 0,
        held: HashMap::new(),
    };
    reader
        .changed(&app, &[a.issue, b.issue], "from the start")
        .await;
    reader.changed(&app, &[], "nothing since").await;
    let (status, _) = app.step(a.issue, "accept", &app.boss()).await;
    assert_eq!(status, 200);
    reader.changed(&app, &[a.issue], "accepted").await;
}

/// PostgreSQL: a transaction that took its id first but commits after another one that a reader
/// has already seen. Its change must be in the reader's next read all the same (a position past
/// the larger id would skip it for good). SQLite has one writer at a time, so there the order
/// of positions is the order of commits.
#[tokio::test]
async fn a_change_committed_after_a_later_one_is_in_the_next_read() {
    let Some(app) = crate::helpers::spawn_app(Backend::Postgres).await else {
        return;
    };
    let early = app.file(Filing::new("Rozbitý chodník", 1)).await;
    let late = app.file(Filing::new("Graffiti", 2)).await;
    let mut reader = Reader::from(&app, 0).await;
    let Database::Postgres(pool) = Database::connect(&app.settings.database, SCHEMA)
        .await
        .unwrap()
    else {
        unreachable!("a PostgreSQL app");
    };
    let mut held = pool.begin().await.unwrap();
    sqlx::query("UPDATE issues SET title = 'Rozbitý chodník u školy' WHERE id = $1")
        .bind(early.issue)
        .execute(&mut *held)
        .await
        .unwrap();
    let (status, _) = app.step(late.issue, "accept", &app.boss()).await;
    assert_eq!(status, 200);
    reader
        .changed(&app, &[late.issue], "the later transaction")
        .await;
    held.commit().await.unwrap();
    reader
        .changed(
            &app,
            &[early.issue],
            "the earlier transaction, committed last",
        )
        .await;
}

/// What a writer saw committed: the reader must hold it after any read that started later.
#[derive(Debug, Clone, Copy)]
enum Done {
    Filed(Uuid),
    Accepted(Uuid),
}

const OPEN: usize = 30;
const WRITES: usize = 90;

/// Whether write `i` accepts an open issue (each once) rather than filing a report.
fn accepts(i: usize) -> bool {
    i.is_multiple_of(3) && i / 3 < OPEN
}

/// Two replicas file reports and accept issues at once while a reader polls the feed from its
/// position and applies each read: after each read, everything a writer had seen committed
/// before the read started is there, and at the end the reader holds exactly what a read of
/// every issue holds. On PostgreSQL, transactions commit in another order than they took their
/// ids, which a feed of ever larger numbers would miss.
async fn race(backend: Backend) {
    let Some(db) = test_support::database(backend, "feed").await else {
        return;
    };
    let db = Arc::new(db);
    let one = spawn_on(db.clone(), |s| s.database.max_connections = 8).await;
    let two = Arc::new(spawn_on(db, |s| s.database.max_connections = 8).await);
    let mut open = Vec::new();
    for i in 0..OPEN {
        open.push(one.file(Filing::new("Výtluk", i as i64)).await.issue);
    }
    let first = read(&one, 0).await;
    let mut held = by_id(&first);
    let done: Arc<Mutex<Vec<Done>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));

    // The writers start once the reader has read once, so it reads before, while and after.
    let (started, reading) = tokio::sync::oneshot::channel();
    let reader = {
        let (done, stop, app) = (done.clone(), stop.clone(), two.clone());
        // As the list index reads: both feeds in one statement (`feed_changes`).
        let mut at = FeedPositions {
            issues: first.next,
            votes: 0,
        };
        let mut started = Some(started);
        tokio::spawn(async move {
            let mut reads = 0;
            loop {
                let last = stop.load(Ordering::SeqCst);
                let before: Vec<Done> = done.lock().unwrap().clone();
                let changes = both(&app, at).await;
                at = FeedPositions {
                    issues: changes.issues.next,
                    votes: changes.votes.next,
                };
                for issue in changes.issues.issues {
                    held.insert(issue.issue_id, issue);
                }
                reads += 1;
                for what in before {
                    let found = match what {
                        Done::Filed(report) => held.values().any(|i| i.report_id == report),
                        Done::Accepted(issue) => {
                            held.get(&issue).map(|i| i.status) == Some(IssueStatus::Accepted)
                        }
                    };
                    assert!(found, "read {reads} misses {what:?}, committed before it");
                }
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
    let boss = one.boss();
    let writes = (0..WRITES).map(|i| {
        let app = if i % 2 == 0 { &one } else { &*two };
        let (done, boss, open) = (done.clone(), boss.clone(), open.clone());
        async move {
            let what = if accepts(i) {
                let issue = open[i / 3];
                let (status, body) = app.step(issue, "accept", &boss).await;
                assert_eq!(status, 200, "{body}");
                Done::Accepted(issue)
            } else {
                Done::Filed(
                    app.file(Filing::new("Lavička", 100 + i as i64))
                        .await
                        .report,
                )
            };
            done.lock().unwrap().push(what);
        }
    });
    join_all(writes).await;
    stop.store(true, Ordering::SeqCst);
    let (held, reads) = reader.await.unwrap();
    assert!(reads >= 2, "the reader read before and after the writes");
    let now = by_id(&read(&one, 0).await);
    let filed = (0..WRITES).filter(|&i| !accepts(i)).count();
    assert_eq!(held.len(), first.issues.len() + filed);
    assert_eq!(held, now, "the reader holds every issue as it is");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reader_misses_nothing_while_two_replicas_write_on_postgres() {
    race(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reader_misses_nothing_while_two_replicas_write_on_sqlite() {
    race(Backend::Sqlite).await;
}
