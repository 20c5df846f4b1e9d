//! PostgreSQL backend (schema `citizen_api`, PostGIS for locations).

mod admin;
mod dialect;
mod digests;
mod list_sql;
mod nearest;
mod news;
mod reports;
mod votes;

pub(in crate::store) use super::backends::PgStore;

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
