//! platform-messages: operator announcements per client application, read over REST and
//! announced over MQTT (`system/messages/<client_id>`, retained `{client_id, version}`).
//!
//! The library owns start-up: [`Application::build`] opens the database, migrates it (SQLite
//! always, PostgreSQL when configured), starts the MQTT publisher (and the embedded broker when
//! configured) and binds the HTTP listener, so tests use port 0. `main.rs` only parses the command
//! line. See docs/platform-messages.md.

pub mod api;
pub mod clock;
pub mod notify;
pub mod scheduler;
pub mod store;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use service_kit::auth::{AuthSettings, Authenticator};
use service_kit::db::{Backend, Database, DatabaseSettings, Migrations};
use service_kit::health::Readiness;
use service_kit::http::{self, AppParts};
use service_kit::metrics::Metrics;
use service_kit::settings::{HttpSettings, ServiceSpec, TelemetrySettings};
use tokio::net::TcpListener;

use crate::api::AppState;
use crate::clock::{Clock, SystemClock};
use crate::notify::{EmbeddedBroker, MqttSettings, Notifier};
use crate::scheduler::Scheduler;

/// Name, environment prefix and defaults of this service's settings.
pub const SPEC: ServiceSpec = ServiceSpec {
    name: "platform-messages",
    env_prefix: "PLATFORM_MESSAGES",
    defaults_toml: include_str!("../../../config/platform-messages.toml"),
    list_keys: &["http.cors_allowed_origins"],
};

/// PostgreSQL schema owned by this service.
pub const SCHEMA: &str = "platform_messages";

static PG_MIGRATIONS: sqlx::migrate::Migrator =
    sqlx::migrate!("../../migrations/platform-messages/postgres");
static SQLITE_MIGRATIONS: sqlx::migrate::Migrator =
    sqlx::migrate!("../../migrations/platform-messages/sqlite");

/// The embedded migrations of both dialects.
pub fn migrations() -> Migrations<'static> {
    Migrations {
        schema: SCHEMA,
        postgres: &PG_MIGRATIONS,
        sqlite: &SQLITE_MIGRATIONS,
    }
}

/// All settings (see config/platform-messages.toml for the defaults and their meaning).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub http: HttpSettings,
    pub database: DatabaseSettings,
    #[serde(default)]
    pub auth: AuthSettings,
    pub telemetry: TelemetrySettings,
    pub mqtt: MqttSettings,
}

/// Loads the settings: defaults, then the optional file, then `PLATFORM_MESSAGES__…` variables.
pub fn load_settings(file: Option<&std::path::Path>) -> anyhow::Result<Settings> {
    let settings: Settings = service_kit::settings::load(&SPEC, file)?;
    settings.http.validate().map_err(anyhow::Error::msg)?;
    Ok(settings)
}

/// How long start-up waits for the embedded broker to accept the service's connection.
const EMBEDDED_BROKER_START: Duration = Duration::from_secs(10);

/// Options for tests and benchmarks.
#[derive(Default)]
pub struct BuildOptions {
    /// A clock to use instead of the system clock. With it, the scheduler's sleeping loop is not
    /// started: the caller drives [`Scheduler::run_due`] itself.
    pub clock: Option<Arc<dyn Clock>>,
}

/// A built, bound, not yet serving service.
pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    settings: Settings,
    db: Database,
    notifier: Notifier,
    scheduler: Arc<Scheduler>,
    scheduler_loop: bool,
    embedded_broker: Option<EmbeddedBroker>,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_with(settings, BuildOptions::default()).await
    }

    pub async fn build_with(settings: Settings, options: BuildOptions) -> anyhow::Result<Self> {
        let db = Database::connect(&settings.database, SCHEMA).await?;
        if db.backend() == Backend::Sqlite || settings.database.migrate_on_start {
            db.migrate(&migrations()).await?;
        }
        let store = store::for_database(&db);
        let scheduler_loop = options.clock.is_none();
        let clock: Arc<dyn Clock> = options.clock.unwrap_or_else(|| Arc::new(SystemClock));

        let embedded_broker = if settings.mqtt.embedded_broker {
            Some(EmbeddedBroker::start(&settings.mqtt.embedded_listen)?)
        } else {
            None
        };
        let notifier = Notifier::start(&settings.mqtt, store.clone(), clock.clone())?;
        if let Some(broker) = &embedded_broker {
            tokio::time::timeout(EMBEDDED_BROKER_START, notifier.wait_connected())
                .await
                .map_err(|_| {
                    anyhow::anyhow!(
                        "the embedded MQTT broker did not accept a connection on {}",
                        broker.listen
                    )
                })?;
            tracing::info!(listen = %broker.listen, "embedded MQTT broker running");
        }
        let scheduler = Arc::new(Scheduler::new(
            store.clone(),
            notifier.clone(),
            clock.clone(),
        ));

        let metrics = Metrics::new(SPEC.name)?;
        metrics.watch_pool(db.clone());
        if let Some(m) = notify::metrics() {
            // One process may build several applications (tests): register once per registry.
            let _ = metrics.registry().register(Box::new(m.connected.clone()));
            let _ = metrics.registry().register(Box::new(m.publishes.clone()));
        }
        let readiness = Readiness::default()
            .with(Arc::new(db.clone()))
            .with(Arc::new(notifier.clone()));
        let state = AppState {
            store,
            clock,
            notifier: notifier.clone(),
            scheduler: scheduler.clone(),
            auth: Authenticator::new(&settings.auth)?,
        };
        let parts = AppParts {
            api: api::routes(state),
            openapi: api::openapi(&settings.http.base_path),
            readiness,
            metrics,
        };
        let router = http::build_router(parts, &settings.http);
        let listener = http::bind(&settings.http).await?;
        Ok(Self {
            listener,
            router,
            settings,
            db,
            notifier,
            scheduler,
            scheduler_loop,
            embedded_broker,
        })
    }

    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.listener
            .local_addr()
            .map(|a| a.port())
            .unwrap_or_default()
    }

    pub fn notifier(&self) -> Notifier {
        self.notifier.clone()
    }

    pub fn scheduler(&self) -> Arc<Scheduler> {
        self.scheduler.clone()
    }

    pub fn database(&self) -> Database {
        self.db.clone()
    }

    /// The embedded broker's address, when one was started.
    pub fn embedded_broker(&self) -> Option<std::net::SocketAddr> {
        self.embedded_broker.as_ref().map(|b| b.listen)
    }

    /// Serves until `shutdown` resolves, then closes the broker connection and the pool.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let scheduler = self
            .scheduler_loop
            .then(|| tokio::spawn(self.scheduler.clone().run()));
        let grace = Duration::from_secs(self.settings.http.shutdown_grace_seconds);
        let served = http::serve(self.listener, self.router, grace, shutdown).await;
        if let Some(task) = scheduler {
            task.abort();
        }
        self.notifier.shutdown().await;
        self.db.close().await;
        served.map_err(Into::into)
    }
}
