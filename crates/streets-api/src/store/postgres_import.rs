//! PostgreSQL import: the streets are copied (binary `COPY`, a batch at a time) into a new
//! table `streets_import` made like `streets`; when the last batch is in, the old table's
//! constraints and indexes are built on it in one go (far cheaper than keeping them up to date
//! row by row), and it takes the old table's place: all in one transaction, so a failure or a
//! killed process leaves nothing behind, and readers see the old table until the commit.
//!
//! The swap is not MVCC-safe for a snapshot taken before it and used after it (the new table's
//! rows are not in that snapshot): the read model's snapshot therefore locks `streets` before
//! it takes its snapshot (`PostgresStreets::dataset_snapshot`); single statements take theirs
//! after their locks.

use std::collections::HashMap;

use sqlx::{PgConnection, Row};
use streets_import::ImportedStreet;

use super::wkb::multilinestring_wkb;
use super::{
    new_street_id, ImportSummary, PostgresStreets, StoreError, StoreResult, StreetBatches,
};

/// The table the import fills.
const STAGING: &str = "streets_import";
/// What the staging copies of the old table's constraints and indexes are called until the swap.
const SUFFIX: &str = "_import";

/// A constraint or index built on the staging table, renamed at the swap.
enum Rename {
    Constraint(String),
    Index(String),
}

impl PostgresStreets {
    pub(super) async fn import(
        &self,
        batches: &mut dyn StreetBatches,
    ) -> StoreResult<ImportSummary> {
        let mut tx = self.pool.begin().await?;
        // One import at a time; readers go on reading the old table.
        sqlx::query("LOCK TABLE streets IN EXCLUSIVE MODE")
            .execute(&mut *tx)
            .await?;
        let before: i64 = sqlx::query_scalar("SELECT count(*) FROM streets")
            .fetch_one(&mut *tx)
            .await?;
        // Index builds after the load sort in this much server memory.
        sqlx::query("SET LOCAL maintenance_work_mem = '256MB'")
            .execute(&mut *tx)
            .await?;
        sqlx::query(&format!(
            "CREATE TABLE {STAGING} (LIKE streets INCLUDING DEFAULTS INCLUDING CONSTRAINTS)"
        ))
        .execute(&mut *tx)
        .await?;
        let (mut total, mut added) = (0_u64, 0_u64);
        while let Some(batch) = batches.next_batch().await? {
            added += copy_batch(&mut tx, &batch).await?;
            total += batch.len() as u64;
        }
        let renames = build_indexes(&mut tx).await?;
        sqlx::query(&format!("ANALYZE {STAGING}"))
            .execute(&mut *tx)
            .await?;
        // The swap: readers wait for the commit from here (DROP takes the table's lock).
        sqlx::query("DROP TABLE streets").execute(&mut *tx).await?;
        sqlx::query(&format!("ALTER TABLE {STAGING} RENAME TO streets"))
            .execute(&mut *tx)
            .await?;
        for rename in renames {
            let sql = match rename {
                Rename::Constraint(name) => format!(
                    "ALTER TABLE streets RENAME CONSTRAINT {} TO {}",
                    quote(&format!("{name}{SUFFIX}")),
                    quote(&name)
                ),
                Rename::Index(name) => format!(
                    "ALTER INDEX {} RENAME TO {}",
                    quote(&format!("{name}{SUFFIX}")),
                    quote(&name)
                ),
            };
            sqlx::query(&sql).execute(&mut *tx).await?;
        }
        sqlx::query("UPDATE dataset SET generation = generation + 1")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        let kept = total - added;
        Ok(ImportSummary {
            total,
            added,
            removed: u64::try_from(before).unwrap_or(0).saturating_sub(kept),
        })
    }
}

/// Copies one batch into the staging table, each street with the id its number has in the old
/// table, or a new one; returns how many got a new one.
async fn copy_batch(conn: &mut PgConnection, batch: &[ImportedStreet]) -> StoreResult<u64> {
    let numbers: Vec<i64> = batch.iter().map(|s| s.number).collect();
    let mut ids: HashMap<i64, String> =
        sqlx::query_as("SELECT number, id FROM streets WHERE number = ANY($1)")
            .bind(&numbers)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect();
    let mut added = 0;
    let mut data = CopyData::new(batch.len());
    for street in batch {
        let id = ids.remove(&street.number).unwrap_or_else(|| {
            added += 1;
            new_street_id()
        });
        let wkb = multilinestring_wkb(&street.lines).map_err(|e| {
            StoreError::Other(anyhow::Error::new(e).context("encoding a street as WKB"))
        })?;
        data.row(&[
            id.as_bytes(),
            &street.number.to_be_bytes(),
            street.name.as_bytes(),
            domain::text::fold(&street.name).as_bytes(),
            &wkb,
        ]);
    }
    let mut copy = conn
        .copy_in_raw(&format!(
            "COPY {STAGING} (id, number, name, name_folded, geog) FROM STDIN (FORMAT binary)"
        ))
        .await?;
    let sent = copy.send(data.finish()).await.map(|_| ());
    if let Err(e) = sent {
        // The server has the error; ending the COPY gives the connection back in a usable state.
        let _ = copy.abort(e.to_string()).await;
        return Err(e.into());
    }
    copy.finish().await?;
    Ok(added)
}

/// PostgreSQL's binary COPY format: a header, rows of length-prefixed fields, a trailer.
struct CopyData(Vec<u8>);

impl CopyData {
    fn new(rows: usize) -> Self {
        let mut buffer = Vec::with_capacity(19 + rows * 200 + 2);
        buffer.extend_from_slice(b"PGCOPY\n\xff\r\n\0");
        // Flags, then the length of the header extension: none.
        buffer.extend_from_slice(&0_i32.to_be_bytes());
        buffer.extend_from_slice(&0_i32.to_be_bytes());
        Self(buffer)
    }

    /// A row of non-null fields, each in its type's binary form (text: its UTF-8 bytes;
    /// bigint: 8 bytes big-endian; geography: WKB).
    fn row(&mut self, fields: &[&[u8]]) {
        let count = i16::try_from(fields.len()).unwrap_or(i16::MAX);
        self.0.extend_from_slice(&count.to_be_bytes());
        for field in fields {
            let len = i32::try_from(field.len()).unwrap_or(i32::MAX);
            self.0.extend_from_slice(&len.to_be_bytes());
            self.0.extend_from_slice(field);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        self.0.extend_from_slice(&(-1_i16).to_be_bytes());
        self.0
    }
}

/// Builds on the staging table the old table's constraints (primary key, unique) and indexes,
/// as their definitions are in the catalogue (so that a migration adding one is followed),
/// under temporary names; returns what to rename at the swap.
async fn build_indexes(conn: &mut PgConnection) -> StoreResult<Vec<Rename>> {
    let mut renames = Vec::new();
    let constraints = sqlx::query(
        "SELECT conname::text, pg_get_constraintdef(oid) FROM pg_constraint
         WHERE conrelid = 'streets'::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname",
    )
    .fetch_all(&mut *conn)
    .await?;
    let indexes = sqlx::query(
        "SELECT i.relname::text, pg_get_indexdef(x.indexrelid) FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         WHERE x.indrelid = 'streets'::regclass
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
         ORDER BY 1",
    )
    .fetch_all(&mut *conn)
    .await?;
    for row in constraints {
        let (name, definition): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        sqlx::query(&format!(
            "ALTER TABLE {STAGING} ADD CONSTRAINT {} {definition}",
            quote(&format!("{name}{SUFFIX}"))
        ))
        .execute(&mut *conn)
        .await?;
        renames.push(Rename::Constraint(name));
    }
    for row in indexes {
        let (name, definition): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        let sql = staging_index(&name, &definition).ok_or_else(|| {
            StoreError::Other(anyhow::anyhow!(
                "cannot rebuild index {name} from its definition {definition:?}"
            ))
        })?;
        sqlx::query(&sql).execute(&mut *conn).await?;
        renames.push(Rename::Index(name));
    }
    Ok(renames)
}

/// `CREATE [UNIQUE] INDEX name ON schema.streets USING …` (as `pg_get_indexdef` writes it) for
/// the staging table, under the temporary name.
fn staging_index(name: &str, definition: &str) -> Option<String> {
    let (head, method_and_columns) = definition.split_once(" USING ")?;
    let create = if head.starts_with("CREATE UNIQUE INDEX ") {
        "CREATE UNIQUE INDEX"
    } else if head.starts_with("CREATE INDEX ") {
        "CREATE INDEX"
    } else {
        return None;
    };
    Some(format!(
        "{create} {} ON {STAGING} USING {method_and_columns}",
        quote(&format!("{name}{SUFFIX}"))
    ))
}

fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::staging_index;

    #[test]
    fn index_definitions_are_retargeted_at_the_staging_table() {
        assert_eq!(
            staging_index(
                "streets_geog_idx",
                "CREATE INDEX streets_geog_idx ON streets.streets USING gist (geog)"
            )
            .as_deref(),
            Some("CREATE INDEX \"streets_geog_idx_import\" ON streets_import USING gist (geog)")
        );
        assert_eq!(
            staging_index(
                "u",
                "CREATE UNIQUE INDEX u ON streets.streets USING btree (a, b)"
            )
            .as_deref(),
            Some("CREATE UNIQUE INDEX \"u_import\" ON streets_import USING btree (a, b)")
        );
        assert_eq!(staging_index("x", "something else"), None);
    }
}
