//! News categories (PostgreSQL): a category write takes the table's EXCLUSIVE lock (reads go on).

use super::PgStore;

impl PgStore {
    /// A subscription's category check keeps the category from being deleted meanwhile.
    pub(in crate::store) const KEY_SHARE: &'static str = " FOR KEY SHARE";

    /// Starts a category write: locks the category table for writing.
    ///
    /// The news generation's row is taken first (the lock the write's trigger takes, migration
    /// 0018): an item write holds that row from its first statement on while its category checks
    /// wait for this table lock, so taking the table first would deadlock with it.
    pub(in crate::store) async fn begin_category_write(
        &self,
    ) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT generation FROM news_generation WHERE id = 1 FOR NO KEY UPDATE")
            .execute(&mut *tx)
            .await?;
        sqlx::query("LOCK TABLE news_categories IN EXCLUSIVE MODE")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }
}
