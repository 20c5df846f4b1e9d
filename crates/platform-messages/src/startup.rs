//! Start-up in the shape every service shares (see `service_kit::startup`): settings, pool,
//! migrate, readiness, app, bind, run. Besides the HTTP side this service starts the MQTT
//! publisher (and the embedded broker when configured) and the window scheduler. The library owns
//! it so tests run the real application on port 0.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use service_kit::auth::Authenticator;
use service_kit::db::{Database, Migrations};
use service_kit::http::AppParts;
use service_kit::metrics::Metrics;
pub use service_kit::startup::BuildOptions;
use service_kit::startup::{self, HttpApp, ServiceApp};

use crate::clock::Clock;
use crate::notify::{self, EmbeddedBroker, Notifier};
use crate::routes::{self, AppState};
use crate::scheduler::Scheduler;
use crate::settings::{Settings, SPEC};
use crate::store::{self, ClientCache};

/// How long start-up waits for the embedded broker to accept the service's connection.
const EMBEDDED_BROKER_START: Duration = Duration::from_secs(10);

/// A built, bound, not yet serving platform-messages.
pub struct Application {
    http: HttpApp,
    db: Database,
    notifier: Notifier,
    scheduler: Arc<Scheduler>,
    scheduler_loop: bool,
    embedded_broker: Option<EmbeddedBroker>,
}

/// Starts the embedded broker when configured, then the publisher; waits for the publisher's
/// connection to the embedded broker.
async fn start_notifier(
    settings: &Settings,
    store: Arc<dyn store::MessageStore>,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<(Notifier, Option<EmbeddedBroker>)> {
    let embedded_broker = if settings.mqtt.embedded_broker {
        Some(EmbeddedBroker::from_settings(&settings.mqtt)?)
    } else {
        None
    };
    let notifier = Notifier::start(&settings.mqtt, store, clock)?;
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
    Ok((notifier, embedded_broker))
}

/// `platform_messages_cache_lookups_total{result="hit"|"checked"|"miss"}` and
/// `platform_messages_cache_clients`, brought up to date at every scrape.
fn watch_cache(metrics: &Metrics, cache: Arc<ClientCache>) -> anyhow::Result<()> {
    let lookups = metrics.counter_vec(
        "platform_messages_cache_lookups_total",
        "Client state reads of the read endpoints: hit (from memory), checked (from memory \
         after a revision check), miss (loaded from the database)",
        "result",
    )?;
    let clients = metrics.gauge(
        "platform_messages_cache_clients",
        "Clients whose messages the read cache holds",
    )?;
    metrics.add_collector(move |_| {
        let stats = cache.stats();
        for (label, total) in [
            ("hit", stats.hits),
            ("checked", stats.checked),
            ("miss", stats.misses),
        ] {
            let counter = lookups.with_label_values(&[label]);
            counter.inc_by(total.saturating_sub(counter.get()));
        }
        clients.set(i64::try_from(stats.clients).unwrap_or(i64::MAX));
    });
    Ok(())
}

/// The service metrics plus the publisher's and the read cache's.
fn metrics(db: &Database, cache: Arc<ClientCache>) -> anyhow::Result<Metrics> {
    let metrics = Metrics::new(SPEC.name)?;
    metrics.watch_pool(db.clone());
    watch_cache(&metrics, cache)?;
    if let Some(m) = notify::metrics() {
        // One process may build several applications (tests): register once per registry.
        let _ = metrics.registry().register(Box::new(m.connected.clone()));
        let _ = metrics.registry().register(Box::new(m.publishes.clone()));
    }
    Ok(metrics)
}

impl ServiceApp for Application {
    type Settings = Settings;

    fn migrations() -> Migrations<'static> {
        store::migrations()
    }

    /// Pool and migrations, the MQTT publisher, readiness, the app, and the bound listener, with
    /// the options tests and benchmarks set. With `options.clock`, the scheduler's
    /// sleeping loop is not started: the caller drives [`Scheduler::run_due`] itself.
    async fn build_with(settings: &Settings, options: BuildOptions) -> anyhow::Result<Self> {
        let (db, schema) =
            startup::open_database(&settings.database, store::migrations(), SPEC.name).await?;
        let store = store::for_database(&db);
        let scheduler_loop = options.clock.is_none();
        let clock: Arc<dyn Clock> = options.clock_or_system();
        let (notifier, embedded_broker) =
            start_notifier(settings, store.clone(), clock.clone()).await?;
        let scheduler = Arc::new(Scheduler::new(
            store.clone(),
            notifier.clone(),
            clock.clone(),
        ));

        let readiness =
            startup::readiness(&db, store::migrations(), &schema).with(Arc::new(notifier.clone()));
        let cache = Arc::new(ClientCache::new(store.clone(), &settings.cache));
        let state = AppState {
            store,
            cache: cache.clone(),
            clock,
            notifier: notifier.clone(),
            scheduler: scheduler.clone(),
        };
        let parts = AppParts {
            service: SPEC.name,
            api: routes::configure(state),
            openapi: routes::openapi(&settings.http.base_path),
            openapi_3_0: false,
            readiness,
            metrics: metrics(&db, cache)?,
            schema,
            default_locale: settings.i18n.locale().map_err(anyhow::Error::msg)?,
            authenticator: Some(Authenticator::new(&settings.auth)?),
            site: None,
        };
        let http = HttpApp::bind(parts, &settings.http)?;
        Ok(Self {
            http,
            db,
            notifier,
            scheduler,
            scheduler_loop,
            embedded_broker,
        })
    }

    /// Serves until `shutdown` resolves, then drains within the grace period and closes the
    /// broker connection and the pool.
    async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let scheduler = self
            .scheduler_loop
            .then(|| tokio::spawn(self.scheduler.clone().run()));
        let served = self.http.run_until(shutdown).await;
        if let Some(task) = scheduler {
            task.abort();
        }
        self.notifier.shutdown().await;
        self.db.close().await;
        Ok(served?)
    }
}

impl Application {
    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.http.port()
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
}
