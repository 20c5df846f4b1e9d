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

    /// ` = ANY(…)`: `ids` as one bound array (one statement whatever their number).
    pub(in crate::store) fn push_ids(q: &mut QueryBuilder<'_, Postgres>, ids: &[Uuid]) {
        q.push(" = ANY(").push_bind(ids.to_vec()).push(")");
    }
}
