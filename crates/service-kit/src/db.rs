//! Database pools for both backends, chosen by the URL scheme, and embedded migrations.
//!
//! `postgres://…` → PostgreSQL, where every service works in its own schema (the pool's
//! `search_path` is `<schema>,public` so PostGIS types in `public` resolve); `sqlite://…` → a
//! SQLite file (created when missing, WAL journal, foreign keys on).

use anyhow::Context;
use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};
use std::str::FromStr;
use std::time::Duration;

use crate::health::ReadinessCheck;

/// `database.*` settings.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    /// `postgres://user:password@host/db` or `sqlite://path/to/file.db`. Put it in the environment
    /// when it holds a password. Held as a secret: never printed by `Debug` or logs.
    pub url: SecretString,
    /// Largest number of pooled connections.
    pub max_connections: u32,
    /// PostgreSQL only: apply migrations on start (SQLite always does).
    pub migrate_on_start: bool,
    /// How long to wait for a connection before a request fails with 503.
    pub acquire_timeout_seconds: u64,
}

/// Rows an SQLite connection's thread may hand over before it waits for the reader: more than a
/// list's page plus its overfetched row.
const ROW_BUFFER: usize = 256;

impl std::fmt::Debug for DatabaseSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DatabaseSettings")
            .field("url", &redact_url(self.url.expose_secret()))
            .field("max_connections", &self.max_connections)
            .field("migrate_on_start", &self.migrate_on_start)
            .field("acquire_timeout_seconds", &self.acquire_timeout_seconds)
            .finish()
    }
}

/// The URL with any password replaced, for logs.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme_end + 3],
                    &credentials[..colon],
                    &url[at..]
                ),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Which backend a URL selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

impl Backend {
    /// Picks the backend from the URL scheme.
    pub fn from_url(url: &str) -> anyhow::Result<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres)
        } else if url.starts_with("sqlite:") {
            Ok(Self::Sqlite)
        } else {
            anyhow::bail!(
                "database.url must start with postgres:// or sqlite://, got {}",
                redact_url(url)
            )
        }
    }
}

/// A connection pool of either backend.
#[derive(Debug, Clone)]
pub enum Database {
    Postgres(PgPool),
    Sqlite(SqlitePool),
}

/// The embedded migrations of one service, one set per dialect.
#[derive(Clone, Copy)]
pub struct Migrations<'a> {
    /// PostgreSQL schema owned by the service, e.g. `streets`.
    pub schema: &'a str,
    pub postgres: &'a Migrator,
    pub sqlite: &'a Migrator,
    /// PostgreSQL extensions the migrations use, which an administrator creates in `public`
    /// (docs/deployment.md); checked before migrating, so a missing one is named with the
    /// command that creates it instead of failing halfway through a migration.
    pub extensions: &'a [&'a str],
}

/// A service's [`Migrations`], both dialects embedded at build time (`sqlx::migrate!`) from the
/// folders named relative to the service's crate: the body of each store's `migrations()`.
///
/// ```ignore
/// service_kit::embedded_migrations! {
///     schema: SCHEMA,
///     postgres: "../../migrations/streets-api/postgres",
///     sqlite: "../../migrations/streets-api/sqlite",
///     extensions: &["postgis"],
/// }
/// ```
#[macro_export]
macro_rules! embedded_migrations {
    (
        schema: $schema:expr,
        postgres: $postgres:tt,
        sqlite: $sqlite:tt,
        extensions: $extensions:expr $(,)?
    ) => {{
        static POSTGRES: ::sqlx::migrate::Migrator = ::sqlx::migrate!($postgres);
        static SQLITE: ::sqlx::migrate::Migrator = ::sqlx::migrate!($sqlite);
        $crate::db::Migrations {
            schema: $schema,
            postgres: &POSTGRES,
            sqlite: &SQLITE,
            extensions: $extensions,
        }
    }};
}

/// A PostgreSQL connection idle for this long is pinged before it is handed out.
pub const IDLE_PING_AFTER: Duration = Duration::from_secs(30);

impl Database {
    /// Opens a pool for `settings.url`; does not migrate.
    pub async fn connect(settings: &DatabaseSettings, schema: &str) -> anyhow::Result<Self> {
        let acquire = Duration::from_secs(settings.acquire_timeout_seconds.max(1));
        let url = settings.url.expose_secret();
        match Backend::from_url(url)? {
            Backend::Postgres => {
                let options = PgConnectOptions::from_str(url)
                    .context("database.url is not a valid PostgreSQL URL")?
                    .options([("search_path", format!("{schema},public"))]);
                // sqlx pings every idle connection it hands out by default: a round trip to
                // the server (and a wake-up of its backend) before each statement. A
                // connection idle for less than IDLE_PING_AFTER was answering a moment ago; one
                // idle for longer may have been cut (a restart, a proxy's idle time-out) and is
                // pinged, and replaced if the ping fails, as before.
                let pool = PgPoolOptions::new()
                    .max_connections(settings.max_connections)
                    .acquire_timeout(acquire)
                    .test_before_acquire(false)
                    .before_acquire(|conn, meta| {
                        Box::pin(async move {
                            if meta.idle_for >= IDLE_PING_AFTER {
                                sqlx::Connection::ping(conn).await?;
                            }
                            Ok(true)
                        })
                    })
                    .connect_lazy_with(options);
                Ok(Self::Postgres(pool))
            }
            Backend::Sqlite => {
                let options = SqliteConnectOptions::from_str(url)
                    .context("database.url is not a valid SQLite URL")?
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Normal)
                    .foreign_keys(true)
                    .busy_timeout(Duration::from_secs(5))
                    // Reads map the file instead of copying pages through read(2), and every
                    // connection keeps a larger page cache: random lookups over a big file
                    // (100 000 streets) then stay as fast as over a small one. The map covers
                    // up to 64 GiB, the most the bundled SQLite is built to allow
                    // (SQLITE_MAX_MMAP_SIZE in .cargo/config.toml): with 256 MiB the
                    // nearest-first list over 1 000 000 reports (a 1.9 GB file) spent half the
                    // machine copying pages in pread(2). Only the file's size is mapped.
                    .pragma("mmap_size", "68719476736")
                    .pragma("cache_size", "-16384")
                    // A page of a list (101 rows) passes from the connection's thread to the
                    // request's task without the thread stopping half way: with sqlx's default
                    // of 50 it filled the channel, slept, and was woken again per page.
                    .row_buffer_size(ROW_BUFFER);
                if let Some(parent) = options.get_filename().parent() {
                    if !parent.as_os_str().is_empty() {
                        std::fs::create_dir_all(parent).with_context(|| {
                            format!(
                                "cannot create the folder {} for the SQLite database",
                                parent.display()
                            )
                        })?;
                    }
                }
                // No ping before each statement (sqlx's default): a SQLite connection is a file
                // in this process, and the ping a round trip to its worker thread.
                let pool = SqlitePoolOptions::new()
                    .max_connections(settings.max_connections)
                    .acquire_timeout(acquire)
                    .test_before_acquire(false)
                    .connect_with(options)
                    .await
                    .context("cannot open the SQLite database")?;
                Ok(Self::Sqlite(pool))
            }
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Self::Postgres(_) => Backend::Postgres,
            Self::Sqlite(_) => Backend::Sqlite,
        }
    }

    /// Applies the service's migrations. In PostgreSQL the schema is created first when missing
    /// (so sqlx's bookkeeping table lands in the service's own schema).
    pub async fn migrate(&self, migrations: &Migrations<'_>) -> anyhow::Result<()> {
        match self {
            Self::Postgres(pool) => {
                let exists: bool = sqlx::query_scalar(
                    "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
                )
                .bind(migrations.schema)
                .fetch_one(pool)
                .await
                .context("cannot reach PostgreSQL")?;
                check_extensions(pool, migrations.extensions).await?;
                if !exists {
                    let ident = migrations.schema.replace('"', "\"\"");
                    sqlx::query(&format!("CREATE SCHEMA \"{ident}\""))
                        .execute(pool)
                        .await
                        .with_context(|| format!("cannot create schema {}", migrations.schema))?;
                }
                migrations
                    .postgres
                    .run(pool)
                    .await
                    .context("PostgreSQL migrations failed")?;
            }
            Self::Sqlite(pool) => {
                migrations
                    .sqlite
                    .run(pool)
                    .await
                    .context("SQLite migrations failed")?;
            }
        }
        Ok(())
    }

    /// Connections in use and idle, for metrics.
    pub fn pool_usage(&self) -> (u32, u32) {
        let (size, idle) = match self {
            Self::Postgres(p) => (p.size(), p.num_idle()),
            Self::Sqlite(p) => (p.size(), p.num_idle()),
        };
        let idle = u32::try_from(idle).unwrap_or(u32::MAX);
        (size.saturating_sub(idle), idle)
    }

    pub async fn close(&self) {
        match self {
            Self::Postgres(p) => p.close().await,
            Self::Sqlite(p) => p.close().await,
        }
    }
}

/// Makes sure every extension in `needed` is installed in schema `public`: a superuser (a local
/// or test database) creates a missing one, as an administrator would; any other role gets an
/// error naming each missing one with the command a database owner runs (docs/deployment.md).
async fn check_extensions(pool: &PgPool, needed: &[&str]) -> anyhow::Result<()> {
    if needed.is_empty() {
        return Ok(());
    }
    let needed: Vec<String> = needed.iter().map(|e| (*e).to_owned()).collect();
    let rows: Vec<(String, Option<String>, bool, String, bool)> = sqlx::query_as(
        "SELECT wanted.name, n.nspname, a.name IS NOT NULL, current_database()::text, \
           (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) \
         FROM unnest($1::text[]) AS wanted(name) \
         LEFT JOIN pg_extension e ON e.extname = wanted.name \
         LEFT JOIN pg_namespace n ON n.oid = e.extnamespace \
         LEFT JOIN pg_available_extensions a ON a.name = wanted.name",
    )
    .bind(&needed)
    .fetch_all(pool)
    .await
    .context("cannot reach PostgreSQL")?;
    let mut problems = Vec::new();
    for (name, schema, available, database, superuser) in &rows {
        if schema.is_none() && *available && *superuser {
            let ident = name.replace('"', "\"\"");
            sqlx::query(&format!(
                "CREATE EXTENSION IF NOT EXISTS \"{ident}\" WITH SCHEMA public"
            ))
            .execute(pool)
            .await
            .with_context(|| format!("cannot create extension {name}"))?;
            tracing::info!(extension = %name, "created a missing PostgreSQL extension (superuser)");
            continue;
        }
        problems.extend(extension_problem(
            name,
            schema.as_deref(),
            *available,
            database,
        ));
    }
    anyhow::ensure!(
        problems.is_empty(),
        "the database is not ready for the migrations (docs/deployment.md, section 2): {}",
        problems.join("; ")
    );
    Ok(())
}

/// What is wrong with one needed extension, and what a database owner runs to fix it.
fn extension_problem(
    name: &str,
    schema: Option<&str>,
    available: bool,
    database: &str,
) -> Option<String> {
    match schema {
        Some("public") => None,
        Some(other) => Some(format!(
            "extension {name} is installed in schema {other}, the migrations need it in public: \
             a database owner runs `ALTER EXTENSION {name} SET SCHEMA public;` in database {database}"
        )),
        None if available => Some(format!(
            "extension {name} is missing: a database owner (superuser) runs \
             `CREATE EXTENSION IF NOT EXISTS {name} WITH SCHEMA public;` in database {database}"
        )),
        None => Some(format!(
            "extension {name} is missing and not installed on the server: install its package \
             (Debian: {}), then a database owner runs \
             `CREATE EXTENSION IF NOT EXISTS {name} WITH SCHEMA public;` in database {database}",
            if name == "postgis" {
                "postgresql-15-postgis-3"
            } else {
                "postgresql-contrib"
            }
        )),
    }
}

#[async_trait]
impl ReadinessCheck for Database {
    fn name(&self) -> &'static str {
        "database"
    }

    async fn check(&self) -> anyhow::Result<()> {
        match self {
            Self::Postgres(p) => sqlx::query("SELECT 1").execute(p).await.map(drop)?,
            Self::Sqlite(p) => sqlx::query("SELECT 1").execute(p).await.map(drop)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_by_scheme_and_redaction() {
        assert_eq!(
            Backend::from_url("postgres://u@h/db").unwrap(),
            Backend::Postgres
        );
        assert_eq!(
            Backend::from_url("sqlite://data/x.db").unwrap(),
            Backend::Sqlite
        );
        let err = Backend::from_url("mysql://u:secret@h/db")
            .unwrap_err()
            .to_string();
        assert!(!err.contains("secret"), "{err}");
        assert_eq!(
            redact_url("postgres://u:pw@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
    }
}
