//! Service plumbing shared by the platform's HTTP services.
//!
//! A service built on this crate:
//! 1. loads its settings with [`settings::load`] (defaults TOML, `--config FILE`, env last),
//! 2. calls [`telemetry::init`],
//! 3. opens its [`db::Database`] (backend chosen by URL scheme) and migrates it,
//! 4. builds its API `Router` (using [`extract::Json`], [`extract::Query`] and [`ApiError`]),
//! 5. hands it to [`http::build_router`] with its OpenAPI description ([`docs::finalize`]),
//!    [`health::Readiness`] checks and [`metrics::Metrics`], which adds `/healthz`, `/readyz`,
//!    `/metrics`, `<base>/docs`, the middleware and the error-body normalisation,
//! 6. serves it with [`http::serve`] on a listener bound by [`http::bind`] (port 0 in tests).

pub mod auth;
pub mod db;
pub mod docs;
pub mod error;
pub mod extract;
pub mod health;
pub mod http;
pub mod metrics;
pub mod settings;
pub mod store_error;
pub mod telemetry;

pub use error::{ApiError, ErrorBody};
