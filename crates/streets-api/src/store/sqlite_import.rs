//! SQLite import: one write transaction (readers under WAL go on seeing the old snapshot until
//! it commits, and a killed process leaves only an uncommitted tail of the WAL, which SQLite
//! ignores). The streets are inserted a batch at a time, many rows a statement, into a new
//! table made like `streets` but without its secondary indexes, which are built once the rows
//! are in; the new table then takes the old one's place. The R*Tree of bounding boxes is
//! recreated empty and filled alongside.

use std::collections::HashMap;

use anyhow::Context;
use domain::geo::bbox_of_lines;
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};
use streets_import::ImportedStreet;

use super::coords::pack;
use super::{new_street_id, ImportSummary, SqliteStreets, StoreResult, StreetBatches};
use crate::model::multilinestring_json;

/// The table the import fills.
const STAGING: &str = "streets_import";
/// Rows a statement inserts (7 values a row, well under SQLite's 32 766 variables).
const ROWS_PER_INSERT: usize = 500;

/// The schema the import recreates, read from `sqlite_master` (so a migration is followed).
struct Schema {
    /// `CREATE TABLE streets (…)`.
    table: String,
    /// `CREATE INDEX … ON streets …`, built after the load.
    indexes: Vec<String>,
    /// `CREATE VIRTUAL TABLE streets_rtree USING rtree(…)`.
    rtree: String,
}

impl SqliteStreets {
    pub(super) async fn import(
        &self,
        batches: &mut dyn StreetBatches,
    ) -> StoreResult<ImportSummary> {
        let mut conn = self.pool.acquire().await?;
        // The pool maps the file into memory for reads; the import reads the old table once and
        // writes a new one, whose mapped pages would count as the process's memory: plain reads.
        let mmap_size: i64 = sqlx::query_scalar("PRAGMA mmap_size")
            .fetch_one(&mut *conn)
            .await?;
        sqlx::query("PRAGMA mmap_size = 0")
            .execute(&mut *conn)
            .await?;
        // IMMEDIATE takes the write lock up front: one import at a time, readers unaffected (WAL).
        sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        let result = import_in_transaction(&mut conn, batches).await;
        let result = end_transaction(&mut conn, result).await;
        sqlx::query(&format!("PRAGMA mmap_size = {mmap_size}"))
            .execute(&mut *conn)
            .await?;
        result
    }
}

/// Commits after `result` is a success, else rolls back.
async fn end_transaction(
    conn: &mut SqliteConnection,
    result: StoreResult<ImportSummary>,
) -> StoreResult<ImportSummary> {
    match result {
        Ok(summary) => {
            sqlx::query("COMMIT").execute(&mut *conn).await?;
            Ok(summary)
        }
        Err(err) => {
            sqlx::query("ROLLBACK").execute(&mut *conn).await?;
            Err(err)
        }
    }
}

async fn import_in_transaction(
    conn: &mut SqliteConnection,
    batches: &mut dyn StreetBatches,
) -> StoreResult<ImportSummary> {
    let before: i64 = sqlx::query_scalar("SELECT count(*) FROM streets")
        .fetch_one(&mut *conn)
        .await?;
    let schema = read_schema(conn).await?;
    let staging_table = format!(
        "CREATE TABLE {STAGING} {}",
        schema
            .table
            .find('(')
            .map(|paren| &schema.table[paren..])
            .context("the streets table's definition has no column list")?
    );
    sqlx::query(&staging_table).execute(&mut *conn).await?;
    sqlx::query("DROP TABLE streets_rtree")
        .execute(&mut *conn)
        .await?;
    sqlx::query(&schema.rtree).execute(&mut *conn).await?;

    let (mut total, mut added) = (0_u64, 0_u64);
    while let Some(batch) = batches.next_batch().await? {
        added += insert_batch(conn, &batch, total).await?;
        total += batch.len() as u64;
    }

    sqlx::query("DROP TABLE streets")
        .execute(&mut *conn)
        .await?;
    sqlx::query(&format!("ALTER TABLE {STAGING} RENAME TO streets"))
        .execute(&mut *conn)
        .await?;
    for index in &schema.indexes {
        sqlx::query(index).execute(&mut *conn).await?;
    }
    sqlx::query("UPDATE dataset SET generation = generation + 1")
        .execute(&mut *conn)
        .await?;
    let kept = total - added;
    Ok(ImportSummary {
        total,
        added,
        removed: u64::try_from(before).unwrap_or(0).saturating_sub(kept),
    })
}

async fn read_schema(conn: &mut SqliteConnection) -> StoreResult<Schema> {
    let table: String = sqlx::query_scalar(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'streets'",
    )
    .fetch_one(&mut *conn)
    .await?;
    let rtree: String =
        sqlx::query_scalar("SELECT sql FROM sqlite_master WHERE name = 'streets_rtree'")
            .fetch_one(&mut *conn)
            .await?;
    // Indexes SQLite made for UNIQUE constraints have no SQL: the table's definition has them.
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT sql FROM sqlite_master
         WHERE type = 'index' AND tbl_name = 'streets' AND sql IS NOT NULL ORDER BY name",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(Schema {
        table,
        indexes,
        rtree,
    })
}

/// Inserts one batch (keys from `first_pk + 1`), each street with the id its number has in
/// the old table, or a new one; returns how many got a new one.
async fn insert_batch(
    conn: &mut SqliteConnection,
    batch: &[ImportedStreet],
    first_pk: u64,
) -> StoreResult<u64> {
    let numbers = serde_json::to_string(&batch.iter().map(|s| s.number).collect::<Vec<_>>())
        .context("listing the batch's numbers")?;
    let mut ids: HashMap<i64, String> = sqlx::query_as(
        "SELECT number, id FROM streets WHERE number IN (SELECT value FROM json_each(?1))",
    )
    .bind(numbers)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect();
    let mut added = 0;
    let first_pk = i64::try_from(first_pk).context("too many streets")?;
    for (chunk_index, chunk) in batch.chunks(ROWS_PER_INSERT).enumerate() {
        let first = first_pk + 1 + (chunk_index * ROWS_PER_INSERT) as i64;
        let mut rows = Vec::with_capacity(chunk.len());
        for (pk, street) in (first..).zip(chunk) {
            let id = ids.remove(&street.number).unwrap_or_else(|| {
                added += 1;
                new_street_id()
            });
            let bbox = bbox_of_lines(&street.lines)
                .with_context(|| format!("street {} has no coordinates", street.number))?;
            rows.push((pk, id, street, bbox));
        }
        let mut insert = QueryBuilder::<Sqlite>::new(format!(
            "INSERT INTO {STAGING} (pk, id, number, name, name_folded, geojson, coords) "
        ));
        insert.push_values(&rows, |mut row, (pk, id, street, _)| {
            row.push_bind(*pk)
                .push_bind(id.clone())
                .push_bind(street.number)
                .push_bind(street.name.clone())
                .push_bind(domain::text::fold(&street.name))
                .push_bind(multilinestring_json(&street.lines))
                .push_bind(pack(&street.lines));
        });
        insert.build().execute(&mut *conn).await?;
        let mut boxes = QueryBuilder::<Sqlite>::new(
            "INSERT INTO streets_rtree (pk, min_lon, max_lon, min_lat, max_lat) ",
        );
        boxes.push_values(&rows, |mut row, (pk, _, _, bbox)| {
            row.push_bind(*pk)
                .push_bind(bbox[0])
                .push_bind(bbox[2])
                .push_bind(bbox[1])
                .push_bind(bbox[3]);
        });
        boxes.build().execute(&mut *conn).await?;
    }
    Ok(added)
}
