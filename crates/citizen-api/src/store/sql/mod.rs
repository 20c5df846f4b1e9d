//! Table groups whose statements are the same on both backends, written once.
//!
//! A statement here is SQL that PostgreSQL and SQLite both run as written: `$n` placeholders
//! (sqlx reads them as positions on SQLite too), ids bound as [`DbUuid`] and instants as
//! [`DbInstant`] (their stored forms differ: `service_kit::codec`), rows read into
//! `#[derive(sqlx::FromRow)]` records. [`service_kit::both_backends!`] compiles one body for
//! each backend: inside it `Backend` is [`PgStore`](super::postgres::PgStore) or
//! [`SqliteStore`](super::sqlite::SqliteStore) and `Db` its sqlx database, and what really
//! differs between the dialects is an inherent method of each store (`begin_write`: SQLite takes
//! its write lock up front with `BEGIN IMMEDIATE`). A table group whose statements differ (PostGIS,
//! text search, row locks) keeps its module in each backend.

use domain::reports::Direction;
pub(super) use service_kit::codec::{DbInstant, DbUuid};

/// A list's direction in SQL.
pub(in crate::store) fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Asc => "ASC",
        Direction::Desc => "DESC",
    }
}

/// [`service_kit::both_backends!`] for this service's stores (defined before the modules below,
/// which use it by its textual scope).
macro_rules! both_backends {
    ($($body:tt)*) => {
        service_kit::both_backends!(
            crate::store::postgres::PgStore,
            crate::store::sqlite::SqliteStore;
            $($body)*
        );
    };
}

mod admin;
mod categories;
mod deliveries;
mod detail;
mod digests;
mod duplicates;
mod issues;
pub(in crate::store) mod news;
mod news_categories;
mod notifications;
pub(in crate::store) mod outbox;
mod projects;
mod reading;
mod reports;
mod status_events;
pub(in crate::store) mod votes;
