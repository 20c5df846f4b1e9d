//! Table groups whose statements are the same on both backends, written once.
//!
//! A statement here is SQL that PostgreSQL and SQLite both run as written: `$n` placeholders
//! (sqlx reads them as positions on SQLite too), ids bound as [`DbUuid`] and instants as
//! [`DbInstant`] (their stored forms differ: `service_kit::codec`), rows read into
//! `#[derive(sqlx::FromRow)]` records. [`both_backends!`] compiles one body for each backend:
//! inside it `Backend` is [`PgStore`](super::postgres::PgStore) or
//! [`SqliteStore`](super::sqlite::SqliteStore) and `Db` its sqlx database, and what really differs
//! between the dialects is an inherent method of each store (`begin_write`: SQLite takes its
//! write lock up front with `BEGIN IMMEDIATE`). A table group whose statements differ (PostGIS,
//! text search, row locks) keeps its module in each backend.

pub(super) use service_kit::codec::{DbInstant, DbUuid};

/// Compiles the items it is given once for each backend (defined before the modules below, which
/// use it by its textual scope), in a module where `Backend` names the
/// backend's store type, `Db` its sqlx database and `Tx<'c>` a transaction on it.
macro_rules! both_backends {
    ($($body:tt)*) => {
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            #[allow(dead_code)]
            type Backend = $crate::store::postgres::PgStore;
            #[allow(dead_code)]
            type Db = sqlx::Postgres;
            #[allow(dead_code)]
            type Tx<'c> = sqlx::Transaction<'c, Db>;
            $($body)*
        }
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            #[allow(dead_code)]
            type Backend = $crate::store::sqlite::SqliteStore;
            #[allow(dead_code)]
            type Db = sqlx::Sqlite;
            #[allow(dead_code)]
            type Tx<'c> = sqlx::Transaction<'c, Db>;
            $($body)*
        }
    };
}

mod categories;
mod deliveries;
mod digests;
mod issues;
mod news_categories;
mod notifications;
mod outbox;
mod projects;
mod status_events;
