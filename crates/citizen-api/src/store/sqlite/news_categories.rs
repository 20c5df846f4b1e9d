//! News categories (SQLite): a category write runs in `BEGIN IMMEDIATE` (the write lock up front).

use super::SqliteStore;

impl SqliteStore {
    /// No row locks in SQLite: the transaction's write lock keeps the category in place.
    pub(in crate::store) const KEY_SHARE: &'static str = "";

    /// Starts a category write (the database's write lock up front).
    pub(in crate::store) async fn begin_category_write(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Sqlite>> {
        self.begin_write().await
    }
}
