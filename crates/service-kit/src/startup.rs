//! The one start-up shape of every service:
//! 1. settings (each service's `Settings::load`, env last);
//! 2. pool ([`Database::connect`], backend by URL scheme);
//! 3. migrate when configured (SQLite always) — [`open_database`] does 2 and 3 and compares the
//!    schema with the binary ([`crate::schema`]);
//! 4. readiness checks ([`readiness`]: database and schema, plus the service's own);
//! 5. app ([`AppParts`]: routes, OpenAPI, metrics);
//! 6. bind ([`HttpApp::bind`], port 0 in tests);
//! 7. run until SIGTERM/Ctrl-C ([`HttpApp::run_until`] with [`crate::http::shutdown_signal`]).
//!
//! The binaries' command line (`serve`, `migrate` and each service's own commands) is [`main`]'s.

mod binary;

pub use binary::{main, Binary, ServiceApp};

use std::future::Future;
use std::sync::Arc;

use crate::clock::{Clock, SystemClock};
use crate::db::{Backend, Database, DatabaseSettings, Migrations};
use crate::health::Readiness;
use crate::http::{self, AppParts};
use crate::schema::{self, SchemaCheck, SchemaGate, SchemaStatus};
use crate::settings::HttpSettings;

/// What tests and benchmarks may change in a service's `Application::build_with`.
#[derive(Default)]
pub struct BuildOptions {
    /// A clock to use instead of the system clock.
    pub clock: Option<Arc<dyn Clock>>,
}

impl BuildOptions {
    /// The clock given, else the system clock.
    pub fn clock_or_system(&self) -> Arc<dyn Clock> {
        self.clock.clone().unwrap_or_else(|| Arc::new(SystemClock))
    }
}

/// Steps 2 and 3: opens the pool, migrates SQLite (always) and PostgreSQL (when
/// `database.migrate_on_start`), and compares the schema with the binary. A database migrated by
/// a newer version stops start-up; one that is behind gives a closed [`SchemaGate`].
pub async fn open_database(
    settings: &DatabaseSettings,
    migrations: Migrations<'static>,
    service: &'static str,
) -> anyhow::Result<(Database, SchemaGate)> {
    let db = Database::connect(settings, migrations.schema).await?;
    if db.backend() == Backend::Sqlite || settings.migrate_on_start {
        db.migrate(&migrations).await?;
    }
    let gate = SchemaGate::new(service);
    match schema::status(&db, &migrations).await {
        Ok(status @ SchemaStatus::Ahead { .. }) => {
            anyhow::bail!(status.problem(service).unwrap_or_default())
        }
        Ok(status) => gate.update(&status),
        Err(err) => tracing::warn!(
            error = format!("{err:#}"),
            "cannot compare the database schema now; /readyz will check again"
        ),
    }
    Ok((db, gate))
}

/// For commands other than `serve` (import, …): stops unless the schema is current.
pub async fn require_current_schema(
    db: &Database,
    migrations: &Migrations<'_>,
    service: &str,
) -> anyhow::Result<()> {
    let status = schema::status(db, migrations).await?;
    match status.problem(service) {
        None => Ok(()),
        Some(problem) => anyhow::bail!(problem),
    }
}

/// Step 4: the checks every service has (database reachable, schema current).
pub fn readiness(db: &Database, migrations: Migrations<'static>, gate: &SchemaGate) -> Readiness {
    Readiness::default()
        .with(Arc::new(db.clone()))
        .with(Arc::new(SchemaCheck {
            db: db.clone(),
            migrations,
            gate: gate.clone(),
        }))
}

/// Steps 6 and 7: a bound listener with the application it will serve (and the pool to close
/// once it has served, see [`HttpApp::closing`]).
pub struct HttpApp {
    listener: std::net::TcpListener,
    parts: AppParts,
    http: HttpSettings,
    pool: Option<Database>,
}

impl HttpApp {
    /// Binds `http.host:http.port` (port 0 picks a free one).
    pub fn bind(parts: AppParts, http: &HttpSettings) -> std::io::Result<Self> {
        Ok(Self::listening(http::bind(http)?, parts, http))
    }

    /// Serves on a listener bound before (with [`http::bind`]), for a service whose routes need
    /// its address (the links of [`http::links::PublicBase`]).
    pub fn listening(
        listener: std::net::TcpListener,
        parts: AppParts,
        http: &HttpSettings,
    ) -> Self {
        Self {
            listener,
            parts,
            http: http.clone(),
            pool: None,
        }
    }

    /// Closes `db` once served, after the grace period: the pool of a service that stops
    /// nothing else in between.
    pub fn closing(self, db: Database) -> Self {
        Self {
            pool: Some(db),
            ..self
        }
    }

    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map_or(0, |a| a.port())
    }

    /// Serves until `shutdown` resolves, then drains within the grace period (and closes the pool
    /// given to [`HttpApp::closing`]).
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        tracing::info!(
            service = self.parts.service,
            port = self.port(),
            "listening"
        );
        let served = http::serve(self.listener, self.parts, &self.http, shutdown).await;
        if let Some(db) = self.pool {
            db.close().await;
        }
        served
    }
}
