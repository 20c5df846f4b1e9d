//! `DbUuid`, `DbInstant` and `DbOption` against real databases: one statement text (`$n`
//! placeholders) and one `FromRow` struct serve both backends, and SQLite keeps the stored forms
//! its migrations and data already use (hyphenated text, INTEGER microseconds).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a test failure

use chrono::{DateTime, Utc};
use service_kit::codec::{DbInstant, DbOption, DbUuid};
use sqlx::sqlite::SqlitePoolOptions;
use sqlx::{Connection, Executor, PgConnection, SqliteConnection};
use uuid::Uuid;

#[derive(Debug, PartialEq, sqlx::FromRow)]
struct Record {
    id: DbUuid,
    parent: Option<DbUuid>,
    at: DbInstant,
    until: Option<DbInstant>,
}

/// The same row read into plain types (`try_from`), as the services' own types read theirs.
#[derive(Debug, PartialEq, sqlx::FromRow)]
struct Plain {
    #[sqlx(try_from = "DbUuid")]
    id: Uuid,
    #[sqlx(try_from = "DbOption<DbUuid>")]
    parent: Option<Uuid>,
    #[sqlx(try_from = "DbInstant")]
    at: DateTime<Utc>,
    #[sqlx(try_from = "DbOption<DbInstant>")]
    until: Option<DateTime<Utc>>,
}

impl From<&Record> for Plain {
    fn from(r: &Record) -> Self {
        Plain {
            id: r.id.0,
            parent: r.parent.map(|p| p.0),
            at: r.at.0,
            until: r.until.map(|u| u.0),
        }
    }
}

/// Writes `record` with [`INSERT`]; it reads back with [`SELECT`] as itself and as [`Plain`].
macro_rules! assert_reads_back {
    ($executor:expr, $record:expr) => {
        sqlx::query(INSERT)
            .bind($record.id)
            .bind($record.parent)
            .bind($record.at)
            .bind($record.until)
            .execute($executor)
            .await
            .unwrap();
        let read: Record = sqlx::query_as(SELECT)
            .bind($record.id)
            .bind($record.at)
            .fetch_one($executor)
            .await
            .unwrap();
        assert_eq!(read, $record);
        let plain: Plain = sqlx::query_as(SELECT)
            .bind($record.id)
            .bind($record.at)
            .fetch_one($executor)
            .await
            .unwrap();
        assert_eq!(plain, Plain::from(&$record));
    };
}

const INSERT: &str = "INSERT INTO t (id, parent, at, until) VALUES ($1, $2, $3, $4)";
const SELECT: &str = "SELECT id, parent, at, until FROM t WHERE id = $1 AND at <= $2";

fn sample() -> Record {
    Record {
        id: DbUuid(Uuid::now_v7()),
        parent: Some(DbUuid(Uuid::now_v7())),
        // Microsecond precision: what both backends keep.
        at: DbInstant(DateTime::from_timestamp_micros(1_764_288_000_123_456).unwrap()),
        until: Some(DbInstant(
            DateTime::from_timestamp_micros(-86_400_000_001).unwrap(),
        )),
    }
}

#[tokio::test]
async fn sqlite_keeps_hyphenated_text_and_microseconds() {
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
        .unwrap();
    pool.execute(
        "CREATE TABLE t (id TEXT PRIMARY KEY, parent TEXT, at INTEGER NOT NULL, until INTEGER)",
    )
    .await
    .unwrap();
    let record = sample();

    assert_reads_back!(&pool, record);

    // The stored forms are the ones written before these types existed.
    let (id, at, kind): (String, i64, String) = sqlx::query_as("SELECT id, at, typeof(at) FROM t")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(id, record.id.0.hyphenated().to_string());
    assert_eq!(at, 1_764_288_000_123_456);
    assert_eq!(kind, "integer");

    // A row written the old way (`.bind(id.to_string())`, `.bind(micros)`) reads back.
    let old = Uuid::now_v7();
    sqlx::query("INSERT INTO t (id, at) VALUES (?1, ?2)")
        .bind(old.to_string())
        .bind(5_i64)
        .execute(&pool)
        .await
        .unwrap();
    let read: Record = sqlx::query_as("SELECT id, parent, at, until FROM t WHERE id = $1")
        .bind(DbUuid(old))
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(read.id, DbUuid(old));
    assert_eq!(read.at.0.timestamp_micros(), 5);
    assert_eq!((read.parent, read.until), (None, None));
    let plain: Plain = sqlx::query_as("SELECT id, parent, at, until FROM t WHERE id = $1")
        .bind(DbUuid(old))
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!((plain.parent, plain.until), (None, None));
}

#[tokio::test]
async fn sqlite_refuses_a_stored_value_that_is_no_uuid() {
    let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
    let err = sqlx::query_as::<_, (DbUuid,)>("SELECT 'not a uuid'")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    assert!(matches!(err, sqlx::Error::ColumnDecode { .. }), "{err:?}");
    let err = sqlx::query_as::<_, (DbInstant,)>("SELECT 9223372036854775807")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    assert!(matches!(err, sqlx::Error::ColumnDecode { .. }), "{err:?}");
}

#[tokio::test]
async fn postgres_uses_its_own_uuid_and_timestamptz() {
    let Some(db) = test_support::postgres("codec").await else {
        return;
    };
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    conn.execute("CREATE TABLE t (id uuid PRIMARY KEY, parent uuid, at timestamptz NOT NULL, until timestamptz)")
        .await
        .unwrap();
    let record = sample();
    assert_reads_back!(&mut conn, record);
    let (id, at): (Uuid, DateTime<Utc>) = sqlx::query_as("SELECT id, at FROM t")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!((id, at), (record.id.0, record.at.0));
}
