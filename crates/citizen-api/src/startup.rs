//! Start-up in the shape every service shares (see `service_kit::startup`): settings, pool,
//! migrate, readiness, app, bind, run. The library owns it so tests run the real application on
//! port 0.

use std::future::Future;
use std::sync::Arc;

use service_kit::auth::Authenticator;
use service_kit::clock::Clock;
use service_kit::db::Migrations;
use service_kit::http::cache::HttpCache;
use service_kit::http::AppParts;
use service_kit::metrics::Metrics;
pub use service_kit::startup::BuildOptions;
use service_kit::startup::{self, HttpApp, ServiceApp};

use crate::captcha::CaptchaVerifier;
use crate::city::City;
use crate::media::MediaStore;
use crate::news_read_model::CachedNews;
use crate::rate_limit::RateLimiter;
use crate::routes::web_app::WebApp;
use crate::routes::{self, AppState};
use crate::settings::{Settings, SPEC};
use crate::store;
use crate::store::composition::Stores;

/// Largest text field of the filing form: a description of 2048 characters of up to 4 bytes
/// each, with room to spare (a longer one is refused by its character count, not cut here).
const FORM_TEXT_BYTES: u64 = 16 * 1024;

/// A built, bound, not yet serving citizen-api.
pub struct Application {
    http: HttpApp,
    stores: Stores,
}

impl ServiceApp for Application {
    type Settings = Settings;

    fn migrations() -> Migrations<'static> {
        store::migrations()
    }

    /// Pool and migrations, the city, the default category (and the demo data when
    /// configured), readiness, the app, and the bound listener, with the options tests and
    /// benchmarks set.
    async fn build_with(settings: &Settings, options: BuildOptions) -> anyhow::Result<Self> {
        let city = Arc::new(City::load(&settings.city)?);
        let (db, schema) =
            startup::open_database(&settings.database, store::migrations(), SPEC.name).await?;
        let mut stores = store::composition::for_database_with(
            &db,
            crate::store::StoreOptions {
                synchronous_vote_commit: settings.votes.synchronous_commit,
            },
        );
        let clock: Arc<dyn Clock> = options.clock_or_system();
        if !schema.is_behind() {
            let default = stores
                .categories
                .ensure_default_category(&settings.reports.default_category_name, clock.now())
                .await?;
            tracing::debug!(category = %default.name, "default report category");
            if settings.demo.load_when_empty {
                if let Some(count) = crate::demo::load_when_empty(&stores, clock.now()).await? {
                    tracing::info!(
                        reports = count,
                        "database was empty: loaded the demo reports"
                    );
                }
            }
        }
        let mut readiness = startup::readiness(&db, store::migrations(), &schema);
        let metrics = Metrics::new(SPEC.name)?;
        metrics.watch_pool(db.clone());
        // The news read model (news_read_model); its first build starts once the schema is current
        // (until then the schema gate answers every API request).
        if let Some(cached) = CachedNews::new(stores.news.clone(), &settings.news.cache) {
            if !schema.is_behind() {
                cached.model().start();
            }
            cached.model().watch(&metrics)?;
            readiness = readiness.with(cached.model().readiness());
            stores.news = cached;
        }
        let captcha = CaptchaVerifier::new(&settings.captcha)?;
        captcha.warn_if_disabled();
        crate::notify::worker::start(
            &settings.notifications.worker,
            stores.clone(),
            settings.i18n.locale().map_err(anyhow::Error::msg)?,
            notification_links(settings),
            clock.clone(),
        );
        crate::notify::deliver::start(
            &settings.notifications,
            stores.clone(),
            clock.clone(),
            settings.i18n.locale().map_err(anyhow::Error::msg)?,
        )?;
        crate::app::retention::start(
            stores.privacy.clone(),
            settings.privacy.clone(),
            clock.clone(),
        );
        crate::app::vote_expiry::start(
            stores.votes.clone(),
            settings.votes.expiry_sweep_seconds,
            clock.clone(),
        );
        crate::notify::status_events::start(
            &settings.status_events,
            &settings.mqtt,
            stores.clone(),
            clock.clone(),
        )?;
        let media = MediaStore::new(&settings.media)?;
        crate::app::pending_uploads::start(
            &stores,
            media.clone(),
            &settings.media,
            settings.reports.idempotency_ttl(),
            clock.clone(),
        );
        let state = AppState {
            stores: stores.clone(),
            city,
            media,
            form_limits: settings.media.multipart_limits(FORM_TEXT_BYTES),
            max_media_total: settings.media.max_total_bytes,
            captcha,
            rate_limiter: RateLimiter::new(&settings.rate_limit)?,
            trusted_proxy_hops: settings.rate_limit.trusted_proxy_hops,
            votes: settings.votes.clone(),
            vote_expiry: settings.votes.rule().map_err(anyhow::Error::msg)?,
            duplicates: settings.duplicates.rule(),
            clock,
            notifications: Arc::new(settings.notifications.clone()),
            vapid_public_key: crate::notify::push_send::vapid_public_key(
                &settings.notifications.webpush,
            )?,
            default_locale: settings.i18n.locale().map_err(anyhow::Error::msg)?,
            privacy: settings.privacy.clone(),
            base_path: settings.http.base_path.clone(),
            idempotency_ttl: settings.reports.idempotency_ttl(),
            open311: Arc::new(routes::open311::Open311::new(
                settings.open311.clone(),
                &settings.http,
            )?),
        };
        let parts = AppParts {
            service: SPEC.name,
            api: routes::configure(
                state,
                HttpCache::new(
                    &settings.http_cache,
                    &settings.http.base_path,
                    routes::PUBLIC_GETS,
                    routes::PRIVATE_PREFIXES,
                ),
            ),
            openapi: routes::openapi(&settings.http.base_path),
            openapi_3_0: false,
            readiness,
            metrics,
            schema,
            default_locale: settings.i18n.locale().map_err(anyhow::Error::msg)?,
            authenticator: Some(Authenticator::new(&settings.auth)?),
            site: if settings.web.enabled {
                Some(WebApp::new(settings)?.configure())
            } else {
                None
            },
        };
        let http = HttpApp::bind(parts, &settings.http)?.closing(db);
        Ok(Self { http, stores })
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

    /// The stores (tests set up state the API cannot create yet through them).
    pub fn stores(&self) -> Stores {
        self.stores.clone()
    }
}

/// Where feed entries lead: the web app's pages, when it is served and `http.public_url` says
/// where (docs/notifications.md).
pub fn notification_links(settings: &Settings) -> crate::app::notifications::Links {
    match crate::routes::web_app::site_url(&settings.http) {
        Some(site) if settings.web.enabled => crate::app::notifications::Links::to_site(site),
        _ => crate::app::notifications::Links::none(),
    }
}
