//! The HTTP stack every service shares: routes for health, metrics and docs, the request
//! middleware ([`stack`]: request id, tracing span, metrics, time-out, panic catcher, error-body
//! normalisation and localisation), CORS, body limits, and serving with graceful shutdown.

pub mod cache;
pub mod links;
mod stack;

use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::header::HeaderName;
use actix_web::middleware::Condition;
use actix_web::{web, App, HttpServer};
use domain::i18n::Message;
use i18n::Locale;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use utoipa::openapi::OpenApi;

use crate::auth::Authenticator;
use crate::error::ApiError;
use crate::extract::{self, BodyLimit};
use crate::health::{healthz, Readiness};
use crate::metrics::{self, Metrics};
use crate::schema::SchemaGate;
use crate::settings::HttpSettings;

pub use stack::{OwnErrorBody, REQUEST_ID};

/// A service's API routes, registered under the base path.
pub type ConfigureApi = Arc<dyn Fn(&mut web::ServiceConfig) + Send + Sync>;

/// Everything the shared stack needs from a service.
pub struct AppParts {
    /// The service name (`streets-api`), for messages.
    pub service: &'static str,
    /// Registers the API routes (relative to the base path) with their shared state.
    pub api: ConfigureApi,
    pub openapi: OpenApi,
    /// Also serve an OpenAPI 3.0.3 rendition of `openapi` at `<base>/docs/openapi-3.0.json`
    /// ([`crate::docs::oas30`]).
    pub openapi_3_0: bool,
    pub readiness: Readiness,
    pub metrics: Metrics,
    /// Answers API requests 503 while the database schema is behind this binary.
    pub schema: SchemaGate,
    /// The language of error texts when `Accept-Language` names none we have.
    pub default_locale: Locale,
    /// Verifies bearer tokens for the auth extractors ([`crate::auth::Auth`] and the others),
    /// before the handler's arguments are extracted ([`crate::auth::verify_first`]); `None`
    /// for a service without signed-in callers.
    pub authenticator: Option<Authenticator>,
    /// Registers routes at the root, after the ops routes, the docs and the API (whose paths
    /// they cannot shadow): citizen-api's web app; `None` for none.
    pub site: Option<ConfigureApi>,
}

impl AppParts {
    /// Parts with no readiness checks, fresh metrics, an open schema gate and English as the
    /// default language; set the fields to change them.
    pub fn new(service: &'static str, api: ConfigureApi, openapi: OpenApi) -> anyhow::Result<Self> {
        Ok(Self {
            service,
            api,
            openapi,
            openapi_3_0: false,
            readiness: Readiness::default(),
            metrics: Metrics::new(service)?,
            schema: SchemaGate::new(service),
            default_locale: Locale::En,
            authenticator: None,
            site: None,
        })
    }
}

/// What every worker's application is built from (shared by all workers).
struct Shared {
    parts: AppParts,
    http: HttpSettings,
    /// The OpenAPI 3.0 rendition, converted once (when `parts.openapi_3_0`).
    openapi_3_0: Option<web::Bytes>,
}

/// One worker's application: ops routes, docs, the API under the base path, the fallback, CORS
/// and the request stack (outermost).
fn app(
    shared: &Shared,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let Shared {
        parts,
        http,
        openapi_3_0,
    } = shared;
    let base = http.base_path.as_str();
    let readiness = parts.readiness.clone();
    let api = parts.api.clone();
    let site = parts.site.clone();
    let authenticator = parts.authenticator.clone();
    let stack = stack::Stack::new(stack::StackState {
        metrics: parts.metrics.clone(),
        timeout: Duration::from_secs(http.request_timeout_seconds),
        default_locale: parts.default_locale,
        base_path: http.base_path.clone(),
        schema: parts.schema.clone(),
        authenticator: parts.authenticator.clone(),
    });
    App::new()
        .app_data(BodyLimit(http.max_body_bytes))
        .app_data(extract::path_config())
        .route("/healthz", web::get().to(healthz))
        .route(
            "/readyz",
            web::get().to(move || {
                let readiness = readiness.clone();
                async move { readiness.respond().await }
            }),
        )
        .service(
            web::resource("/metrics")
                .app_data(web::Data::new(parts.metrics.clone()))
                .route(web::get().to(metrics::scrape)),
        )
        .configure(|cfg| {
            crate::docs::configure(cfg, parts.openapi.clone(), base, openapi_3_0.clone())
        })
        .configure(move |cfg| {
            if let Some(authenticator) = authenticator {
                cfg.app_data(authenticator);
            }
        })
        .service(web::scope(base).configure(move |cfg| api(cfg)))
        .configure(move |cfg| {
            if let Some(site) = site {
                site(cfg);
            }
        })
        .default_service(web::to(|| async {
            Err::<actix_web::HttpResponse, _>(ApiError::not_found(Message::new("route-not-found")))
        }))
        .wrap(Condition::new(
            !http.cors_allowed_origins.is_empty(),
            cors(&http.cors_allowed_origins),
        ))
        .wrap(stack)
}

fn cors(origins: &[String]) -> actix_cors::Cors {
    let mut cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST", "PUT", "PATCH", "DELETE"])
        .allow_any_header()
        .expose_headers([REQUEST_ID, HeaderName::from_static("etag")])
        .max_age(600);
    if origins.iter().any(|o| o == "*") {
        cors = cors.allow_any_origin().send_wildcard();
    } else {
        for origin in origins {
            cors = cors.allowed_origin(origin);
        }
    }
    cors
}

/// Binds `host:port` (port 0 picks a free one).
pub fn bind(http: &HttpSettings) -> std::io::Result<std::net::TcpListener> {
    std::net::TcpListener::bind((http.host.as_str(), http.port))
}

/// How long a connection closing after an answer may still send the rest of its request body
/// (read and discarded), like nginx's `lingering_timeout`.
const LINGER: std::time::Duration = std::time::Duration::from_secs(5);

/// Serves until `shutdown` resolves, then stops accepting and lets in-flight requests finish for
/// at most `http.shutdown_grace_seconds`.
pub async fn serve(
    listener: std::net::TcpListener,
    parts: AppParts,
    http: &HttpSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let workers = http.effective_workers();
    let grace = http.shutdown_grace_seconds;
    let openapi_3_0 = parts
        .openapi_3_0
        .then(|| crate::docs::openapi_3_0_json(&parts.openapi));
    let shared = Arc::new(Shared {
        parts,
        http: http.clone(),
        openapi_3_0,
    });
    let server = HttpServer::new(move || app(&shared))
        .workers(workers)
        .disable_signals()
        .shutdown_timeout(grace)
        // After an answer that leaves a request body unread (an upload refused at a limit), read
        // and discard for at most this long before closing, as nginx's lingering close does: a
        // client that writes its whole body before reading still gets the answer.
        .client_disconnect_timeout(LINGER)
        .listen(listener)?
        .run();
    let handle = server.handle();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!(grace_seconds = grace, "shutting down: no new connections");
        handle.stop(true).await;
    });
    server.await
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
