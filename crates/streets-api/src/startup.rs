//! Start-up in the shape every service shares (see `service_kit::startup`): settings, pool,
//! migrate, readiness, app, bind, run. The library owns it so tests run the real application on
//! port 0.

use service_kit::db::Database;
use service_kit::http::AppParts;
use service_kit::metrics::Metrics;
use service_kit::startup::{self, HttpApp};
use std::future::Future;
use std::sync::Arc;
use utoipa::OpenApi;

use crate::routes::{self, ApiDoc};
use crate::settings::{Settings, SPEC};
use crate::store::{self, StreetStore};

/// A built, bound, not yet serving streets-api.
pub struct Application {
    http: HttpApp,
    db: Database,
    store: Arc<dyn StreetStore>,
}

/// `streets_cache_lookups_total{result="hit"|"miss"}`, brought up to date at every scrape.
fn watch_cache(metrics: &Metrics, cache: Arc<store::CachedStreets>) -> anyhow::Result<()> {
    let lookups = prometheus::IntCounterVec::new(
        prometheus::Opts::new(
            "streets_cache_lookups_total",
            "Street lookups by id or number, by cache result",
        ),
        &["result"],
    )?;
    metrics.registry().register(Box::new(lookups.clone()))?;
    metrics.add_collector(move |_| {
        let stats = cache.stats();
        for (label, total) in [("hit", stats.hits), ("miss", stats.misses)] {
            let counter = lookups.with_label_values(&[label]);
            counter.inc_by(total.saturating_sub(counter.get()));
        }
    });
    Ok(())
}

impl Application {
    /// Pool and migrations, the demo data when configured and empty, readiness, the app, and
    /// the bound listener.
    pub async fn build(settings: &Settings) -> anyhow::Result<Self> {
        let (db, schema) =
            startup::open_database(&settings.database, store::migrations(), SPEC.name).await?;
        let cached = Arc::new(store::CachedStreets::new(
            store::for_database(&db),
            settings.cache.clone(),
        ));
        let store: Arc<dyn StreetStore> = cached.clone();
        if settings.demo.load_when_empty && !schema.is_behind() {
            if let Some(summary) = crate::demo::load_when_empty(store.as_ref()).await? {
                tracing::info!(
                    streets = summary.total,
                    "database was empty: loaded the demo streets"
                );
            }
        }
        let readiness = startup::readiness(&db, store::migrations(), &schema);
        let metrics = Metrics::new(SPEC.name)?;
        metrics.watch_pool(db.clone());
        watch_cache(&metrics, cached)?;
        let parts = AppParts {
            service: SPEC.name,
            api: routes::configure(store.clone()),
            openapi: service_kit::docs::finalize(
                ApiDoc::openapi(),
                &settings.http.base_path,
                routes::ERROR_CODES,
            ),
            readiness,
            metrics,
            schema,
            default_locale: settings.i18n.locale().map_err(anyhow::Error::msg)?,
        };
        let http = HttpApp::bind(parts, &settings.http)?;
        Ok(Self { http, db, store })
    }

    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.http.port()
    }

    /// The street store (for tests and the import command).
    pub fn store(&self) -> Arc<dyn StreetStore> {
        self.store.clone()
    }

    /// Serves until SIGTERM/Ctrl-C, then drains within the grace period.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(service_kit::http::shutdown_signal()).await
    }

    /// Serves until `shutdown` resolves, then drains within the grace period.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let result = self.http.run_until(shutdown).await;
        self.db.close().await;
        Ok(result?)
    }
}
