//! PostgreSQL + PostGIS backend: GiST index on `geography`, distances on the spheroid,
//! trigram index for name search. Geometries go to PostGIS as WKB written by geozero; the
//! served GeoJSON text is stored beside them, so reads convert nothing.

use anyhow::Context;
use async_trait::async_trait;
use sqlx::PgPool;
use std::collections::HashMap;
use streets_import::ImportedStreet;

use super::wkb::multilinestring_wkb;
use super::{new_street_id, ImportSummary, StoreResult, StreetRow, StreetStore};
use crate::model::{multilinestring_json, Street, StreetQuery};

/// Streets in PostgreSQL (schema `streets`).
pub struct PostgresStreets {
    pool: PgPool,
}

impl PostgresStreets {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

const COLUMNS: &str = "id, number, name, geojson";

#[async_trait]
impl StreetStore for PostgresStreets {
    async fn street_by_number(&self, number: i64) -> StoreResult<Option<Street>> {
        let row: Option<StreetRow> =
            sqlx::query_as(&format!("SELECT {COLUMNS} FROM streets WHERE number = $1"))
                .bind(number)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(Street::from))
    }

    async fn street_by_id(&self, id: &str) -> StoreResult<Option<Street>> {
        let row: Option<StreetRow> =
            sqlx::query_as(&format!("SELECT {COLUMNS} FROM streets WHERE id = $1"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(Street::from))
    }

    async fn find_streets(&self, query: &StreetQuery) -> StoreResult<Vec<Street>> {
        if query.name.as_deref() == Some("") {
            return Ok(Vec::new());
        }
        // $1 folded name or NULL, $2 lon, $3 lat, $4 radius (NULL without a point), $5 limit, $6 offset.
        // The name filter: the name starts with the query, or a word of it does (words are
        // separated by exactly one space in name_folded). The folded query holds only letters,
        // digits and single spaces, so it contains no LIKE wildcard.
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
        } else if query.name.is_some() {
            format!(
                "SELECT {COLUMNS} FROM streets WHERE {name_filter}
                 AND $2::float8 IS NULL AND $3::float8 IS NULL AND $4::float8 IS NULL
                 ORDER BY {rank}, name_folded, number LIMIT $5 OFFSET $6"
            )
        } else {
            format!(
                "SELECT {COLUMNS} FROM streets
                 WHERE $1::text IS NULL AND $2::float8 IS NULL AND $3::float8 IS NULL AND $4::float8 IS NULL
                 ORDER BY number LIMIT $5 OFFSET $6"
            )
        };
        let rows: Vec<StreetRow> = sqlx::query_as(&sql)
            .bind(query.name.as_deref())
            .bind(query.near.map(|n| n.point.lon))
            .bind(query.near.map(|n| n.point.lat))
            .bind(query.near.map(|n| n.radius_m))
            .bind(i64::from(query.limit))
            .bind(i64::from(query.offset))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(Street::from).collect())
    }

    async fn replace_all_streets(&self, streets: &[ImportedStreet]) -> StoreResult<ImportSummary> {
        let mut tx = self.pool.begin().await?;
        // One import at a time; readers keep seeing the old data until commit.
        sqlx::query("LOCK TABLE streets IN EXCLUSIVE MODE")
            .execute(&mut *tx)
            .await?;
        let existing: HashMap<i64, String> =
            sqlx::query_as::<_, (i64, String)>("SELECT number, id FROM streets")
                .fetch_all(&mut *tx)
                .await?
                .into_iter()
                .collect();
        sqlx::query("DELETE FROM streets").execute(&mut *tx).await?;
        let mut added = 0;
        for chunk in streets.chunks(500) {
            let mut ids = Vec::with_capacity(chunk.len());
            let mut numbers = Vec::with_capacity(chunk.len());
            let mut names = Vec::with_capacity(chunk.len());
            let mut folded = Vec::with_capacity(chunk.len());
            let mut geojson = Vec::with_capacity(chunk.len());
            let mut wkb = Vec::with_capacity(chunk.len());
            for s in chunk {
                let id = existing.get(&s.number).cloned().unwrap_or_else(|| {
                    added += 1;
                    new_street_id()
                });
                ids.push(id);
                numbers.push(s.number);
                names.push(s.name.clone());
                folded.push(domain::text::fold(&s.name));
                geojson.push(multilinestring_json(&s.lines));
                wkb.push(multilinestring_wkb(&s.lines).context("encoding a street as WKB")?);
            }
            sqlx::query(
                "INSERT INTO streets (id, number, name, name_folded, geojson, geog)
                 SELECT id, number, name, folded, gj, ST_GeomFromWKB(wkb, 4326)::geography
                 FROM UNNEST($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::bytea[])
                      AS t(id, number, name, folded, gj, wkb)",
            )
            .bind(&ids)
            .bind(&numbers)
            .bind(&names)
            .bind(&folded)
            .bind(&geojson)
            .bind(&wkb)
            .execute(&mut *tx)
            .await
            .context("inserting streets")?;
        }
        let kept = streets.len() as u64 - added;
        sqlx::query("UPDATE dataset SET generation = generation + 1")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ImportSummary {
            total: streets.len() as u64,
            added,
            removed: existing.len() as u64 - kept,
        })
    }

    async fn count_streets(&self) -> StoreResult<u64> {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM streets")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    async fn dataset_generation(&self) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT generation FROM dataset")
            .fetch_one(&self.pool)
            .await?)
    }
}
