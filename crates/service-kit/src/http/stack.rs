//! The one middleware every request passes through, outermost. In a single layer (each layer of
//! its own costs a boxed future per request) it:
//! - accepts the client's `X-Request-Id` or creates one, and returns it;
//! - opens the request span (method and request id; matched route, status and latency when
//!   done) and logs `request finished`;
//! - counts the request in the metrics by matched route pattern and status (the pattern is read
//!   after routing, from the route the router already found, so no path is matched twice);
//! - answers API requests 503 while the database schema is behind the binary;
//! - verifies an API request's bearer token before the handler, so the caller is judged before
//!   the handler's other arguments ([`crate::auth::verify_first`]);
//! - bounds the request by `http.request_timeout_seconds` (408) and catches a panicking handler
//!   (500, no internals);
//! - renders every error answer as `{statusCode, name, userinfo}` in the language negotiated from
//!   `Accept-Language`, with `Content-Language`: an [`ApiError`] with its own message, any other
//!   error of the framework (unknown route, wrong method, CORS refusal, …) by its status;
//! - closes the connection after an error answer to a request that sent a body
//!   (`Connection: close`): the body may be partly unread (an upload refused at a limit), and a
//!   client that writes its whole body before reading must get the answer and a closed
//!   connection, not a server that stopped reading (actix reads and discards what is left,
//!   within `client_disconnect_timeout`, before closing).
//!
//! Errors that happen here after the request was handed on (time-out, panic) cannot become a
//! `ServiceResponse` (the request is gone), so they are returned as an already rendered error.

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{
    forward_ready, ResourceMap, Service, ServiceRequest, ServiceResponse, Transform,
};
use actix_web::http::header::{
    HeaderName, HeaderValue, ACCEPT_LANGUAGE, CONTENT_LANGUAGE, CONTENT_LENGTH, CONTENT_TYPE,
    TRANSFER_ENCODING,
};
use actix_web::http::{ConnectionType, Method, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use futures::future::{ready, LocalBoxFuture, Ready};
use futures::FutureExt;
use i18n::Locale;
use std::cell::OnceCell;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tracing::Instrument;

use crate::auth::Authenticator;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::schema::SchemaGate;

/// Answers slower than this are logged at info even when they went well.
const SLOW_REQUEST: Duration = Duration::from_millis(500);

/// Header carrying the request id (accepted from the client or created, and returned).
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// What the middleware needs, one per worker.
pub(super) struct StackState {
    pub metrics: Metrics,
    pub timeout: Duration,
    pub default_locale: Locale,
    pub base_path: String,
    pub schema: SchemaGate,
    /// Verifies an API request's bearer token before the handler ([`crate::auth::verify_first`]).
    pub authenticator: Option<Authenticator>,
}

pub(super) struct Stack(Rc<StackState>);

impl Stack {
    pub(super) fn new(state: StackState) -> Self {
        Self(Rc::new(state))
    }
}

impl<S, B> Transform<S, ServiceRequest> for Stack
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = actix_web::Error;
    type Transform = StackService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(StackService {
            service: Rc::new(service),
            state: self.0.clone(),
            routes: Rc::default(),
        }))
    }
}

pub(super) struct StackService<S> {
    service: Rc<S>,
    state: Rc<StackState>,
    /// This worker's routing table, kept at the first request: the route of a request that
    /// ended without a response object (time-out, panic) is looked up in it by path.
    routes: Rc<OnceCell<ResourceMap>>,
}

/// What a request ended with.
enum Outcome<B> {
    Response(ServiceResponse<EitherBody<B>>),
    /// No response object could be kept (time-out, panic, an error from an inner layer).
    Failed(ApiError),
}

impl<S, B> Service<ServiceRequest> for StackService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Self::Error>>;

    forward_ready!(service);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        let state = self.state.clone();
        let request_id = request_id(&mut req);
        let method = req.method().clone();
        let routes = self.routes.clone();
        routes.get_or_init(|| req.resource_map().clone());
        let uri = req.uri().clone();
        let accept_language = req.headers().get(ACCEPT_LANGUAGE).cloned();
        let sent_body = sends_body(&req);
        let span = tracing::info_span!(
            "request",
            method = %method,
            route = tracing::field::Empty,
            request_id = request_id.to_str().unwrap_or(""),
            status = tracing::field::Empty,
            latency_ms = tracing::field::Empty,
        );
        let api = req.path().starts_with(&state.base_path);
        let blocked = state.schema.is_behind() && api;
        let authenticator = state.authenticator.clone().filter(|_| api);
        let service = self.service.clone();
        let work = async move {
            let outcome = if blocked {
                Outcome::Failed(ApiError::new(
                    ErrorCode::ServiceUnavailable,
                    Message::new("database-not-migrated").arg("service", state.schema.service()),
                ))
            } else {
                run(&service, req, state.timeout, authenticator).await
            };
            let locale = i18n::negotiate(
                accept_language.as_ref().and_then(|v| v.to_str().ok()),
                state.default_locale,
            );
            let result: Result<Self::Response, actix_web::Error> = match outcome {
                Outcome::Response(mut res) => {
                    let own = res.response().extensions().get::<OwnErrorBody>().is_some();
                    if res.status().as_u16() >= 400 && !own {
                        res = localize(res, locale);
                        if sent_body {
                            close_after(res.response_mut().head_mut());
                        }
                    }
                    res.headers_mut().insert(REQUEST_ID, request_id);
                    Ok(res)
                }
                Outcome::Failed(error) => Err(Rendered {
                    error,
                    locale,
                    request_id,
                    close: sent_body,
                }
                .into()),
            };
            // After routing the request knows the route it took (no second match); a request
            // that is gone is matched again by its path.
            let (status, route) = match &result {
                Ok(res) => (res.status(), res.request().match_pattern()),
                Err(err) => (
                    err.as_response_error().status_code(),
                    routes.get().and_then(|map| map.match_pattern(uri.path())),
                ),
            };
            finish(&state.metrics, &method, route.as_deref(), status, started);
            result
        };
        Box::pin(work.instrument(span))
    }
}

/// Marks an error answer (status 400 or more) whose body is its own and must reach the client as
/// it is, instead of being re-rendered as the error body: a facade that speaks another
/// standard's errors (citizen-api's Open311 answers `[{code, description}]`). Insert it into the
/// response's extensions.
#[derive(Debug, Clone, Copy)]
pub struct OwnErrorBody;

/// Calls the inner service under the time-out, catching a panic.
async fn run<S, B>(
    service: &S,
    req: ServiceRequest,
    timeout: Duration,
    authenticator: Option<Authenticator>,
) -> Outcome<B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let panicked = || {
        tracing::error!("handler panicked");
        ApiError::new(ErrorCode::InternalError, Message::new("unexpected-error"))
    };
    // The caller first, then the handler: see `verify_first`. A panic while the handler's call
    // is set up is caught with the call's own.
    let call = async move {
        if let Some(authenticator) = &authenticator {
            crate::auth::verify_first(req.request(), authenticator).await;
        }
        service.call(req).await
    };
    match tokio::time::timeout(timeout, AssertUnwindSafe(call).catch_unwind()).await {
        Ok(Ok(Ok(res))) => Outcome::Response(res.map_into_left_body()),
        Ok(Ok(Err(err))) => Outcome::Failed(match err.as_error::<ApiError>() {
            Some(api) => api.clone(),
            None => for_status(err.as_response_error().status_code()),
        }),
        Ok(Err(_panic)) => Outcome::Failed(panicked()),
        Err(_elapsed) => Outcome::Failed(ApiError::new(
            ErrorCode::RequestTimeout,
            Message::new("request-timeout"),
        )),
    }
}

/// Re-renders an error answer as the error body in `locale`, keeping the headers the inner
/// layers set (`Allow`, CORS, `WWW-Authenticate`, `Retry-After`).
fn localize<B: MessageBody + 'static>(
    res: ServiceResponse<EitherBody<B>>,
    locale: Locale,
) -> ServiceResponse<EitherBody<B>> {
    let error = match res
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>())
    {
        Some(api) => api.clone(),
        None => for_status(res.status()),
    };
    let mut fresh = error.to_response(locale);
    let own: Vec<HeaderName> = fresh.headers().keys().cloned().collect();
    for (name, value) in res.headers() {
        let body_header = [CONTENT_TYPE, CONTENT_LENGTH, CONTENT_LANGUAGE].contains(name);
        if !body_header && !own.contains(name) {
            fresh.headers_mut().append(name.clone(), value.clone());
        }
    }
    let (req, _old) = res.into_parts();
    ServiceResponse::new(req, fresh).map_body(|_, body| EitherBody::right(body))
}

/// The error of a framework answer that did not come from an [`ApiError`].
pub(crate) fn for_status(status: StatusCode) -> ApiError {
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
    match code {
        ErrorCode::NotFound => ApiError::not_found(Message::new("route-not-found")),
        ErrorCode::MethodNotAllowed => ApiError::new(code, Message::new("method-not-allowed")),
        ErrorCode::RequestTimeout => ApiError::new(code, Message::new("request-timeout")),
        ErrorCode::InternalError => ApiError::internal(anyhow::anyhow!("framework error {status}")),
        ErrorCode::ServiceUnavailable => {
            ApiError::unavailable(anyhow::anyhow!("framework error {status}"))
        }
        _ => ApiError::bare(code),
    }
}

/// The client's request id when it is usable (1–200 visible ASCII characters), else a new UUID,
/// put on the request so handlers and logs see the same one.
fn request_id(req: &mut ServiceRequest) -> HeaderValue {
    if let Some(given) = req.headers().get(REQUEST_ID) {
        let ok = (1..=200).contains(&given.len())
            && given.as_bytes().iter().all(|b| b.is_ascii_graphic());
        if ok {
            return given.clone();
        }
    }
    let created = HeaderValue::from_str(&uuid::Uuid::new_v4().to_string())
        .unwrap_or_else(|_| HeaderValue::from_static("invalid"));
    req.headers_mut().insert(REQUEST_ID, created.clone());
    created
}

fn finish(
    metrics: &Metrics,
    method: &Method,
    route: Option<&str>,
    status: StatusCode,
    started: Instant,
) {
    let elapsed = started.elapsed();
    let span = tracing::Span::current();
    span.record("route", route.unwrap_or("unmatched"));
    span.record("status", status.as_u16());
    span.record("latency_ms", elapsed.as_secs_f64() * 1000.0);
    // A JSON line for every answer cost ~40 % of the throughput of a trivial route (measured by
    // `make bench`), while the metrics already count every request: answers that went well are
    // logged at debug, failures and slow answers at info or above.
    if status.is_server_error() {
        tracing::warn!("request finished");
    } else if status.is_client_error() || elapsed >= SLOW_REQUEST {
        tracing::info!("request finished");
    } else {
        tracing::debug!("request finished");
    }
    metrics.observe(
        method.as_str(),
        route.unwrap_or("unmatched"),
        status.as_u16(),
        elapsed.as_secs_f64(),
    );
}

/// Whether the request comes with a body (which an error answer may have left unread).
fn sends_body(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    headers.contains_key(TRANSFER_ENCODING)
        || headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}

/// Marks an answer as the connection's last.
fn close_after(head: &mut actix_web::dev::ResponseHead) {
    head.set_connection_type(ConnectionType::Close);
}

/// An error answer decided before it could be attached to its request.
#[derive(Debug)]
struct Rendered {
    error: ApiError,
    locale: Locale,
    request_id: HeaderValue,
    /// The request sent a body: the connection closes after this answer.
    close: bool,
}

impl std::fmt::Display for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl ResponseError for Rendered {
    fn status_code(&self) -> StatusCode {
        self.error.status()
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        let mut response = self.error.to_response(self.locale);
        response
            .headers_mut()
            .insert(REQUEST_ID, self.request_id.clone());
        if self.close {
            close_after(response.head_mut());
        }
        response
    }
}
