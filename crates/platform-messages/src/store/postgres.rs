//! PostgreSQL backend (schema `platform_messages`, found through the pool's `search_path`); its
//! statements are in `sql.rs`, shared with SQLite.

use sqlx::PgPool;

pub struct PgStore {
    pub(super) pool: PgPool,
}

impl PgStore {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}
