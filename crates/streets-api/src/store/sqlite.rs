//! SQLite backend: an R*Tree of bounding boxes prefilters radius searches; the exact
//! geodesic distance is computed in Rust (`domain::geo`).

use anyhow::Context;
use async_trait::async_trait;
use domain::geo::{bbox_around, distance_to_lines_m};
use sqlx::{FromRow, Row, Sqlite, SqlitePool, Transaction};
use std::collections::HashMap;

use super::coords::unpack;
use super::{
    feature_error, filtered_page, page_of, DatasetSnapshot, FeatureRow, ImportSummary, StoreResult,
    StreetBatches, StreetStore,
};
use crate::model::{Feature, ItemsPage, ItemsQuery, Near, StoredStreet, StreetQuery};
use domain::geo::BBox;

/// Streets in a SQLite file.
pub struct SqliteStreets {
    pub(super) pool: SqlitePool,
}

impl SqliteStreets {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }

    /// Every street by number, for `snapshot` (`super::dataset`).
    pub(super) async fn all_streets(
        tx: &mut Transaction<'_, Sqlite>,
        total: u64,
    ) -> StoreResult<Vec<StoredStreet>> {
        let mut streets = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
        let mut rows = sqlx::query(
            "SELECT id, number, name, name_folded, coords FROM streets ORDER BY number",
        )
        .fetch(&mut **tx);
        while let Some(row) = futures::TryStreamExt::try_next(&mut rows).await? {
            streets.push(stored_street(&row)?);
        }
        Ok(streets)
    }

    async fn find_near(
        &self,
        near: Near,
        name: Option<&str>,
        query: &StreetQuery,
    ) -> StoreResult<Vec<Feature>> {
        let [min_lon, min_lat, max_lon, max_lat] = bbox_around(near.point, near.radius_m);
        let rows = sqlx::query(
            "SELECT s.id, s.number, s.name, s.geojson, s.coords
             FROM streets_rtree r JOIN streets s ON s.pk = r.pk
             WHERE r.max_lon >= ?1 AND r.min_lon <= ?2 AND r.max_lat >= ?3 AND r.min_lat <= ?4
               AND (?5 IS NULL OR s.name_folded LIKE ?5 || '%' OR s.name_folded LIKE '% ' || ?5 || '%')",
        )
        .bind(min_lon)
        .bind(max_lon)
        .bind(min_lat)
        .bind(max_lat)
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        let mut hits = Vec::with_capacity(rows.len());
        for row in &rows {
            let packed = Packed::from_row(row)?;
            let lines = unpack(packed.coords).context("corrupt packed coordinates")?;
            let distance = distance_to_lines_m(near.point, &lines);
            if distance <= near.radius_m {
                // Only hits pay for decoding the text columns.
                hits.push((distance, StreetRow::from_row(row)?));
            }
        }
        hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.number.cmp(&b.1.number)));
        hits.into_iter()
            .skip(query.offset as usize)
            .take(query.limit as usize)
            .map(|(_, s)| s.feature())
            .collect()
    }
}

/// The columns a read serves, those of [`StreetRow`].
const COLUMNS: &str = "id, number, name, geojson";

/// The columns a read serves (`id, number, name, geojson`).
#[derive(FromRow)]
struct StreetRow {
    id: String,
    number: i64,
    name: String,
    geojson: String,
}

impl FeatureRow for StreetRow {
    fn feature(&self) -> StoreResult<Feature> {
        Feature::from_geojson(&self.id, self.number, &self.name, &self.geojson)
            .map_err(feature_error)
    }
}

/// A street with everything the read model holds, from `id, number, name, name_folded, coords`.
fn stored_street(row: &sqlx::sqlite::SqliteRow) -> StoreResult<StoredStreet> {
    let packed = Packed::from_row(row)?;
    Ok(StoredStreet {
        id: row.try_get("id")?,
        number: row.try_get("number")?,
        name: row.try_get("name")?,
        name_folded: row.try_get("name_folded")?,
        lines: unpack(packed.coords).context("corrupt packed coordinates")?,
    })
}

/// The packed coordinates of a street, borrowed from the row.
#[derive(FromRow)]
struct Packed<'r> {
    coords: &'r [u8],
}

#[async_trait]
impl StreetStore for SqliteStreets {
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Feature>> {
        let sql = format!("SELECT {COLUMNS} FROM streets WHERE number = ?1");
        Self::street_where::<StreetRow, _>(&self.pool, &sql, number).await
    }

    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Feature>> {
        let sql = format!("SELECT {COLUMNS} FROM streets WHERE id = ?1");
        Self::street_where::<StreetRow, _>(&self.pool, &sql, id).await
    }

    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Feature>> {
        if query.matches_nothing() {
            return Ok(Vec::new());
        }
        let name = query.name_text();
        if let Some(near) = query.near {
            return self.find_near(near, name, query).await;
        }
        // Same filter and order as PostgreSQL: whole name, name prefix, word prefix; then name, number.
        let sql = if name.is_some() {
            "SELECT id, number, name, geojson FROM streets
             WHERE name_folded LIKE ?1 || '%' OR name_folded LIKE '% ' || ?1 || '%'
             ORDER BY CASE WHEN name_folded = ?1 THEN 0 WHEN name_folded LIKE ?1 || '%' THEN 1 ELSE 2 END,
                      name_folded, number
             LIMIT ?2 OFFSET ?3"
        } else {
            "SELECT id, number, name, geojson FROM streets WHERE ?1 IS NULL ORDER BY number LIMIT ?2 OFFSET ?3"
        };
        let rows: Vec<StreetRow> = sqlx::query_as(sql)
            .bind(name)
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
        let Some(bbox) = &query.bbox else {
            if let Some(name) = &query.name {
                let rows = sqlx::query(
                    "SELECT id, number, name, name_folded, coords FROM streets WHERE name_folded = ?1",
                )
                .bind(name)
                .fetch_all(&self.pool)
                .await?;
                let candidates = rows.iter().map(stored_street).collect::<StoreResult<_>>()?;
                return filtered_page(candidates, query);
            }
            let rows = sqlx::query(
                "SELECT id, number, name, name_folded, coords FROM streets
                 ORDER BY number LIMIT ?1 OFFSET ?2",
            )
            .bind(i64::from(query.limit))
            .bind(i64::from(query.offset))
            .fetch_all(&self.pool)
            .await?;
            let mut page = page_of(
                rows.iter()
                    .map(stored_street)
                    .collect::<StoreResult<Vec<_>>>()?,
            )?;
            page.matched = self.count_streets().await?;
            return Ok(page);
        };
        let mut candidates: HashMap<i64, StoredStreet> = HashMap::new();
        for &[min_lon, min_lat, max_lon, max_lat] in bbox.boxes() {
            let rows = sqlx::query(
                "SELECT s.id, s.number, s.name, s.name_folded, s.coords
                 FROM streets_rtree r JOIN streets s ON s.pk = r.pk
                 WHERE r.max_lon >= ?1 AND r.min_lon <= ?2 AND r.max_lat >= ?3 AND r.min_lat <= ?4
                   AND (?5 IS NULL OR s.name_folded = ?5)",
            )
            .bind(min_lon)
            .bind(max_lon)
            .bind(min_lat)
            .bind(max_lat)
            .bind(query.name.as_deref())
            .fetch_all(&self.pool)
            .await?;
            for row in &rows {
                let street = stored_street(row)?;
                candidates.insert(street.number, street);
            }
        }
        filtered_page(candidates.into_values().collect(), query)
    }

    async fn dataset_extent(&self) -> StoreResult<Option<BBox>> {
        // The R*Tree holds 32-bit floats rounded outward: the box may be a few centimetres
        // larger than the streets', never smaller.
        Self::extent(
            &self.pool,
            "SELECT min(min_lon), min(min_lat), max(max_lon), max(max_lat) FROM streets_rtree",
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
        // One read transaction: in WAL mode it reads one snapshot from its first SELECT on, so
        // the streets are those of the generation read first.
        Self::snapshot(self.pool.begin().await?, at_most).await
    }
}
