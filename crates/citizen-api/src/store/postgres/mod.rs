//! PostgreSQL backend (schema `citizen_api`, PostGIS for locations).

mod admin;
mod detail;
mod digests;
mod issues;
mod list_sql;
mod nearest;
mod news;
mod news_categories;
mod notifications;
mod reports;
mod rows;
mod votes;

use sqlx::{PgPool, Postgres, QueryBuilder};
use uuid::Uuid;

/// ` LIMIT n` (and ` OFFSET m`) as literals, not bound parameters. With a bound `LIMIT`
/// PostgreSQL cannot cost a generic plan of the prepared statement for a small page, so it plans
/// the statement anew on every execution (a custom plan: 12 % of the whole machine's CPU under
/// the report list benchmark); with literals a statement gets its generic plan after five
/// executions. The values are integers the API checked (at most 101 rows per page, an offset of
/// at most 1 000), never text, so nothing can be injected. Each distinct page size is one more
/// statement in sqlx's per-connection cache (least recently used out, 100 statements): clients
/// paging with unusual sizes cost at worst a parse and plan per request, as every request did.
pub(crate) fn page_sql(limit: i64, offset: i64) -> String {
    if offset == 0 {
        format!(" LIMIT {limit}")
    } else {
        format!(" LIMIT {limit} OFFSET {offset}")
    }
}

/// The advisory lock (two-key form: `"city"` in ASCII, then 1) that makes an erasure exclusive
/// with the writers that fan out to subjects (docs/privacy.md, "Erasure and the notification
/// workers"). One lock, not one per subject: a drain telling 1 500 subscribers takes one lock,
/// whatever `max_locks_per_transaction` is; erasures are rare and a drain's batch is short. The
/// two-key form never meets sqlx's migration lock, which takes one 64-bit key.
pub(in crate::store) const SUBJECTS_LOCK: (i32, i32) = (0x6369_7479, 1);

pub struct PgStore {
    pub(in crate::store) pool: PgPool,
    /// `votes.synchronous_commit`: false (the default) commits a vote without waiting for the
    /// disk, so the account's lock is not held during the flush (docs/decisions.md, "Vote
    /// commits").
    synchronous_vote_commit: bool,
}

impl PgStore {
    pub fn new(pool: PgPool, options: super::StoreOptions) -> Self {
        Self {
            pool,
            synchronous_vote_commit: options.synchronous_vote_commit,
        }
    }

    /// Locks the rows a writing transaction reads, until it ends.
    pub(in crate::store) const FOR_UPDATE: &'static str = " FOR UPDATE";

    /// Locks the rows a batch takes, passing over those another transaction holds.
    pub(in crate::store) const SKIP_LOCKED: &'static str = " FOR UPDATE SKIP LOCKED";

    /// A transaction that writes (`BEGIN`: rows are locked as statements reach them).
    pub(in crate::store) async fn begin_write(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>> {
        self.pool.begin().await
    }

    /// A writing transaction that fans out to subjects (the outbox drain's feed entries and
    /// deliveries, a digest with its deliveries): it holds [`SUBJECTS_LOCK`] shared until it
    /// ends, taken before anything else, so an erasure never commits between the writer's read
    /// of whom to tell and its commit. Fan-out writers do not wait for one another.
    pub(in crate::store) async fn begin_fan_out(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>> {
        self.begin_holding("pg_advisory_xact_lock_shared").await
    }

    /// An erasure's transaction: it holds [`SUBJECTS_LOCK`] exclusive until it ends, taken
    /// before anything else (before the vote account's row): it waits for the fan-out writers
    /// running, and those starting wait for it.
    pub(in crate::store) async fn begin_erasing(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>> {
        self.begin_holding("pg_advisory_xact_lock").await
    }

    /// A writing transaction whose first statement takes [`SUBJECTS_LOCK`] with `function`
    /// (a transaction-level advisory lock: released at commit or rollback, never left behind).
    async fn begin_holding(
        &self,
        function: &str,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>> {
        let mut tx = self.begin_write().await?;
        sqlx::query(&format!("SELECT {function}($1, $2)"))
            .bind(SUBJECTS_LOCK.0)
            .bind(SUBJECTS_LOCK.1)
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }

    /// ` = ANY(…)`: `ids` as one bound array (one statement whatever their number).
    pub(in crate::store) fn push_ids(q: &mut QueryBuilder<'_, Postgres>, ids: &[Uuid]) {
        q.push(" = ANY(").push_bind(ids.to_vec()).push(")");
    }
}
