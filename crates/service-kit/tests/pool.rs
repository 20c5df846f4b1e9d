//! The pool's handling of a connection the server dropped (a restart, a proxy's idle time-out).
//! A connection idle for less than `IDLE_PING_AFTER` is handed out without a ping (db.rs), so
//! the first statement on a dropped one may fail; the pool then drops it, and the next
//! statement is answered on a new connection. PostgreSQL only (skipped when unreachable):
//! SQLite's connections are files in the process.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a test failure

use secrecy::SecretString;
use service_kit::db::{Database, DatabaseSettings};
use service_kit::store_error::StoreError;
use sqlx::{Connection, PgConnection};

const PID: &str = "SELECT pg_backend_pid()";

#[tokio::test]
async fn a_connection_the_server_dropped_fails_one_statement_at_most() {
    let Some(db) = test_support::postgres("pool_dropped").await else {
        return;
    };
    let settings = DatabaseSettings {
        url: SecretString::from(db.url.clone()),
        max_connections: 1,
        migrate_on_start: false,
        acquire_timeout_seconds: 5,
    };
    let database = Database::connect(&settings, "public").await.unwrap();
    let Database::Postgres(pool) = &database else {
        panic!("a PostgreSQL URL opens a PostgreSQL pool");
    };
    let pid: i32 = sqlx::query_scalar(PID).fetch_one(pool).await.unwrap();
    // Another session ends the pool's only connection and waits until it has ended.
    let mut admin = PgConnection::connect(&db.url).await.unwrap();
    let ended: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1, 5000)")
        .bind(pid)
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert!(ended, "the pool's connection was not ended");
    // The first statement may meet the dead connection (no ping under IDLE_PING_AFTER): the
    // service answers that request 503 (`Unavailable`), the same request may succeed later...
    match sqlx::query_scalar::<_, i32>(PID).fetch_one(pool).await {
        Ok(first) => assert_ne!(first, pid, "answered by a backend that was ended"),
        Err(err) => {
            let err = StoreError::from(err);
            assert!(err.is_unavailable(), "{err:?}");
        }
    }
    // ...the next one is answered, on a new connection.
    let second: i32 = sqlx::query_scalar(PID).fetch_one(pool).await.unwrap();
    assert_ne!(second, pid);
}
