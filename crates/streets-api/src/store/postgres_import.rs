//! PostgreSQL import: the streets are copied (binary `COPY`, a batch at a time) into a new
//! table `streets_import` made like `streets`, in a transaction of its own; the old table's
//! indexes are then built on it in one go (far cheaper than keeping them up to date row by row),
//! two at a time on connections of their own when the pool has two to spare (the spatial index
//! alone takes as long as all the others), and in a last short transaction it takes the old table's place. Readers see the
//! old table until that commit. A failure drops the new table; a killed process may leave it
//! behind, unused, and the next import drops it. Imports take turns (an advisory lock, which a
//! dead process's session releases).
//!
//! The swap is not MVCC-safe for a snapshot taken before it and used after it (the new table's
//! rows are not in that snapshot): the read model's snapshot therefore locks `streets` before
//! it takes its snapshot (`PostgresStreets::dataset_snapshot`); single statements take theirs
//! after their locks.

use std::collections::HashMap;

use sqlx::{PgConnection, PgPool, Row};
use streets_import::ImportedStreet;

use super::wkb::multilinestring_wkb;
use super::{
    new_street_id, ImportSummary, PostgresStreets, StoreError, StoreResult, StreetBatches,
};

/// The table the import fills.
const STAGING: &str = "streets_import";
/// What the staging copies of the old table's indexes are called until the swap.
const SUFFIX: &str = "_import";
/// The advisory lock imports take turns on ("STREETS1").
const IMPORT_LOCK: i64 = 0x5354_5245_4554_5331;

/// An index of the old table, to build on the staging table.
struct IndexBuild {
    name: String,
    /// Its `CREATE INDEX` for the staging table, under the temporary name.
    sql: String,
    /// The constraint it backs, with its kind (`PRIMARY KEY`, `UNIQUE`).
    constraint: Option<(String, &'static str)>,
    spatial: bool,
}

impl PostgresStreets {
    pub(super) async fn import(
        &self,
        batches: &mut dyn StreetBatches,
    ) -> StoreResult<ImportSummary> {
        let mut lock = self.pool.acquire().await?;
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(IMPORT_LOCK)
            .execute(&mut *lock)
            .await?;
        let result = import_locked(&self.pool, batches).await;
        if result.is_err() {
            // Best effort: else the next import drops it.
            let _ = sqlx::query(&format!("DROP TABLE IF EXISTS {STAGING}"))
                .execute(&mut *lock)
                .await;
        }
        let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(IMPORT_LOCK)
            .execute(&mut *lock)
            .await;
        if unlocked.is_err() {
            // A session that may still hold the lock must not go back to the pool.
            let _ = lock.close().await;
        }
        result
    }
}

async fn import_locked(
    pool: &PgPool,
    batches: &mut dyn StreetBatches,
) -> StoreResult<ImportSummary> {
    let mut tx = pool.begin().await?;
    // The id lookups of each batch (a few thousand numbers) are index probes, which the
    // planner would trade for a scan of the whole old table per batch.
    sqlx::query("SET LOCAL enable_seqscan = off")
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!("DROP TABLE IF EXISTS {STAGING}"))
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!(
        "CREATE TABLE {STAGING} (LIKE streets INCLUDING DEFAULTS INCLUDING CONSTRAINTS)"
    ))
    .execute(&mut *tx)
    .await?;
    let before: i64 = sqlx::query_scalar("SELECT count(*) FROM streets")
        .fetch_one(&mut *tx)
        .await?;
    let (mut total, mut added) = (0_u64, 0_u64);
    while let Some(batch) = batches.next_batch().await? {
        added += copy_batch(&mut tx, &batch).await?;
        total += batch.len() as u64;
    }
    tx.commit().await?;

    let indexes = index_builds(pool).await?;
    // Two connections if the pool has two to spare (it may be as small as two, and the advisory
    // lock holds one); else the indexes are built one after the other.
    let in_use = pool
        .size()
        .saturating_sub(u32::try_from(pool.num_idle()).unwrap_or(0));
    let spare = pool.options().get_max_connections().saturating_sub(in_use);
    let mut first = pool.acquire().await?;
    let second = if spare >= 2 {
        Some(pool.acquire().await?)
    } else {
        None
    };
    match second {
        Some(mut second) => {
            let (spatial, others): (Vec<&IndexBuild>, Vec<&IndexBuild>) =
                indexes.iter().partition(|i| i.spatial);
            futures::future::try_join(build(&mut first, &spatial), build(&mut second, &others))
                .await?;
        }
        None => build(&mut first, &indexes.iter().collect::<Vec<_>>()).await?,
    }
    drop(first);

    let mut tx = pool.begin().await?;
    sqlx::query(&format!("ANALYZE {STAGING}"))
        .execute(&mut *tx)
        .await?;
    // The swap: readers wait for the commit from here (DROP takes the table's lock).
    sqlx::query("DROP TABLE streets").execute(&mut *tx).await?;
    sqlx::query(&format!("ALTER TABLE {STAGING} RENAME TO streets"))
        .execute(&mut *tx)
        .await?;
    for index in &indexes {
        let staged = quote(&format!("{}{SUFFIX}", index.name));
        let sql = match &index.constraint {
            // The index takes the constraint's name.
            Some((constraint, kind)) => format!(
                "ALTER TABLE streets ADD CONSTRAINT {} {kind} USING INDEX {staged}",
                quote(constraint)
            ),
            None => format!("ALTER INDEX {staged} RENAME TO {}", quote(&index.name)),
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

/// Builds `indexes` one after the other on `conn`.
async fn build(conn: &mut PgConnection, indexes: &[&IndexBuild]) -> StoreResult<()> {
    if indexes.is_empty() {
        return Ok(());
    }
    // Index builds sort in this much server memory (this session's only).
    sqlx::query("SET maintenance_work_mem = '256MB'")
        .execute(&mut *conn)
        .await?;
    for index in indexes {
        sqlx::query(&index.sql).execute(&mut *conn).await?;
    }
    sqlx::query("RESET maintenance_work_mem")
        .execute(&mut *conn)
        .await?;
    Ok(())
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

/// The old table's indexes (those of its primary key and unique constraints too), as their
/// definitions are in the catalogue (so that a migration adding one is followed).
async fn index_builds(pool: &PgPool) -> StoreResult<Vec<IndexBuild>> {
    let rows = sqlx::query(
        "SELECT i.relname::text, pg_get_indexdef(x.indexrelid), c.conname::text, c.contype::text
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
         LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
         WHERE x.indrelid = 'streets'::regclass ORDER BY 1",
    )
    .fetch_all(pool)
    .await?;
    let mut builds = Vec::with_capacity(rows.len());
    for row in rows {
        let name: String = row.try_get(0)?;
        let definition: String = row.try_get(1)?;
        let constraint: Option<String> = row.try_get(2)?;
        let kind: Option<String> = row.try_get(3)?;
        let unsupported = || {
            StoreError::Other(anyhow::anyhow!(
                "cannot rebuild index {name} from its definition {definition:?}"
            ))
        };
        let constraint = match (constraint, kind.as_deref()) {
            (None, _) => None,
            (Some(c), Some("p")) => Some((c, "PRIMARY KEY")),
            (Some(c), Some("u")) => Some((c, "UNIQUE")),
            (Some(_), _) => return Err(unsupported()),
        };
        let sql = staging_index(&name, &definition).ok_or_else(unsupported)?;
        builds.push(IndexBuild {
            spatial: definition.contains(" USING gist "),
            name,
            sql,
            constraint,
        });
    }
    Ok(builds)
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
