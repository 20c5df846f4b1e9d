//! Logging: JSON lines in production, readable lines locally, filtered like `RUST_LOG`.
//!
//! The refusals actix-http writes itself, before any service code runs (431 for a request head
//! over its 128 KiB buffer or with more than 96 headers, 400 for a request line or header it
//! cannot parse, 408 for a head that never ends), end their connection with an ERROR line
//! `stream error: …` of target `actix_http::h1::dispatcher`, one per request: any client could
//! fill the error log. [`FrameworkRefusals`] logs each of them at INFO instead, like the
//! `request finished` line of any other 4xx (`connection refused by the HTTP framework`).

use std::fmt;

use crate::settings::{LogFormat, TelemetrySettings};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt as format, EnvFilter, Layer};

/// The target of actix-http's HTTP/1 connection handling.
const DISPATCHER: &str = "actix_http::h1::dispatcher";
/// How actix-http's dispatcher begins the message of a connection's error.
const STREAM_ERROR: &str = "stream error: ";

/// Installs the global subscriber. `RUST_LOG`, when set, overrides `telemetry.filter`.
/// Calling it twice (tests) keeps the first subscriber.
pub fn init(settings: &TelemetrySettings) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&settings.filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    try_init(filter, settings.format, std::io::stdout);
}

/// Installs the global subscriber of the services, filtered by `filter`, writing `format` lines
/// to `writer`; `false` when a global subscriber was installed before (it is kept).
pub fn try_init<W>(filter: EnvFilter, format: LogFormat, writer: W) -> bool
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let registry = tracing_subscriber::registry()
        .with(filter)
        .with(FrameworkRefusals);
    match format {
        LogFormat::Json => registry
            .with(
                format::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false)
                    .with_writer(writer),
            )
            .try_init()
            .is_ok(),
        LogFormat::Pretty => registry
            .with(format::layer().compact().with_writer(writer))
            .try_init()
            .is_ok(),
    }
}

/// Logs actix-http's `stream error` lines (a connection ended by a refusal the framework wrote
/// itself, or by the client) at INFO instead of ERROR: see the module documentation.
pub struct FrameworkRefusals;

impl<S: Subscriber> Layer<S> for FrameworkRefusals {
    fn event_enabled(&self, event: &Event<'_>, _: Context<'_, S>) -> bool {
        let meta = event.metadata();
        if *meta.level() != Level::ERROR || meta.target() != DISPATCHER {
            return true;
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        let Some(error) = message.0.strip_prefix(STREAM_ERROR) else {
            return true;
        };
        // The global subscriber is not entered while an event is dispatched, so this line is
        // dispatched like any other (a scoped one would drop it).
        tracing::info!(
            target: "service_kit::http",
            error,
            "connection refused by the HTTP framework"
        );
        false
    }
}

/// The `message` of an event.
struct Message(String);

impl Visit for Message {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.push_str(value);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            use fmt::Write as _;
            let _ = write!(self.0, "{value:?}");
        }
    }
}
