//! Start-up: the library owns it so tests run the real application on port 0.

use service_kit::db::Database;
use service_kit::health::Readiness;
use service_kit::http::{self, AppParts};
use service_kit::metrics::Metrics;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use utoipa::OpenApi;

use crate::routes::{self, ApiDoc};
use crate::settings::Settings;
use crate::store::{self, StreetStore};

/// A built, bound, not yet serving streets-api.
pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    grace: Duration,
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
    /// Opens (and, for SQLite or when configured, migrates) the database, loads the demo data
    /// when configured and empty, builds the router and binds the listener.
    pub async fn build(settings: &Settings) -> anyhow::Result<Self> {
        let db = Database::connect(&settings.database, store::SCHEMA).await?;
        if matches!(db, Database::Sqlite(_)) || settings.database.migrate_on_start {
            db.migrate(&store::migrations()).await?;
        }
        let cached = Arc::new(store::CachedStreets::new(
            store::for_database(&db),
            settings.cache.clone(),
        ));
        let store: Arc<dyn StreetStore> = cached.clone();
        if settings.demo.load_when_empty {
            if let Some(summary) = crate::demo::load_when_empty(store.as_ref()).await? {
                tracing::info!(
                    streets = summary.total,
                    "database was empty: loaded the demo streets"
                );
            }
        }
        let metrics = Metrics::new("streets-api")?;
        metrics.watch_pool(db.clone());
        watch_cache(&metrics, cached)?;
        let openapi = service_kit::docs::finalize(
            ApiDoc::openapi(),
            &settings.http.base_path,
            routes::ERROR_CODES,
        );
        let parts = AppParts {
            api: routes::router(store.clone()),
            openapi,
            readiness: Readiness::default().with(Arc::new(db.clone())),
            metrics,
        };
        let router = http::build_router(parts, &settings.http);
        let listener = http::bind(&settings.http).await?;
        Ok(Self {
            listener,
            router,
            grace: Duration::from_secs(settings.http.shutdown_grace_seconds),
            db,
            store,
        })
    }

    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// The street store (for tests and the import command).
    pub fn store(&self) -> Arc<dyn StreetStore> {
        self.store.clone()
    }

    /// Serves until SIGTERM/Ctrl-C, then drains within the grace period.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.run_with_shutdown(http::shutdown_signal()).await
    }

    /// Serves until `shutdown` resolves, then drains within the grace period.
    pub async fn run_with_shutdown(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        tracing::info!(port = self.port(), "streets-api listening");
        let result = http::serve(self.listener, self.router, self.grace, shutdown).await;
        self.db.close().await;
        result
    }
}
