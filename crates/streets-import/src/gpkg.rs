//! GeoPackage: the one feature table of the file, read with sqlx (SQLite, read-only); the
//! geometry blobs decoded by geozero (`GpkgWkb`). The source CRS is the table's `srs_id`
//! (gpkg_contents) as gpkg_spatial_ref_sys defines it.

use std::path::Path;

use geozero::wkb::GpkgWkb;
use geozero::GeozeroGeometry;
use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteRow};
use sqlx::{ConnectOptions, Connection, Row};

use crate::collect::{float_value, Collector};
use crate::crs::readable;
use crate::pipeline::{Pipeline, StreetSink};
use crate::prj::crs_from_wkt;
use crate::Source;
use crate::{choose_crs, parse_crs, Crs, ImportError, NAME_PROPERTY, NUMBER_PROPERTY};

const FORMAT: &str = "GeoPackage";

/// Rows fetched at a time (by rowid, so each fetch is an index range).
const ROWS_PER_FETCH: i64 = 4096;

/// One feature row: the geometry blob and the two properties.
struct FeatureRow {
    geometry: Option<Vec<u8>>,
    number: Option<Value>,
    name: Option<Value>,
}

/// What the fetching thread sends, in this order: `Start`, any number of `Rows`, `End`.
enum Message {
    Start {
        crs: Result<Crs, ImportError>,
        count: u64,
    },
    Rows(Vec<FeatureRow>),
    End,
}

type Sender = std::sync::mpsc::SyncSender<Result<Message, ImportError>>;

/// Reads the GeoPackage's features into `sink`, in the CRS its feature table declares unless
/// `source_crs` is given; returns how many streets it held.
///
/// sqlx is async: a thread of our own with a runtime of its own fetches the rows (which works
/// from any caller, inside a tokio runtime or not), a few thousand at a time, and this thread
/// checks them, so memory does not grow with the file.
pub(crate) fn read(source: Source<'_>, sink: &mut dyn StreetSink) -> Result<u64, ImportError> {
    let (path, source_crs, batch_size) = (source.path, source.crs, source.batch_size);
    // SQLite would report a missing file vaguely; name it as for GeoJSON.
    std::fs::metadata(path).map_err(ImportError::io(path))?;
    let (tx, rx) = std::sync::mpsc::sync_channel(2);
    std::thread::scope(|scope| {
        scope.spawn(move || fetch(path, &tx));
        // Returning drops the receiver, which stops the fetching thread.
        consume(&rx, source_crs, batch_size, sink)
    })
}

fn consume(
    rx: &std::sync::mpsc::Receiver<Result<Message, ImportError>>,
    source_crs: Option<&str>,
    batch_size: usize,
    sink: &mut dyn StreetSink,
) -> Result<u64, ImportError> {
    let stopped = || format_error("the reader stopped unexpectedly".to_owned());
    let Message::Start { crs, count } = rx.recv().map_err(|_| stopped())?? else {
        return Err(stopped());
    };
    let mut pipeline = Pipeline::new(choose_crs(source_crs, crs)?, batch_size, sink);
    pipeline.start(Some(count));
    let mut collector = Collector::new(&mut pipeline);
    loop {
        match rx.recv().map_err(|_| stopped())?? {
            Message::Rows(rows) => {
                for row in rows {
                    collector.begin();
                    collector.set_property(NUMBER_PROPERTY, row.number);
                    collector.set_property(NAME_PROPERTY, row.name);
                    match row.geometry {
                        Some(blob) => match GpkgWkb(blob).process_geom(&mut collector) {
                            Ok(()) => collector.end()?,
                            Err(e) => collector.fail(e.to_string())?,
                        },
                        None => collector.end()?,
                    }
                }
            }
            Message::End => break,
            Message::Start { .. } => return Err(stopped()),
        }
    }
    pipeline.finish()
}

/// The fetching thread: sends the rows, or the error that stopped it; stops early when the
/// receiver is gone.
fn fetch(path: &Path, tx: &Sender) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            let _ = tx.send(Err(format_error(format!("cannot start the reader: {e}"))));
            return;
        }
    };
    let result = runtime.block_on(async {
        let mut conn = SqliteConnectOptions::new()
            .filename(path)
            .read_only(true)
            .connect()
            .await
            .map_err(sql_error)?;
        let result = fetch_rows(&mut conn, tx).await;
        // Closing a read-only connection cannot lose anything; its error is of no interest.
        let _ = conn.close().await;
        result
    });
    if let Err(e) = result {
        let _ = tx.send(Err(e));
    }
}

/// Blocking sends from the fetching thread's runtime are fine: it runs nothing else.
async fn fetch_rows(conn: &mut SqliteConnection, tx: &Sender) -> Result<(), ImportError> {
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
    let table = quote(&table);
    let count: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
        .fetch_one(&mut *conn)
        .await
        .map_err(sql_error)?;
    let start = Message::Start {
        crs,
        count: u64::try_from(count).unwrap_or(0),
    };
    if tx.send(Ok(start)).is_err() {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid, {geom}, {number}, typeof({number}), {name}, typeof({name}) FROM {table}
         WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
        geom = quote(&geometry_column),
    );
    let mut after = i64::MIN;
    loop {
        let rows = sqlx::query(&sql)
            .bind(after)
            .bind(ROWS_PER_FETCH)
            .fetch_all(&mut *conn)
            .await
            .map_err(sql_error)?;
        let Some(last) = rows.last() else {
            let _ = tx.send(Ok(Message::End));
            return Ok(());
        };
        after = last.try_get(0).map_err(sql_error)?;
        let rows = rows
            .iter()
            .map(|row| {
                Ok(FeatureRow {
                    geometry: row.try_get(1).map_err(sql_error)?,
                    number: value(row, 2)?,
                    name: value(row, 4)?,
                })
            })
            .collect::<Result<Vec<_>, ImportError>>()?;
        if tx.send(Ok(Message::Rows(rows))).is_err() {
            return Ok(());
        }
    }
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
