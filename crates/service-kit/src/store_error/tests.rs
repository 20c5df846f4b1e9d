//! Classification of `sqlx` errors that can be built without a database; the integration test
//! `tests/store_error.rs` provokes the real ones in PostgreSQL and SQLite.

use super::*;
use std::borrow::Cow;
use std::error::Error as _;

fn class(err: sqlx::Error) -> Class {
    classify(&err)
}

#[test]
fn connection_failures_are_unavailable() {
    let io = || std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
    for err in [
        sqlx::Error::PoolTimedOut,
        sqlx::Error::PoolClosed,
        sqlx::Error::Io(io()),
        sqlx::Error::Tls("handshake".into()),
        sqlx::Error::WorkerCrashed,
    ] {
        let store = StoreError::from(err);
        assert!(store.is_unavailable(), "{store:?}");
    }
}

#[test]
fn row_not_found_and_the_rest() {
    assert!(matches!(
        StoreError::from(sqlx::Error::RowNotFound),
        StoreError::NotFound
    ));
    assert_eq!(class(sqlx::Error::ColumnNotFound("x".into())), Class::Other);
    assert_eq!(class(sqlx::Error::Protocol("odd".into())), Class::Other);
}

#[test]
fn sqlstates() {
    let c = || Some("c".to_string());
    assert_eq!(classify_sqlstate("23505", c()), Class::Conflict(c()));
    assert_eq!(classify_sqlstate("23P01", c()), Class::Conflict(c()));
    for code in ["23503", "23001", "23514", "23502"] {
        assert_eq!(classify_sqlstate(code, c()), Class::Invalid(c()), "{code}");
    }
    for code in [
        "08000", "08003", "08006", "08001", "08P01", "57P01", "57P02", "57P03", "53300",
    ] {
        assert_eq!(classify_sqlstate(code, None), Class::Unavailable, "{code}");
    }
    for code in ["42P01", "22P02", "40001", "57014", "XX000"] {
        assert_eq!(classify_sqlstate(code, None), Class::Other, "{code}");
    }
}

#[test]
fn sqlite_result_codes() {
    let unique = "UNIQUE constraint failed: streets.number";
    assert_eq!(
        classify_sqlite(2067, unique),
        Class::Conflict(Some("streets.number".into()))
    );
    assert_eq!(
        classify_sqlite(1555, "UNIQUE constraint failed: t.a, t.b"),
        Class::Conflict(Some("t.a, t.b".into()))
    );
    assert_eq!(
        classify_sqlite(787, "FOREIGN KEY constraint failed"),
        Class::Invalid(None)
    );
    assert_eq!(
        classify_sqlite(275, "CHECK constraint failed: positive_number"),
        Class::Invalid(Some("positive_number".into()))
    );
    assert_eq!(
        classify_sqlite(1299, "NOT NULL constraint failed: t.name"),
        Class::Invalid(Some("t.name".into()))
    );
    // BUSY, BUSY_RECOVERY, BUSY_SNAPSHOT, BUSY_TIMEOUT, LOCKED, LOCKED_SHAREDCACHE
    for code in [5, 261, 517, 773, 6, 262] {
        assert_eq!(
            classify_sqlite(code, "database is locked"),
            Class::Unavailable
        );
    }
    // SQLITE_CONSTRAINT (generic), SQLITE_ERROR, SQLITE_CORRUPT, SQLITE_FULL
    for code in [19, 1, 11, 13] {
        assert_eq!(classify_sqlite(code, "x"), Class::Other, "{code}");
    }
}

/// A database error of a driver the classifier does not know.
#[derive(Debug)]
struct Foreign(ErrorKind);

impl fmt::Display for Foreign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("foreign driver error")
    }
}

impl std::error::Error for Foreign {}

impl DatabaseError for Foreign {
    fn message(&self) -> &str {
        "foreign driver error"
    }
    fn code(&self) -> Option<Cow<'_, str>> {
        None
    }
    fn constraint(&self) -> Option<&str> {
        Some("fk_x")
    }
    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }
    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }
    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }
    fn kind(&self) -> ErrorKind {
        match &self.0 {
            ErrorKind::UniqueViolation => ErrorKind::UniqueViolation,
            ErrorKind::ForeignKeyViolation => ErrorKind::ForeignKeyViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[test]
fn other_drivers_by_generic_kind() {
    let db = |kind| sqlx::Error::Database(Box::new(Foreign(kind)));
    let conflict = StoreError::from(db(ErrorKind::UniqueViolation));
    assert!(
        matches!(&conflict, StoreError::Conflict { .. }),
        "{conflict:?}"
    );
    assert_eq!(conflict.constraint(), Some("fk_x"));
    let invalid = StoreError::from(db(ErrorKind::ForeignKeyViolation));
    assert!(
        matches!(&invalid, StoreError::Invalid { .. }),
        "{invalid:?}"
    );
    let other = StoreError::from(db(ErrorKind::Other));
    assert!(matches!(&other, StoreError::Other(_)), "{other:?}");
    assert!(other.sqlx_error().is_some());
}

#[test]
fn anyhow_context_keeps_the_classification_and_the_sqlx_error_in_the_chain() {
    let with_context = anyhow::Error::from(sqlx::Error::PoolTimedOut).context("reading streets");
    let store = StoreError::from(with_context);
    assert!(store.is_unavailable());
    assert!(matches!(
        store.sqlx_error(),
        Some(sqlx::Error::PoolTimedOut)
    ));
    assert_eq!(
        format!("{store:#}"),
        "the database is unavailable: reading streets: \
         pool timed out while waiting for an open connection"
    );
    assert_eq!(store.to_string(), "the database is unavailable");
    // What an HTTP layer sees when it walks the chain of an anyhow error made from it.
    let outer = anyhow::Error::from(store);
    assert!(outer.chain().any(|e| matches!(
        e.downcast_ref::<sqlx::Error>(),
        Some(sqlx::Error::PoolTimedOut)
    )));
}

#[test]
fn non_database_failures_are_other() {
    let json = serde_json::from_str::<Vec<String>>("{").map_err(anyhow::Error::from);
    let store = StoreError::from(json.unwrap_err());
    assert!(matches!(store, StoreError::Other(_)));
    assert!(store.source().is_some());
    assert!(store.sqlx_error().is_none());
    let store = StoreError::other(anyhow::anyhow!("corrupt")).context("decoding a street");
    assert_eq!(
        format!("{store:#}"),
        "storage failure: decoding a street: corrupt"
    );
}

#[test]
fn display_names_the_constraint() {
    let conflict = StoreError::Conflict {
        constraint: Some("streets_number_key".into()),
    };
    assert_eq!(
        conflict.to_string(),
        "the change conflicts with stored data (streets_number_key)"
    );
    let invalid = StoreError::Invalid { constraint: None }.context("ignored");
    assert_eq!(
        format!("{invalid:#}"),
        "the change violates a constraint of the stored data"
    );
    assert!(!invalid.is_unavailable());
}
