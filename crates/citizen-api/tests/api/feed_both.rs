//! Both feeds in one read (`ReportStore::feed_changes`, the list index's read before every page
//! it serves, on a connection of its own): it answers what each feed's own read answers from the
//! same positions, from one snapshot; and a cut feed connection costs the index nothing.

use std::collections::BTreeMap;

use citizen_api::store::{FeedChanges, FeedPositions, SCHEMA};
use service_kit::clock::Clock;
use service_kit::db::{Database, DatabaseSettings};
use test_support::{on_both_backends, Backend};
use uuid::Uuid;

use crate::helpers::{Filing, TestApp};

on_both_backends!(crate::votes::spawn_votes;
    one_read_of_both_feeds_answers_as_each_feed_alone,
);

pub(crate) async fn both(app: &TestApp, since: FeedPositions) -> FeedChanges {
    let now = app.clock.now();
    app.stores.reports.feed_changes(since, now).await.unwrap()
}

/// What a read brings, by id, in a form two reads compare by.
fn content(changes: &FeedChanges) -> (i64, BTreeMap<Uuid, String>, BTreeMap<Uuid, String>) {
    let issues = changes.issues.issues.iter();
    let tokens = changes.votes.tokens.iter();
    (
        changes.issues.categories,
        issues.map(|i| (i.issue_id, format!("{i:?}"))).collect(),
        tokens.map(|t| (t.token_id, format!("{t:?}"))).collect(),
    )
}

async fn each_alone(app: &TestApp, since: FeedPositions) -> FeedChanges {
    let now = app.clock.now();
    let reports = &app.stores.reports;
    FeedChanges {
        issues: reports.issue_changes(since.issues).await.unwrap(),
        votes: reports.vote_changes(since.votes, now).await.unwrap(),
    }
}

/// Places `count` tokens (`vote_feed::place`), which must succeed.
async fn place(app: &TestApp, citizen: &str, target: Uuid, count: u32) {
    let (status, body) = crate::vote_feed::place(app, citizen, target, count).await;
    assert_eq!(status, 200, "{body}");
}

/// Compares one read of both feeds with each feed's own read from `since`; answers the
/// positions to read from next.
async fn alike(app: &TestApp, since: FeedPositions, what: &str) -> (FeedPositions, usize) {
    let one = both(app, since).await;
    let alone = each_alone(app, since).await;
    assert_eq!(content(&one), content(&alone), "{what}");
    assert!(one.issues.next >= since.issues && one.votes.next >= since.votes);
    if app.db.backend == Backend::Postgres {
        // One statement, one snapshot: both positions are its `xmin`.
        assert_eq!(one.issues.next, one.votes.next, "{what}");
    } else {
        assert_eq!(
            (one.issues.next, one.votes.next),
            (alone.issues.next, alone.votes.next),
            "{what}"
        );
    }
    let next = FeedPositions {
        issues: one.issues.next,
        votes: one.votes.next,
    };
    (next, one.issues.issues.len() + one.votes.tokens.len())
}

async fn one_read_of_both_feeds_answers_as_each_feed_alone(app: TestApp) {
    let start = FeedPositions {
        issues: 0,
        votes: 0,
    };
    let (empty, _) = alike(&app, start, "nothing filed").await;
    let a = app.file(Filing::new("Výtluk", 1)).await.report;
    let b = app.file(Filing::new("Lampa", 2)).await.report;
    place(&app, "citizen-1", a, 3).await;
    place(&app, "citizen-2", b, 1).await;
    let (filed, changed) = alike(&app, empty, "filed and placed").await;
    assert!(changed >= 2 + 4, "two issues and four tokens: {changed}");
    let (_, all) = alike(&app, start, "from the start").await;
    assert!(all >= 6, "{all}");
    let (_, none) = alike(&app, filed, "nothing since").await;
    if app.db.backend == Backend::Sqlite {
        assert_eq!(none, 0);
    }
    // An issue without the vote feed moving, and a token without the issue feed moving.
    app.file(Filing::new("Lavička", 3)).await;
    place(&app, "citizen-1", b, 1).await;
    let (_, later) = alike(&app, filed, "one more of each").await;
    assert!(later >= 2, "{later}");
}

/// The backend process ids of `app`'s kept feed connections (PostgreSQL; a load's read of the
/// issue feed alone runs on the pool and holds no `UNION ALL`), after terminating them
/// first when `terminate` (waiting until they have ended).
async fn feed_connections(app: &TestApp, terminate: bool) -> Vec<i32> {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    let Database::Postgres(pool) = Database::connect(&settings, SCHEMA).await.unwrap() else {
        panic!("a PostgreSQL test");
    };
    let select = if terminate {
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
         AND query LIKE 'SELECT 0 AS feed%UNION ALL%' AND pg_terminate_backend(pid, 10000)"
    } else {
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
         AND query LIKE 'SELECT 0 AS feed%UNION ALL%'"
    };
    sqlx::query_scalar(select).fetch_all(&pool).await.unwrap()
}

/// The list index's feed connection is cut while idle (a restart of the server, a proxy's idle
/// time-out): the next page reads the feeds once more on a new connection and still comes from
/// the index, where dropping the index would cost a load of every issue.
#[tokio::test]
async fn a_cut_feed_connection_costs_the_index_nothing_on_postgres() {
    let Some(app) = crate::helpers::spawn_app(Backend::Postgres).await else {
        return;
    };
    app.file(Filing::new("Výtluk", 1)).await;
    let pages = |source: &'static str| {
        let app = &app;
        async move {
            app.metric(&format!("report_list_pages_total{{source=\"{source}\""))
                .await
        }
    };
    let page = || async {
        let (status, body) = app.get("/reports").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["reports"].as_array().map(Vec::len), Some(1), "{body}");
    };
    page().await;
    assert_eq!(pages("index").await, 1.0, "the first page after the load");
    let cut = feed_connections(&app, true).await;
    assert_eq!(cut.len(), 1, "one feed connection, terminated");
    page().await;
    assert_eq!(
        (pages("index").await, pages("database").await),
        (2.0, 0.0),
        "the page after the cut comes from the index"
    );
    let now = feed_connections(&app, false).await;
    assert!(
        now.len() == 1 && now != cut,
        "a new feed connection: {cut:?} then {now:?}"
    );
}
