//! The HTTP stack every service shares: routes for health, metrics and docs, the middleware
//! (request id, tracing span, metrics, CORS, timeout, body limit, panic catcher), error-body
//! normalisation for the framework's own errors, and serving with graceful shutdown.

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header::{HeaderName, ALLOW, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use domain::error_code::ErrorCode;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use tracing::Span;
use utoipa::openapi::OpenApi;

use crate::error::{ApiError, ErrorName};
use crate::health::{healthz, Readiness};
use crate::metrics::{self, Metrics};
use crate::settings::HttpSettings;

/// Header carrying the request id (accepted from the client or created, and returned).
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Everything the shared stack needs from a service.
pub struct AppParts {
    /// The service's API routes, relative to the base path, with their state applied.
    pub api: Router,
    pub openapi: OpenApi,
    pub readiness: Readiness,
    pub metrics: Metrics,
}

/// Assembles the whole application router.
pub fn build_router(parts: AppParts, http: &HttpSettings) -> Router {
    let AppParts {
        api,
        openapi,
        readiness,
        metrics,
    } = parts;
    let base = http.base_path.as_str();
    let ops = Router::new()
        .route("/healthz", get(healthz))
        .route(
            "/readyz",
            get(move || async move { readiness.respond().await }),
        )
        .route("/metrics", get(metrics::scrape).with_state(metrics.clone()));

    Router::new()
        .nest(base, api)
        .merge(crate::docs::router(openapi, base))
        .merge(ops)
        .fallback(|| async { ApiError::not_found("no route matches this path") })
        .layer(middleware::from_fn(normalize_errors))
        .layer(DefaultBodyLimit::max(http.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(http.request_timeout_seconds),
        ))
        .layer(cors(&http.cors_allowed_origins))
        .layer(CatchPanicLayer::custom(|_| {
            tracing::error!("handler panicked");
            ApiError::new(
                ErrorCode::InternalError,
                "An unexpected error occurred; it has been logged.",
            )
            .into_response()
        }))
        .layer(middleware::from_fn_with_state(metrics, metrics::track))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_response(|response: &Response, latency: Duration, span: &Span| {
                    span.record("status", response.status().as_u16());
                    span.record("latency_ms", latency.as_secs_f64() * 1000.0);
                    tracing::info!(parent: span, "request finished");
                }),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

fn request_span(request: &Request) -> Span {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or("unmatched", |p| p.as_str());
    let request_id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    tracing::info_span!(
        "request",
        method = %request.method(),
        route,
        path = %request.uri().path(),
        request_id,
        status = tracing::field::Empty,
        latency_ms = tracing::field::Empty,
    )
}

fn cors(origins: &[String]) -> CorsLayer {
    if origins.is_empty() {
        return CorsLayer::new();
    }
    let layer = CorsLayer::new()
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ])
        .allow_headers(Any)
        .expose_headers([REQUEST_ID, HeaderName::from_static("etag")])
        .max_age(Duration::from_secs(600));
    if origins.iter().any(|o| o == "*") {
        layer.allow_origin(Any)
    } else {
        let list: Vec<HeaderValue> = origins
            .iter()
            .filter_map(|o| HeaderValue::from_str(o).ok())
            .collect();
        layer.allow_origin(AllowOrigin::list(list))
    }
}

/// Turns every error response that did not come from an [`ApiError`] (unknown route, wrong
/// method, the framework's own rejections, body limit, timeout) into the error body.
async fn normalize_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if status.as_u16() < 400 || response.extensions().get::<ErrorName>().is_some() {
        return response;
    }
    let allow = response.headers().get(ALLOW).cloned();
    let is_text = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    let text = if is_text {
        axum::body::to_bytes(response.into_body(), 1024)
            .await
            .ok()
            .and_then(|b| String::from_utf8(b.to_vec()).ok())
            .unwrap_or_default()
    } else {
        String::new()
    };
    let mut normalized = error_for_status(status, &text).into_response();
    if let Some(allow) = allow {
        normalized.headers_mut().insert(ALLOW, allow);
    }
    normalized
}

fn error_for_status(status: StatusCode, text: &str) -> ApiError {
    let code = match status.as_u16() {
        401 => ErrorCode::Unauthorized,
        403 => ErrorCode::Forbidden,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::RequestTimeout,
        409 => ErrorCode::Conflict,
        413 => ErrorCode::PayloadTooLarge,
        415 => ErrorCode::UnsupportedMediaType,
        429 => ErrorCode::TooManyRequests,
        400..=499 => ErrorCode::ValidationError,
        503 => ErrorCode::ServiceUnavailable,
        _ => ErrorCode::InternalError,
    };
    let userinfo = match code {
        ErrorCode::InternalError | ErrorCode::ServiceUnavailable => String::new(),
        ErrorCode::NotFound => "no route matches this path".to_string(),
        ErrorCode::MethodNotAllowed => "this route does not accept the method".to_string(),
        ErrorCode::RequestTimeout => "the request took too long".to_string(),
        ErrorCode::PayloadTooLarge => "the request body is too large".to_string(),
        _ => text.trim().chars().take(300).collect(),
    };
    match code {
        ErrorCode::InternalError => ApiError::internal(anyhow::anyhow!("framework error {status}")),
        ErrorCode::ServiceUnavailable => {
            ApiError::unavailable(anyhow::anyhow!("framework error {status}"))
        }
        _ if userinfo.is_empty() => {
            ApiError::new(code, status.canonical_reason().unwrap_or("error"))
        }
        _ => ApiError::new(code, userinfo),
    }
}

/// Binds `host:port` (port 0 picks a free one).
pub async fn bind(http: &HttpSettings) -> std::io::Result<TcpListener> {
    TcpListener::bind((http.host.as_str(), http.port)).await
}

/// Serves `router` until `shutdown` resolves, then lets in-flight requests finish for at most
/// `grace` before returning.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    grace: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (started_tx, started_rx) = tokio::sync::oneshot::channel::<()>();
    let server = axum::serve(listener, router).with_graceful_shutdown(async move {
        shutdown.await;
        tracing::info!(
            grace_seconds = grace.as_secs(),
            "shutting down: no new connections"
        );
        let _ = started_tx.send(());
    });
    let deadline = async move {
        if started_rx.await.is_ok() {
            tokio::time::sleep(grace).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => result,
        () = deadline => {
            tracing::warn!("grace period over: dropping the remaining requests");
            Ok(())
        }
    }
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

/// An empty body response with a status, for handlers that need one (e.g. 304).
pub fn empty(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}
