//! Table groups whose statements are the same on both backends, written once.
//!
//! A statement here is SQL that PostgreSQL and SQLite both run as written: `$n` placeholders
//! (sqlx reads them as positions on SQLite too), ids bound as [`DbUuid`] and instants as
//! [`DbInstant`] (their stored forms differ: `service_kit::codec`), rows read into
//! `#[derive(sqlx::FromRow)]` records. [`service_kit::both_backends!`] compiles one body for
//! each backend: inside it `Backend` is [`PgStore`](super::backends::PgStore) or
//! [`SqliteStore`](super::backends::SqliteStore) and `Db` its sqlx database, and what really
//! differs between the dialects is an item of the contract [`Dialect`] (`begin_write`: SQLite
//! takes its write lock up front with `BEGIN IMMEDIATE`), which each backend implements in its
//! `dialect.rs`. A read whose statements differ (PostGIS, the R*Trees) is a method of the
//! contract, written in a module of each backend.

use domain::reports::{Direction, OrderBy};
pub(super) use service_kit::codec::{DbInstant, DbUuid};

mod dialect;
pub(in crate::store) use dialect::{Dialect, DialectTx};

/// A list's direction in SQL.
pub(in crate::store) fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Asc => "ASC",
        Direction::Desc => "DESC",
    }
}

/// ` ORDER BY` of a report list not ordered by distance: by the votes (equal counts: the filing
/// time, then the id) or by the filing time (then the id), all in the list's direction; `alias`
/// is the table whose `votes_count` orders (a report or its issue, migration 0034), `date` the
/// filing-time column, `id` the row's id column. Each order has its index.
pub(in crate::store) fn order_by(
    by: OrderBy,
    d: Direction,
    alias: &str,
    date: &str,
    id: &str,
) -> String {
    let dir = direction(d);
    match by {
        OrderBy::Votes => format!(" ORDER BY {alias}.votes_count {dir}, {date} {dir}, {id} {dir}"),
        _ => format!(" ORDER BY {date} {dir}, {id} {dir}"),
    }
}

/// A writing transaction of either backend, which every `…Tx` of the store traits is
/// implemented on (`begin_write`, or `begin_category_write`, starts it).
pub(in crate::store) struct Writing<DB: sqlx::Database>(pub sqlx::Transaction<'static, DB>);

#[async_trait::async_trait]
impl<DB: sqlx::Database> super::WriteTx for Writing<DB> {
    async fn commit(self: Box<Self>) -> super::StoreResult<()> {
        self.0.commit().await?;
        Ok(())
    }
}

/// [`service_kit::both_backends!`] for this service's stores (defined before the modules below,
/// which use it by its textual scope).
macro_rules! both_backends {
    ($($body:tt)*) => {
        service_kit::both_backends!(
            crate::store::backends::PgStore,
            crate::store::backends::SqliteStore;
            #[allow(unused_imports)]
            use crate::store::sql::Dialect as _;
            $($body)*
        );
    };
}

mod admin;
mod batches;
mod categories;
mod deliveries;
mod detail;
mod digests;
mod duplicates;
mod idempotency;
mod issues;
pub(in crate::store) mod list_filter;
pub(in crate::store) mod news;
mod news_categories;
mod notifications;
mod open311;
pub(in crate::store) mod outbox;
mod privacy;
mod projects;
mod reply_templates;
mod reports;
mod stats;
mod status_counts;
mod status_events;
mod uploads;
pub(in crate::store) mod votes;
