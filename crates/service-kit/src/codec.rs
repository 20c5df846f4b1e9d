//! The two column types whose stored form differs between the backends, encoded by one Rust type
//! each, so a statement binds and a row decodes the same way on both.
//!
//! PostgreSQL stores a UUID as `uuid` and an instant as `timestamptz` (sqlx's own encodings);
//! SQLite, which has neither type, stores a UUID as its hyphenated text and an instant as INTEGER
//! microseconds since the Unix epoch (so instants compare and sort as numbers, and an index on them
//! orders them). Those SQLite forms are what every service's SQLite migrations and data already
//! use; these types keep them and only move the conversion out of each statement:
//! `.bind(DbUuid(id))` and a `#[derive(sqlx::FromRow)]` field of type [`DbUuid`] mean the same on
//! both backends, so a statement that is otherwise plain SQL is written once.

use chrono::{DateTime, Utc};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueRef};
use sqlx::sqlite::{SqliteArgumentValue, SqliteTypeInfo, SqliteValueRef};
use sqlx::{Database, Decode, Encode, Postgres, Sqlite, Type};
use uuid::Uuid;

/// A UUID column: `uuid` on PostgreSQL, hyphenated TEXT on SQLite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DbUuid(pub Uuid);

/// An instant column: `timestamptz` on PostgreSQL, INTEGER microseconds on SQLite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct DbInstant(pub DateTime<Utc>);

impl From<DbUuid> for Uuid {
    fn from(value: DbUuid) -> Self {
        value.0
    }
}

impl From<DbInstant> for DateTime<Utc> {
    fn from(value: DbInstant) -> Self {
        value.0
    }
}

/// A nullable [`DbUuid`] or [`DbInstant`] column, for a `#[derive(sqlx::FromRow)]` field of the
/// plain type: `#[sqlx(try_from = "DbOption<DbUuid>")] parent_id: Option<Uuid>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DbOption<T>(pub Option<T>);

impl From<DbOption<DbUuid>> for Option<Uuid> {
    fn from(value: DbOption<DbUuid>) -> Self {
        value.0.map(Uuid::from)
    }
}

impl From<DbOption<DbInstant>> for Option<DateTime<Utc>> {
    fn from(value: DbOption<DbInstant>) -> Self {
        value.0.map(DateTime::from)
    }
}

impl<T: Type<DB>, DB: Database> Type<DB> for DbOption<T> {
    fn type_info() -> DB::TypeInfo {
        T::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        T::compatible(ty)
    }
}

impl<'r, T, DB: Database> Decode<'r, DB> for DbOption<T>
where
    Option<T>: Decode<'r, DB>,
{
    fn decode(value: DB::ValueRef<'r>) -> Result<Self, BoxDynError> {
        <Option<T> as Decode<'r, DB>>::decode(value).map(DbOption)
    }
}

/// `Type`, `Encode` and `Decode` on PostgreSQL for a newtype stored as its inner type is (sqlx's
/// own encoding).
macro_rules! postgres_as_inner {
    ($($wrapper:ident($inner:ty)),* $(,)?) => {$(
        impl Type<Postgres> for $wrapper {
            fn type_info() -> PgTypeInfo {
                <$inner as Type<Postgres>>::type_info()
            }
        }

        impl Encode<'_, Postgres> for $wrapper {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
                <$inner as Encode<Postgres>>::encode_by_ref(&self.0, buf)
            }
        }

        impl<'r> Decode<'r, Postgres> for $wrapper {
            fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
                <$inner as Decode<Postgres>>::decode(value).map($wrapper)
            }
        }
    )*};
}

postgres_as_inner!(DbUuid(Uuid), DbInstant(DateTime<Utc>));

/// `Type` on SQLite for a type stored in a column of another's type (its `Encode` and `Decode`
/// convert).
macro_rules! sqlite_stored_as {
    ($($wrapper:ident($stored:ty)),* $(,)?) => {$(
        impl Type<Sqlite> for $wrapper {
            fn type_info() -> SqliteTypeInfo {
                <$stored as Type<Sqlite>>::type_info()
            }

            fn compatible(ty: &SqliteTypeInfo) -> bool {
                <$stored as Type<Sqlite>>::compatible(ty)
            }
        }
    )*};
}

sqlite_stored_as!(DbUuid(String), DbInstant(i64));

impl<'q> Encode<'q, Sqlite> for DbUuid {
    fn encode_by_ref(&self, buf: &mut Vec<SqliteArgumentValue<'q>>) -> Result<IsNull, BoxDynError> {
        <String as Encode<Sqlite>>::encode(self.0.hyphenated().to_string(), buf)
    }
}

impl<'r> Decode<'r, Sqlite> for DbUuid {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <&str as Decode<Sqlite>>::decode(value)?;
        Ok(DbUuid(Uuid::parse_str(text)?))
    }
}

impl<'q> Encode<'q, Sqlite> for DbInstant {
    fn encode_by_ref(&self, buf: &mut Vec<SqliteArgumentValue<'q>>) -> Result<IsNull, BoxDynError> {
        <i64 as Encode<Sqlite>>::encode(self.0.timestamp_micros(), buf)
    }
}

impl<'r> Decode<'r, Sqlite> for DbInstant {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let micros = <i64 as Decode<Sqlite>>::decode(value)?;
        DateTime::from_timestamp_micros(micros)
            .map(DbInstant)
            .ok_or_else(|| format!("stored instant {micros} µs is out of range").into())
    }
}

/// Compiles the items it is given once for each backend: `both_backends!(PgStore, SqliteStore;
/// items…)` expands to a module `postgres` and a module `sqlite` (both `use super::*`), in which
/// `Backend` names that backend's store type, `Db` its sqlx database and `Tx<'c>` a transaction
/// on it. So a store trait whose statements are plain SQL both databases run (`$n` placeholders,
/// [`DbUuid`] and [`DbInstant`] binds, `#[derive(sqlx::FromRow)]` records) is implemented from
/// one body; what really differs stays an inherent method of each store type that the body calls.
#[macro_export]
macro_rules! both_backends {
    ($pg:ty, $sqlite:ty; $($body:tt)*) => {
        $crate::both_backends!(@backend postgres, $pg, ::sqlx::Postgres; $($body)*);
        $crate::both_backends!(@backend sqlite, $sqlite, ::sqlx::Sqlite; $($body)*);
    };
    (@backend $module:ident, $store:ty, $db:ty; $($body:tt)*) => {
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            #[allow(dead_code)]
            type Backend = $store;
            #[allow(dead_code)]
            type Db = $db;
            #[allow(dead_code)]
            type Tx<'c> = ::sqlx::Transaction<'c, Db>;
            $($body)*
        }
    };
}
