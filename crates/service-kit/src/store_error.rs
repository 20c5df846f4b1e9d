//! Typed storage errors (stand-in; the classification lands with the store work).

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    #[error("conflict")]
    Conflict { constraint: Option<String> },
    #[error("invalid")]
    Invalid { constraint: Option<String> },
    #[error("database unavailable")]
    Unavailable(#[source] anyhow::Error),
    #[error("storage failure")]
    Other(#[source] anyhow::Error),
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_) => Self::Unavailable(err.into()),
            sqlx::Error::RowNotFound => Self::NotFound,
            other => Self::Other(other.into()),
        }
    }
}

impl From<anyhow::Error> for StoreError {
    fn from(err: anyhow::Error) -> Self {
        match err.downcast::<sqlx::Error>() {
            Ok(sqlx) => sqlx.into(),
            Err(other) => Self::Other(other),
        }
    }
}
