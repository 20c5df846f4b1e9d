//! PostgreSQL + PostGIS backend: GiST index on `geography`, distances on the spheroid,
//! trigram index for name search. Geometries move between PostGIS and Rust as WKB through
//! geozero both ways: written with `ST_GeomFromWKB`, read with `ST_AsBinary` and decoded into
//! lines, from which the served GeoJSON is written (no GeoJSON is built in SQL or stored).

use anyhow::Context;
use async_trait::async_trait;
use futures::TryStreamExt;
use sqlx::{FromRow, PgPool, Postgres, Transaction};
use std::collections::HashMap;

use super::wkb::lines_from_wkb;
use super::{
    feature_error, filtered_page, page_of, DatasetSnapshot, FeatureRow, ImportSummary, StoreResult,
    StreetBatches, StreetStore,
};
use crate::model::{Feature, ItemsPage, ItemsQuery, StoredStreet, StreetQuery};
use domain::geo::BBox;

/// Streets in PostgreSQL (schema `streets`).
pub struct PostgresStreets {
    pub(super) pool: PgPool,
}

impl PostgresStreets {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }

    /// Every street by number, for `snapshot` (`super::dataset`).
    pub(super) async fn all_streets(
        tx: &mut Transaction<'_, Postgres>,
        total: u64,
    ) -> StoreResult<Vec<StoredStreet>> {
        let mut streets = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
        let sql = format!("SELECT {STORED_COLUMNS} FROM streets ORDER BY number");
        let mut rows = sqlx::query_as::<_, StoredRow>(&sql).fetch(&mut **tx);
        while let Some(row) = rows.try_next().await? {
            streets.push(stored_street(row)?);
        }
        Ok(streets)
    }
}

const COLUMNS: &str = "id, number, name, ST_AsBinary(geog::geometry) AS wkb";

/// A street as read: its geometry as the WKB of a (Multi)LineString.
#[derive(FromRow)]
struct StreetRow {
    id: String,
    number: i64,
    name: String,
    wkb: Vec<u8>,
}

/// The lines of a stored geometry; anything but (Multi)LineString WKB is a corrupt value.
fn decode_lines(number: i64, wkb: &[u8]) -> anyhow::Result<Vec<Vec<[f64; 2]>>> {
    lines_from_wkb(wkb)
        .with_context(|| format!("decoding the geometry of street {number}"))?
        .with_context(|| format!("street {number} is not a line geometry"))
}

/// A row of `STORED_COLUMNS`: id, number, name, folded name, WKB.
type StoredRow = (String, i64, String, String, Vec<u8>);

/// A row of `STORED_COLUMNS` as a street the read model holds.
fn stored_street((id, number, name, name_folded, wkb): StoredRow) -> StoreResult<StoredStreet> {
    Ok(StoredStreet {
        lines: decode_lines(number, &wkb)?,
        id,
        number,
        name,
        name_folded,
    })
}

/// Rows of `STORED_COLUMNS` as the streets the read model holds.
fn stored_streets(rows: Vec<StoredRow>) -> StoreResult<Vec<StoredStreet>> {
    rows.into_iter().map(stored_street).collect()
}

const STORED_COLUMNS: &str = "id, number, name, name_folded, ST_AsBinary(geog::geometry)";

impl FeatureRow for StreetRow {
    fn feature(&self) -> StoreResult<Feature> {
        let lines = decode_lines(self.number, &self.wkb)?;
        Feature::from_lines(&self.id, self.number, &self.name, &lines).map_err(feature_error)
    }
}

#[async_trait]
impl StreetStore for PostgresStreets {
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Feature>> {
        let sql = format!("SELECT {COLUMNS} FROM streets WHERE number = $1");
        Self::street_where::<StreetRow, _>(&self.pool, &sql, number).await
    }

    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Feature>> {
        let sql = format!("SELECT {COLUMNS} FROM streets WHERE id = $1");
        Self::street_where::<StreetRow, _>(&self.pool, &sql, id).await
    }

    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Feature>> {
        if query.matches_nothing() {
            return Ok(Vec::new());
        }
        // $1 folded name or NULL, $2 lon, $3 lat, $4 radius (NULL without a point), $5 limit, $6 offset.
        // The name filter: the name starts with the query, or a word of it does (words are
        // separated by exactly one space in name_folded). The folded query holds only letters,
        // digits and single spaces, so it contains no LIKE wildcard. Names are ordered by code
        // point (COLLATE "C"), as SQLite and the read model order them, whatever the database's
        // collation.
        let name_filter = "($1::text IS NULL OR name_folded LIKE $1 || '%' OR name_folded LIKE '% ' || $1 || '%')";
        let rank =
            "CASE WHEN name_folded = $1 THEN 0 WHEN name_folded LIKE $1 || '%' THEN 1 ELSE 2 END";
        let sql = if query.near.is_some() {
            format!(
                "WITH p AS (SELECT ST_SetSRID(ST_MakePoint($2, $3), 4326)::geography AS g)
                 SELECT {COLUMNS} FROM streets, p
                 WHERE ST_DWithin(streets.geog, p.g, $4) AND {name_filter}
                 ORDER BY ST_Distance(streets.geog, p.g), number
                 LIMIT $5 OFFSET $6"
            )
        } else if query.name_text().is_some() {
            format!(
                "SELECT {COLUMNS} FROM streets WHERE {name_filter}
                 AND $2::float8 IS NULL AND $3::float8 IS NULL AND $4::float8 IS NULL
                 ORDER BY {rank}, name_folded COLLATE \"C\", number LIMIT $5 OFFSET $6"
            )
        } else {
            format!(
                "SELECT {COLUMNS} FROM streets
                 WHERE $1::text IS NULL AND $2::float8 IS NULL AND $3::float8 IS NULL AND $4::float8 IS NULL
                 ORDER BY number LIMIT $5 OFFSET $6"
            )
        };
        let rows: Vec<StreetRow> = sqlx::query_as(&sql)
            .bind(query.name_text())
            .bind(query.near.map(|n| n.point.lon))
            .bind(query.near.map(|n| n.point.lat))
            .bind(query.near.map(|n| n.radius_m))
            .bind(i64::from(query.limit))
            .bind(i64::from(query.offset))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(StreetRow::feature).collect()
    }

    async fn import_streets(&self, batches: &mut dyn StreetBatches) -> StoreResult<ImportSummary> {
        self.import(batches).await
    }

    async fn collection_items(&self, query: &ItemsQuery) -> StoreResult<ItemsPage> {
        type Row = (String, i64, String, String, Vec<u8>);
        let Some(bbox) = &query.bbox else {
            if query.name.is_some() {
                let rows: Vec<Row> = sqlx::query_as(&format!(
                    "SELECT {STORED_COLUMNS} FROM streets WHERE name_folded = $1"
                ))
                .bind(query.name.as_deref())
                .fetch_all(&self.pool)
                .await?;
                return filtered_page(stored_streets(rows)?, query);
            }
            let rows: Vec<Row> = sqlx::query_as(&format!(
                "SELECT {STORED_COLUMNS} FROM streets ORDER BY number LIMIT $1 OFFSET $2"
            ))
            .bind(i64::from(query.limit))
            .bind(i64::from(query.offset))
            .fetch_all(&self.pool)
            .await?;
            let mut page = page_of(stored_streets(rows)?)?;
            page.matched = self.count_streets().await?;
            return Ok(page);
        };
        let mut candidates: HashMap<i64, StoredStreet> = HashMap::new();
        for &[min_lon, min_lat, max_lon, max_lat] in bbox.boxes() {
            // Bounding boxes overlap in plain longitude/latitude, as the features API's bbox is
            // meant; the exact test is the shared one in Rust.
            let rows: Vec<Row> = sqlx::query_as(&format!(
                "SELECT {STORED_COLUMNS} FROM streets
                 WHERE geog::geometry && ST_MakeEnvelope($1, $2, $3, $4, 4326)
                   AND ($5::text IS NULL OR name_folded = $5)"
            ))
            .bind(min_lon)
            .bind(min_lat)
            .bind(max_lon)
            .bind(max_lat)
            .bind(query.name.as_deref())
            .fetch_all(&self.pool)
            .await?;
            for street in stored_streets(rows)? {
                candidates.insert(street.number, street);
            }
        }
        filtered_page(candidates.into_values().collect(), query)
    }

    async fn dataset_extent(&self) -> StoreResult<Option<BBox>> {
        Self::extent(
            &self.pool,
            "SELECT ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e)
             FROM (SELECT ST_Extent(geog::geometry) AS e FROM streets) t",
        )
        .await
    }

    async fn count_streets(&self) -> StoreResult<u64> {
        Self::street_count(&self.pool).await
    }

    async fn dataset_generation(&self) -> StoreResult<i64> {
        Self::generation(&self.pool).await
    }

    async fn dataset_snapshot(&self, at_most: u64) -> StoreResult<DatasetSnapshot> {
        // REPEATABLE READ: every statement sees the snapshot of the first, so the streets are
        // exactly those of the generation read.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        // An import swaps in a new table (`postgres_import`), which a snapshot taken before
        // its commit would see empty: the lock, taken before the snapshot (LOCK needs none),
        // waits for a swap in progress, so the snapshot is of the table as it then is.
        sqlx::query("LOCK TABLE streets IN ACCESS SHARE MODE")
            .execute(&mut *tx)
            .await?;
        Self::snapshot(tx, at_most).await
    }
}
