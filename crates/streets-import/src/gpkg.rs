//! GeoPackage: the one feature table of the file, read with sqlx (SQLite, read-only); the
//! geometry blobs decoded by geozero (`GpkgWkb`). The source CRS is the table's `srs_id`
//! (gpkg_contents) as gpkg_spatial_ref_sys defines it.

use std::path::Path;

use geozero::wkb::GpkgWkb;
use geozero::GeozeroGeometry;
use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteRow};
use sqlx::{ConnectOptions, Connection, Row};

use crate::collect::{float_value, Collector, RawFeature};
use crate::crs::readable;
use crate::prj::crs_from_wkt;
use crate::{parse_crs, Crs, ImportError, NAME_PROPERTY, NUMBER_PROPERTY};

const FORMAT: &str = "GeoPackage";

/// The features of the GeoPackage and the CRS its feature table declares.
pub(crate) fn read(
    path: &Path,
) -> Result<(Vec<RawFeature>, Result<Crs, ImportError>), ImportError> {
    // sqlx is async; a runtime of our own on a thread of our own works from any caller,
    // inside a tokio runtime (the CLI) or not (tests, tools).
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| format_error(format!("cannot start the reader: {e}")))?
                    .block_on(read_async(path))
            })
            .join()
            .unwrap_or_else(|_| Err(format_error("the reader stopped unexpectedly".to_owned())))
    })
}

fn format_error(reason: String) -> ImportError {
    ImportError::format(FORMAT, reason)
}

fn sql_error(e: sqlx::Error) -> ImportError {
    format_error(e.to_string())
}

fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}

async fn read_async(
    path: &Path,
) -> Result<(Vec<RawFeature>, Result<Crs, ImportError>), ImportError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .map_err(sql_error)?;
    let result = read_features(&mut conn).await;
    // Closing a read-only connection cannot lose anything; its error is of no interest.
    let _ = conn.close().await;
    result
}

async fn read_features(
    conn: &mut SqliteConnection,
) -> Result<(Vec<RawFeature>, Result<Crs, ImportError>), ImportError> {
    let tables: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT c.table_name, g.column_name, c.srs_id
         FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
         WHERE c.data_type = 'features' ORDER BY c.table_name",
    )
    .fetch_all(&mut *conn)
    .await
    .map_err(|e| format_error(format!("it has no GeoPackage feature tables ({e})")))?;
    let (table, geometry_column, srs_id) = match tables.as_slice() {
        [one] => one.clone(),
        [] => return Err(format_error("it holds no feature table".to_owned())),
        many => {
            let names: Vec<&str> = many.iter().map(|t| t.0.as_str()).collect();
            return Err(format_error(format!(
                "it holds {} feature tables ({}); the streets must be the only one",
                many.len(),
                names.join(", ")
            )));
        }
    };
    let crs = table_crs(conn, srs_id).await?;

    let columns: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info(?1)")
        .bind(&table)
        .fetch_all(&mut *conn)
        .await
        .map_err(sql_error)?;
    let column = |wanted: &str| {
        columns
            .iter()
            .find(|c| c.eq_ignore_ascii_case(wanted))
            .map_or_else(|| "NULL".to_owned(), |c| quote(c))
    };
    let (number, name) = (column(NUMBER_PROPERTY), column(NAME_PROPERTY));
    let sql = format!(
        "SELECT {geom}, {number}, typeof({number}), {name}, typeof({name}) FROM {table} ORDER BY rowid",
        geom = quote(&geometry_column),
        table = quote(&table),
    );
    let rows = sqlx::query(&sql)
        .fetch_all(&mut *conn)
        .await
        .map_err(sql_error)?;
    let mut collector = Collector::default();
    for row in &rows {
        collector.begin();
        collector.set_property(NUMBER_PROPERTY, value(row, 1)?);
        collector.set_property(NAME_PROPERTY, value(row, 3)?);
        let blob: Option<GpkgWkb<Vec<u8>>> = row.try_get(0).map_err(sql_error)?;
        match blob {
            Some(blob) => match blob.process_geom(&mut collector) {
                Ok(()) => collector.end(),
                Err(e) => collector.fail(e.to_string()),
            },
            None => collector.end(),
        }
    }
    Ok((collector.features, crs))
}

/// A column's value as the JSON value GeoJSON would have held; `None` for NULL.
fn value(row: &SqliteRow, index: usize) -> Result<Option<Value>, ImportError> {
    let kind: String = row.try_get(index + 1).map_err(sql_error)?;
    Ok(match kind.as_str() {
        "integer" => Some(Value::from(
            row.try_get::<i64, _>(index).map_err(sql_error)?,
        )),
        "real" => Some(float_value(
            row.try_get::<f64, _>(index).map_err(sql_error)?,
        )),
        "text" => Some(Value::from(
            row.try_get::<String, _>(index).map_err(sql_error)?,
        )),
        "blob" => Some(Value::from("<binary data>")),
        _ => None,
    })
}

/// The CRS of `srs_id`; an error (returned, not raised: `--source-crs` may make it moot) when
/// it is undefined or not supported.
async fn table_crs(
    conn: &mut SqliteConnection,
    srs_id: i64,
) -> Result<Result<Crs, ImportError>, ImportError> {
    let srs: Option<(String, i64, String)> = sqlx::query_as(
        "SELECT organization, organization_coordsys_id, definition
         FROM gpkg_spatial_ref_sys WHERE srs_id = ?1",
    )
    .bind(srs_id)
    .fetch_optional(&mut *conn)
    .await
    .map_err(sql_error)?;
    let missing = |detail: String| ImportError::MissingCrs {
        format: FORMAT,
        detail,
    };
    Ok(match srs {
        None => Err(missing(format!(
            "srs_id {srs_id} is not in gpkg_spatial_ref_sys"
        ))),
        // An EPSG code the table holds; else the definition's WKT, else refused by code.
        Some((org, code, definition)) if org.eq_ignore_ascii_case("EPSG") => {
            match u32::try_from(code).ok().and_then(Crs::from_epsg) {
                Some(crs) => readable(crs),
                None if !definition.trim().eq_ignore_ascii_case("undefined") => {
                    crs_from_wkt(&definition)
                }
                None => parse_crs(&format!("EPSG:{code}")),
            }
        }
        Some(_) if srs_id == 0 || srs_id == -1 => Err(missing(format!(
            "srs_id {srs_id}: undefined {}",
            if srs_id == 0 {
                "geographic"
            } else {
                "Cartesian"
            }
        ))),
        Some((_, _, definition)) => crs_from_wkt(&definition),
    })
}
