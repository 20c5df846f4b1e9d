//! What the two backends do alike, compiled for each (`service_kit::both_backends!`) as
//! associated functions of its store; what differs (the SQL of a street read and of the extent,
//! the row types, reading every street) is the backend's own.

use domain::geo::BBox;

use super::{DatasetSnapshot, FeatureRow, PostgresStreets, SqliteStreets, StoreResult};
use crate::model::Feature;

service_kit::both_backends!(PostgresStreets, SqliteStreets;
impl Backend {
    /// The street `sql` selects as an `R`, its one parameter being `value`.
    pub(in crate::store) async fn street_where<'q, R, T>(
        pool: &sqlx::Pool<Db>,
        sql: &'q str,
        value: T,
    ) -> StoreResult<Option<Feature>>
    where
        R: FeatureRow + Send + Unpin + for<'r> sqlx::FromRow<'r, <Db as sqlx::Database>::Row>,
        T: 'q + Send + sqlx::Encode<'q, Db> + sqlx::Type<Db>,
    {
        let row: Option<R> = sqlx::query_as(sql).bind(value).fetch_optional(pool).await?;
        row.map(|r| r.feature()).transpose()
    }

    /// How many streets are stored.
    pub(in crate::store) async fn street_count<'e>(
        executor: impl sqlx::Executor<'e, Database = Db>,
    ) -> StoreResult<u64> {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM streets")
            .fetch_one(executor)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The import generation (bumped in every import's transaction).
    pub(in crate::store) async fn generation<'e>(
        executor: impl sqlx::Executor<'e, Database = Db>,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT generation FROM dataset")
            .fetch_one(executor)
            .await?)
    }

    /// The box `[west, south, east, north]` that `sql` selects as four nullable columns; `None`
    /// without streets.
    pub(in crate::store) async fn extent<'e>(
        executor: impl sqlx::Executor<'e, Database = Db>,
        sql: &'static str,
    ) -> StoreResult<Option<BBox>> {
        let row: (Option<f64>, Option<f64>, Option<f64>, Option<f64>) =
            sqlx::query_as(sql).fetch_one(executor).await?;
        Ok(match row {
            (Some(a), Some(b), Some(c), Some(d)) => Some([a, b, c, d]),
            _ => None,
        })
    }

    /// The generation, the count and, when there are at most `at_most` streets, every street
    /// (the backend's `all_streets`), read in `tx`, which the caller has begun so that it reads one
    /// snapshot.
    pub(in crate::store) async fn snapshot(
        mut tx: Tx<'_>,
        at_most: u64,
    ) -> StoreResult<DatasetSnapshot> {
        let generation = Self::generation(&mut *tx).await?;
        let total = Self::street_count(&mut *tx).await?;
        let streets = if total <= at_most {
            Self::all_streets(&mut tx, total).await?
        } else {
            Vec::new()
        };
        tx.commit().await?;
        Ok(DatasetSnapshot {
            generation,
            total,
            streets,
        })
    }
}
);
