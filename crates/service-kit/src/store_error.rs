//! The error type of the services' storage traits, classified by what a caller can do about it.
//!
//! A store method returns [`StoreResult`]. The HTTP layer maps the variants to answers
//! (`NotFound` → 404, `Conflict` → 409, `Invalid` → 422 or 409, `Unavailable` → 503, `Other` →
//! 500); background workers retry on [`StoreError::is_unavailable`].
//!
//! [`From<sqlx::Error>`](StoreError#impl-From<Error>-for-StoreError) classifies a database error:
//!
//! | sqlx error | PostgreSQL SQLSTATE | SQLite extended result code | variant |
//! |---|---|---|---|
//! | `RowNotFound` | | | `NotFound` |
//! | | `23505` unique, `23P01` exclusion | `2067` UNIQUE, `1555` PRIMARYKEY | `Conflict` |
//! | | `23503` foreign key, `23001` restrict, `23514` check, `23502` not null | `787` FOREIGNKEY, `275` CHECK, `1299` NOTNULL | `Invalid` |
//! | `PoolTimedOut`, `PoolClosed`, `Io`, `Tls`, `WorkerCrashed` | class `08` (connection exception), `57P01` admin shutdown, `57P02` crash shutdown, `57P03` cannot connect now, `53300` too many connections | primary code `5` BUSY, `6` LOCKED | `Unavailable` |
//! | anything else | | | `Other` |
//!
//! SQLite answers BUSY only after the pool's busy timeout (5 s) has passed while another
//! connection held the write lock (LOCKED: a lock inside one shared cache): the database is
//! there but cannot serve the request now, and the same request may succeed when retried, which
//! is what "unavailable" tells a client.
//!
//! The constraint name comes from PostgreSQL (`DatabaseError::constraint()`). SQLite reports no
//! constraint name to sqlx; there it is taken from the message: `table.column` (comma-separated
//! for several columns) for UNIQUE, PRIMARY KEY and NOT NULL, the constraint's name (or its
//! expression when unnamed) for CHECK, and none for FOREIGN KEY.

use sqlx::error::{DatabaseError, ErrorKind};
use sqlx::postgres::PgDatabaseError;
use sqlx::sqlite::SqliteError;
use std::fmt;

/// The result of a storage operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// Why a storage operation failed.
///
/// `Unavailable` and `Other` keep the underlying error (a [`sqlx::Error`] when the database
/// raised it, possibly under added context) as their [`source`](std::error::Error::source), so
/// an error chain walked by `anyhow` still reaches the `sqlx::Error`. The alternate form
/// (`{:#}`) prints the whole chain, like `anyhow` does.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row the operation needs does not exist (sqlx `RowNotFound`). Lookups that may find
    /// nothing return `Option` instead.
    NotFound,
    /// The change collides with stored data: a unique or primary-key violation, or an exclusion
    /// constraint. Retrying the same change fails again; a client should pick another key or
    /// re-read the data.
    Conflict {
        /// The violated constraint, when the database names it.
        constraint: Option<String>,
    },
    /// The change breaks a rule of the schema: a foreign key (the referenced row does not
    /// exist, or is still referenced), a check or a not-null constraint. Usually a validation
    /// gap: the request is wrong, not the database.
    Invalid {
        /// The violated constraint, when the database names it.
        constraint: Option<String>,
    },
    /// The database cannot serve the request right now (unreachable, restarting, no pooled
    /// connection within the acquire timeout, locked beyond the busy timeout). The same request
    /// may succeed later.
    Unavailable(#[source] anyhow::Error),
    /// Anything else: a bug, a corrupt stored value, an unexpected database error.
    Other(#[source] anyhow::Error),
}

impl StoreError {
    /// A failure that is not a database error, e.g. a stored column that does not decode.
    pub fn other(cause: impl Into<anyhow::Error>) -> Self {
        Self::Other(cause.into())
    }

    /// A store error carried through an `anyhow::Error` (e.g. by `read_model`) back out as
    /// itself, so an unreachable database still answers 503; anything else is `Other`.
    pub fn from_anyhow(err: anyhow::Error) -> Self {
        err.downcast::<Self>().unwrap_or_else(Self::Other)
    }

    /// `true` when the database is not there right now and a retry may succeed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Self::Unavailable(_))
    }

    /// The violated constraint of a `Conflict` or `Invalid`, when known.
    pub fn constraint(&self) -> Option<&str> {
        match self {
            Self::Conflict { constraint } | Self::Invalid { constraint } => constraint.as_deref(),
            _ => None,
        }
    }

    /// The `sqlx::Error` behind an `Unavailable` or `Other`, if a database error caused it.
    pub fn sqlx_error(&self) -> Option<&sqlx::Error> {
        match self {
            Self::Unavailable(cause) | Self::Other(cause) => {
                cause.chain().find_map(|e| e.downcast_ref::<sqlx::Error>())
            }
            _ => None,
        }
    }

    /// Adds context to the cause of an `Unavailable` or `Other` (the other variants carry no
    /// cause and are returned as they are).
    pub fn context<C>(self, context: C) -> Self
    where
        C: fmt::Display + Send + Sync + 'static,
    {
        match self {
            Self::Unavailable(cause) => Self::Unavailable(cause.context(context)),
            Self::Other(cause) => Self::Other(cause.context(context)),
            other => other,
        }
    }

    fn classified(class: Class, cause: anyhow::Error) -> Self {
        match class {
            Class::NotFound => Self::NotFound,
            Class::Conflict(constraint) => Self::Conflict { constraint },
            Class::Invalid(constraint) => Self::Invalid { constraint },
            Class::Unavailable => Self::Unavailable(cause),
            Class::Other => Self::Other(cause),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound => f.write_str("the stored row does not exist")?,
            Self::Conflict { constraint } => {
                f.write_str("the change conflicts with stored data")?;
                write_constraint(f, constraint.as_deref())?;
            }
            Self::Invalid { constraint } => {
                f.write_str("the change violates a constraint of the stored data")?;
                write_constraint(f, constraint.as_deref())?;
            }
            Self::Unavailable(_) => f.write_str("the database is unavailable")?,
            Self::Other(_) => f.write_str("storage failure")?,
        }
        if f.alternate() {
            let mut source = std::error::Error::source(self);
            while let Some(cause) = source {
                write!(f, ": {cause}")?;
                source = cause.source();
            }
        }
        Ok(())
    }
}

fn write_constraint(f: &mut fmt::Formatter<'_>, constraint: Option<&str>) -> fmt::Result {
    match constraint {
        Some(name) => write!(f, " ({name})"),
        None => Ok(()),
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        let class = classify(&err);
        Self::classified(class, err.into())
    }
}

/// Classifies by the first `sqlx::Error` in the chain (so `sqlx` results with `anyhow` context
/// keep their meaning); an error without one is `Other`.
impl From<anyhow::Error> for StoreError {
    fn from(err: anyhow::Error) -> Self {
        let class = err
            .chain()
            .find_map(|e| e.downcast_ref::<sqlx::Error>())
            .map_or(Class::Other, classify);
        Self::classified(class, err)
    }
}

/// What an error means, before it is moved into a [`StoreError`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Class {
    NotFound,
    Conflict(Option<String>),
    Invalid(Option<String>),
    Unavailable,
    Other,
}

fn classify(err: &sqlx::Error) -> Class {
    match err {
        sqlx::Error::RowNotFound => Class::NotFound,
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => Class::Unavailable,
        sqlx::Error::Database(db) => classify_database(db.as_ref()),
        _ => Class::Other,
    }
}

fn classify_database(db: &dyn DatabaseError) -> Class {
    if let Some(pg) = db.try_downcast_ref::<PgDatabaseError>() {
        return classify_sqlstate(pg.code(), pg.constraint().map(str::to_owned));
    }
    if let Some(sqlite) = db.try_downcast_ref::<SqliteError>() {
        let code = sqlite.code().and_then(|c| c.parse::<i32>().ok());
        return code.map_or(Class::Other, |c| classify_sqlite(c, sqlite.message()));
    }
    // Another driver: its generic kind is all there is.
    let constraint = db.constraint().map(str::to_owned);
    match db.kind() {
        ErrorKind::UniqueViolation => Class::Conflict(constraint),
        ErrorKind::ForeignKeyViolation
        | ErrorKind::NotNullViolation
        | ErrorKind::CheckViolation => Class::Invalid(constraint),
        _ => Class::Other,
    }
}

/// PostgreSQL: by SQLSTATE (<https://www.postgresql.org/docs/current/errcodes-appendix.html>).
fn classify_sqlstate(code: &str, constraint: Option<String>) -> Class {
    match code {
        "23505" | "23P01" => Class::Conflict(constraint),
        "23503" | "23001" | "23514" | "23502" => Class::Invalid(constraint),
        "57P01" | "57P02" | "57P03" | "53300" => Class::Unavailable,
        _ if code.starts_with("08") => Class::Unavailable,
        _ => Class::Other,
    }
}

const SQLITE_BUSY: i32 = 5;
const SQLITE_LOCKED: i32 = 6;
const SQLITE_CONSTRAINT_CHECK: i32 = 275;
const SQLITE_CONSTRAINT_FOREIGNKEY: i32 = 787;
const SQLITE_CONSTRAINT_NOTNULL: i32 = 1299;
const SQLITE_CONSTRAINT_PRIMARYKEY: i32 = 1555;
const SQLITE_CONSTRAINT_UNIQUE: i32 = 2067;

/// SQLite: by extended result code (<https://www.sqlite.org/rescode.html>).
fn classify_sqlite(code: i32, message: &str) -> Class {
    match code {
        SQLITE_CONSTRAINT_UNIQUE | SQLITE_CONSTRAINT_PRIMARYKEY => {
            Class::Conflict(sqlite_constraint(message))
        }
        SQLITE_CONSTRAINT_FOREIGNKEY | SQLITE_CONSTRAINT_CHECK | SQLITE_CONSTRAINT_NOTNULL => {
            Class::Invalid(sqlite_constraint(message))
        }
        // The primary code is the low byte: BUSY_RECOVERY, BUSY_SNAPSHOT, BUSY_TIMEOUT, …
        _ if matches!(code & 0xff, SQLITE_BUSY | SQLITE_LOCKED) => Class::Unavailable,
        _ => Class::Other,
    }
}

/// What SQLite names after "… constraint failed: " (absent for foreign keys).
fn sqlite_constraint(message: &str) -> Option<String> {
    let (_, name) = message.split_once("constraint failed: ")?;
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

#[cfg(test)]
mod tests;
