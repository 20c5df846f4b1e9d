//! `StoreError` classification against real databases: PostgreSQL (skipped when unreachable)
//! and SQLite.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a test failure

use service_kit::store_error::StoreError;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{Connection, Executor};
use std::str::FromStr;
use std::time::Duration;

const PG_SCHEMA: &str = "
    CREATE TABLE parent (id INT PRIMARY KEY);
    CREATE TABLE child (
        id        INT CONSTRAINT child_pkey PRIMARY KEY,
        parent_id INT CONSTRAINT child_parent_fk REFERENCES parent (id),
        n         INT NOT NULL CONSTRAINT child_n_positive CHECK (n > 0),
        code      TEXT CONSTRAINT child_code_key UNIQUE
    );
    INSERT INTO parent VALUES (1);
    INSERT INTO child VALUES (1, 1, 1, 'a');";

/// SQLite names no constraint to sqlx except through its message: `table.column` for UNIQUE,
/// PRIMARY KEY and NOT NULL, the constraint's name for CHECK, nothing for FOREIGN KEY.
const SQLITE_SCHEMA: &str = "
    CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE child (
        id        INTEGER PRIMARY KEY,
        parent_id INTEGER REFERENCES parent (id),
        n         INTEGER NOT NULL CONSTRAINT child_n_positive CHECK (n > 0),
        code      TEXT UNIQUE
    );
    INSERT INTO parent VALUES (1);
    INSERT INTO child VALUES (1, 1, 1, 'a');";

fn expect_conflict(err: StoreError, constraint: Option<&str>) {
    assert!(matches!(err, StoreError::Conflict { .. }), "{err:?}");
    assert_eq!(err.constraint(), constraint, "{err:?}");
}

fn expect_invalid(err: StoreError, constraint: Option<&str>) {
    assert!(matches!(err, StoreError::Invalid { .. }), "{err:?}");
    assert_eq!(err.constraint(), constraint, "{err:?}");
}

async fn failing<'e, E: Executor<'e>>(executor: E, sql: &'e str) -> StoreError {
    match executor.execute(sql).await {
        Ok(_) => panic!("{sql} succeeded"),
        Err(err) => StoreError::from(err),
    }
}

/// The statements both schemas refuse (unique, primary key, foreign key, check, not null), each
/// with whether it is a conflict (else it is invalid).
const VIOLATIONS: [(&str, bool); 5] = [
    ("INSERT INTO child VALUES (2, 1, 1, 'a')", true),
    ("INSERT INTO child VALUES (1, 1, 1, 'b')", true),
    ("INSERT INTO child VALUES (3, 99, 1, 'c')", false),
    ("INSERT INTO child VALUES (4, 1, -1, 'd')", false),
    ("INSERT INTO child VALUES (5, 1, NULL, 'e')", false),
];

/// Runs each of [`VIOLATIONS`]: its error has its kind and names the constraint the backend
/// names for it (`constraints`, in the same order).
async fn expect_violations<'e, E: Executor<'e> + Copy>(
    executor: E,
    constraints: [Option<&str>; 5],
) {
    for ((sql, conflict), constraint) in VIOLATIONS.into_iter().zip(constraints) {
        let err = failing(executor, sql).await;
        if conflict {
            expect_conflict(err, constraint);
        } else {
            expect_invalid(err, constraint);
        }
    }
}

/// A query that finds no row is `NotFound`; one the database cannot parse is `Other`.
async fn expect_not_found_and_other<'e, E: Executor<'e> + Copy>(executor: E) {
    let Err(missing) = executor
        .fetch_one("SELECT id FROM parent WHERE id = 42")
        .await
    else {
        panic!("found a parent 42");
    };
    assert!(matches!(StoreError::from(missing), StoreError::NotFound));
    let syntax = failing(executor, "SELEKT 1").await;
    assert!(matches!(syntax, StoreError::Other(_)), "{syntax:?}");
}

/// A pool of `connections` on a fresh PostgreSQL database (kept as long as the
/// [`test_support::TestPostgres`]); `None` when PostgreSQL is unreachable (the test skips).
async fn postgres_pool(
    label: &str,
    connections: u32,
) -> Option<(test_support::TestPostgres, PgPool)> {
    let db = test_support::postgres(label).await?;
    let pool = PgPoolOptions::new()
        .max_connections(connections)
        .connect(&db.url)
        .await
        .unwrap();
    Some((db, pool))
}

#[tokio::test]
async fn postgres_constraint_violations() {
    let Some((_db, pool)) = postgres_pool("store_error", 2).await else {
        return;
    };
    pool.execute(PG_SCHEMA).await.unwrap();

    let constraints = [
        Some("child_code_key"),
        Some("child_pkey"),
        Some("child_parent_fk"),
        Some("child_n_positive"),
        None,
    ];
    expect_violations(&pool, constraints).await;
    let referenced = "DELETE FROM parent WHERE id = 1";
    expect_invalid(failing(&pool, referenced).await, Some("child_parent_fk"));
    expect_not_found_and_other(&pool).await;
    pool.close().await;
}

#[tokio::test]
async fn postgres_terminated_session_is_unavailable() {
    let Some((db, pool)) = postgres_pool("store_error_57p01", 1).await else {
        return;
    };
    let mut victim = pool.acquire().await.unwrap();
    let pid: i32 = sqlx::query_scalar("SELECT pg_backend_pid()")
        .fetch_one(&mut *victim)
        .await
        .unwrap();
    let mut admin = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let terminated: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1, 10000)")
        .bind(pid)
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert!(terminated);
    admin.close().await.unwrap();

    let err = StoreError::from(
        sqlx::query("SELECT 1")
            .execute(&mut *victim)
            .await
            .expect_err("the session was terminated"),
    );
    assert!(err.is_unavailable(), "{err:#}");
    eprintln!("terminated session: {err:#}");
    // The server says why before it closes the socket: FATAL 57P01 admin_shutdown.
    match err.sqlx_error() {
        Some(sqlx::Error::Database(db)) => assert_eq!(db.code().as_deref(), Some("57P01")),
        Some(sqlx::Error::Io(_)) => {} // the socket closed before the message was read
        other => panic!("unexpected cause {other:?}"),
    }
    drop(victim);
    // The pool replaces the dead connection.
    let one: i32 = sqlx::query_scalar("SELECT 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(one, 1);
    pool.close().await;
}

#[tokio::test]
async fn sqlite_constraint_violations() {
    let options = SqliteConnectOptions::from_str("sqlite::memory:")
        .unwrap()
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    pool.execute(SQLITE_SCHEMA).await.unwrap();

    let constraints = [
        Some("child.code"),
        Some("child.id"),
        None,
        Some("child_n_positive"),
        Some("child.n"),
    ];
    expect_violations(&pool, constraints).await;
    expect_not_found_and_other(&pool).await;
}

#[tokio::test]
async fn sqlite_busy_beyond_the_timeout_is_unavailable() {
    let path = std::env::temp_dir().join(format!("store-error-{}.db", uuid::Uuid::new_v4()));
    let options = SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true)
        .busy_timeout(Duration::from_millis(50));
    let pool = SqlitePoolOptions::new()
        .max_connections(2)
        .connect_with(options)
        .await
        .unwrap();
    pool.execute("CREATE TABLE t (x INTEGER)").await.unwrap();
    let mut writer = pool.acquire().await.unwrap();
    writer.execute("BEGIN IMMEDIATE").await.unwrap();
    let err = failing(&pool, "INSERT INTO t VALUES (1)").await;
    assert!(err.is_unavailable(), "{err:#}");
    writer.execute("ROLLBACK").await.unwrap();
    drop(writer);
    pool.close().await;
    let _ = std::fs::remove_file(&path);
}
