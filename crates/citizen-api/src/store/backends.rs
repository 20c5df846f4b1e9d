//! The two backends' store types, which the shared bodies (`sql/`, through
//! `service_kit::both_backends!`) and each backend's own modules (`postgres/`, `sqlite/`)
//! implement the traits on. They stand here, below both, so that `sql/` names them without
//! pointing up at a backend, and the backends depend on `sql/` (its `Dialect`) only.

use sqlx::{PgPool, SqlitePool};

/// PostgreSQL (schema `citizen_api`, PostGIS for locations): `postgres/`.
pub struct PgStore {
    pub(in crate::store) pool: PgPool,
    /// `votes.synchronous_commit`: false (the default) commits a vote without waiting for the
    /// disk, so the account's lock is not held during the flush (docs/decisions.md, "Vote
    /// commits").
    pub(in crate::store) synchronous_vote_commit: bool,
}

impl PgStore {
    pub fn new(pool: PgPool, options: super::StoreOptions) -> Self {
        Self {
            pool,
            synchronous_vote_commit: options.synchronous_vote_commit,
        }
    }
}

/// SQLite (the embedded default): `sqlite/`.
pub struct SqliteStore {
    pub(in crate::store) pool: SqlitePool,
}

impl SqliteStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}
