//! Start-up in the shape every service shares (see `service_kit::startup`): settings, pool,
//! migrate, readiness, app, bind, run. The library owns it so tests run the real application on
//! port 0.

use service_kit::db::Migrations;
use service_kit::http::links::PublicBase;
use service_kit::http::AppParts;
use service_kit::metrics::Metrics;
use service_kit::startup::{self, BuildOptions, HttpApp, ServiceApp};
use std::future::Future;
use std::sync::Arc;

use crate::routes;
use crate::settings::{Settings, SPEC};
use crate::store::{self, StreetStore};

/// A built, bound, not yet serving streets-api.
pub struct Application {
    http: HttpApp,
    store: Arc<dyn StreetStore>,
    model: Arc<store::ReadModelStreets>,
}

impl ServiceApp for Application {
    type Settings = Settings;

    fn migrations() -> Migrations<'static> {
        store::migrations()
    }

    /// Pool and migrations, the demo data when configured and empty, readiness, the app, and
    /// the bound listener. streets-api reads no clock: the options change nothing.
    async fn build_with(settings: &Settings, _: BuildOptions) -> anyhow::Result<Self> {
        let (db, schema) =
            startup::open_database(&settings.database, store::migrations(), SPEC.name).await?;
        let model = Arc::new(store::ReadModelStreets::new(
            store::for_database(&db),
            settings.cache.clone(),
        ));
        let store: Arc<dyn StreetStore> = model.clone();
        if settings.demo.load_when_empty && !schema.is_behind() {
            if let Some(summary) = crate::demo::load_when_empty(store.as_ref()).await? {
                tracing::info!(
                    streets = summary.total,
                    "database was empty: loaded the demo streets"
                );
            }
        }
        // The first model is built in the background; until then reads go to the database and
        // /readyz says `not ready: streets` (store::read_model).
        if !schema.is_behind() {
            model.start();
        }
        let mut readiness = startup::readiness(&db, store::migrations(), &schema);
        if let Some(check) = model.readiness() {
            readiness = readiness.with(check);
        }
        let metrics = Metrics::new(SPEC.name)?;
        metrics.watch_pool(db.clone());
        model.watch(&metrics)?;
        // Bound before the routes are made: without `http.public_url` the links name the
        // listener's address (service_kit::http::links).
        let listener = service_kit::http::bind(&settings.http)?;
        let public = PublicBase::new(&settings.http, listener.local_addr()?);
        let cache = routes::http_cache(&settings.http_cache, &settings.http.base_path, &public);
        let parts = AppParts {
            service: SPEC.name,
            api: routes::configure(
                store.clone(),
                Arc::new(crate::ogc::FeaturesConfig {
                    settings: settings.features,
                    public,
                }),
                cache,
            ),
            openapi: routes::openapi(&settings.http.base_path),
            // The features API claims the OpenAPI 3.0 class (`ogc`): its service-desc.
            openapi_3_0: true,
            readiness,
            metrics,
            schema,
            default_locale: settings.i18n.locale().map_err(anyhow::Error::msg)?,
            // The streets are public: no signed-in callers.
            authenticator: None,
            site: None,
        };
        let http = HttpApp::listening(listener, parts, &settings.http).closing(db);
        Ok(Self { http, store, model })
    }

    /// Serves until `shutdown` resolves, then drains within the grace period and closes the pool.
    async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        Ok(self.http.run_until(shutdown).await?)
    }
}

impl Application {
    /// The bound port (useful with port 0).
    pub fn port(&self) -> u16 {
        self.http.port()
    }

    /// The street store (for tests and the import command).
    pub fn store(&self) -> Arc<dyn StreetStore> {
        self.store.clone()
    }

    /// The replica's read model (for tests: its generation, an awaited build).
    pub fn read_model(&self) -> Arc<store::ReadModelStreets> {
        self.model.clone()
    }
}
