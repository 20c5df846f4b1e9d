//! SQLite backend (the embedded default); its statements are in `sql.rs`, shared with
//! PostgreSQL. Instants are stored as INTEGER microseconds since the Unix epoch so that SQL
//! comparisons order them; UUIDs as hyphenated text (`service_kit::codec`).

use sqlx::SqlitePool;

pub struct SqliteStore {
    pub(super) pool: SqlitePool,
}

impl SqliteStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}
