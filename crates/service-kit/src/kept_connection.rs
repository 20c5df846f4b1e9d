//! One connection kept out of a pool, for a reader that runs a statement again and again, one at
//! a time (citizen-api's list index reads its feeds before every page it serves).
//!
//! sqlx tests every pooled connection as it goes back to the pool: a ping, which on SQLite is a
//! round trip to the connection's worker thread and on PostgreSQL one to the server, on a task
//! of its own. A statement through the pool costs the reader that second round trip; a kept
//! connection is never given back, so it is never pinged. It is taken from the pool (which may
//! open another in its place: the service holds up to `database.max_connections` + 1) the first
//! time it is needed, and again after a use that failed or was dropped half-way: a connection
//! in an unknown state is closed, never reused. A kept connection may also have been cut while
//! it sat idle (a restart, a proxy's idle time-out), which only its next use shows: a use that
//! fails on a connection kept from before runs once more on a new one.

use futures::future::BoxFuture;
use sqlx::{Database, Pool};
use tokio::sync::Mutex;

/// A connection kept out of `pool` (module docs).
pub struct KeptConnection<DB: Database> {
    pool: Pool<DB>,
    held: Mutex<Option<DB::Connection>>,
}

impl<DB: Database> KeptConnection<DB> {
    /// Takes nothing from the pool until the first [`Self::run`].
    pub fn new(pool: Pool<DB>) -> Self {
        Self {
            pool,
            held: Mutex::new(None),
        }
    }

    /// Runs `work` on the kept connection (callers wait for each other) and keeps the
    /// connection if it succeeds. If it fails on a connection kept from an earlier use, it runs
    /// once more on a new one (module docs); reads are safe to run twice, a write may not be.
    pub async fn run<T, E, F>(&self, work: F) -> Result<T, E>
    where
        E: From<sqlx::Error>,
        F: for<'c> Fn(&'c mut DB::Connection) -> BoxFuture<'c, Result<T, E>>,
    {
        let mut held = self.held.lock().await;
        if let Some(mut conn) = held.take() {
            if let Ok(done) = work(&mut conn).await {
                *held = Some(conn);
                return Ok(done);
            }
            tracing::debug!("a statement on the kept connection failed; once more on a new one");
        }
        let mut conn = self.pool.acquire().await?.detach();
        let done = work(&mut conn).await?;
        *held = Some(conn);
        Ok(done)
    }

    /// Whether a connection is kept now.
    pub async fn is_kept(&self) -> bool {
        self.held.lock().await.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::sqlite::{SqliteConnection, SqlitePoolOptions};
    use sqlx::{Row, Sqlite};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A pool of one in-memory connection (each connection its own database).
    async fn kept() -> (Pool<Sqlite>, KeptConnection<Sqlite>) {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        (pool.clone(), KeptConnection::new(pool))
    }

    /// How many uses this connection has seen, this one included (a temporary table lives as
    /// long as its connection).
    async fn uses(conn: &mut SqliteConnection) -> Result<i64, sqlx::Error> {
        sqlx::query("CREATE TEMP TABLE IF NOT EXISTS used (n INTEGER)")
            .execute(&mut *conn)
            .await?;
        sqlx::query("INSERT INTO used (n) VALUES (1)")
            .execute(&mut *conn)
            .await?;
        Ok(sqlx::query("SELECT count(*) AS n FROM used")
            .fetch_one(&mut *conn)
            .await?
            .get("n"))
    }

    #[tokio::test]
    async fn uses_run_on_one_connection_that_leaves_the_pool() {
        let (pool, kept) = kept().await;
        assert!(!kept.is_kept().await);
        let first: Result<i64, sqlx::Error> = kept.run(|c| Box::pin(uses(c))).await;
        assert_eq!(first.unwrap(), 1);
        assert!(kept.is_kept().await);
        // The pool of one still hands one out: the kept connection left it.
        let mut other = pool.acquire().await.unwrap();
        assert_eq!(uses(&mut other).await.unwrap(), 1);
        let second: Result<i64, sqlx::Error> = kept.run(|c| Box::pin(uses(c))).await;
        assert_eq!(second.unwrap(), 2, "the same connection again");
    }

    #[tokio::test]
    async fn a_use_that_fails_on_a_kept_connection_runs_once_more_on_a_new_one() {
        let (_pool, kept) = kept().await;
        let first: Result<i64, sqlx::Error> = kept.run(|c| Box::pin(uses(c))).await;
        assert_eq!(first.unwrap(), 1);
        let calls = AtomicUsize::new(0);
        let again: Result<i64, sqlx::Error> = kept
            .run(|c| {
                let call = calls.fetch_add(1, Ordering::SeqCst);
                Box::pin(async move {
                    let n = uses(c).await?;
                    if call == 0 {
                        return Err(sqlx::Error::Protocol("cut while idle".into()));
                    }
                    Ok(n)
                })
            })
            .await;
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        assert_eq!(again.unwrap(), 1, "a new connection");
        let next: Result<i64, sqlx::Error> = kept.run(|c| Box::pin(uses(c))).await;
        assert_eq!(next.unwrap(), 2, "the new connection is kept");
    }

    #[tokio::test]
    async fn a_use_that_fails_on_a_new_connection_fails_and_keeps_nothing() {
        let (_pool, kept) = kept().await;
        let calls = AtomicUsize::new(0);
        let failed: Result<i64, sqlx::Error> = kept
            .run(|c| {
                calls.fetch_add(1, Ordering::SeqCst);
                Box::pin(async move {
                    uses(c).await?;
                    Err(sqlx::Error::Protocol("refused".into()))
                })
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert!(!kept.is_kept().await);
        let next: Result<i64, sqlx::Error> = kept.run(|c| Box::pin(uses(c))).await;
        assert_eq!(next.unwrap(), 1, "a new connection, not the failed one");
    }
}
