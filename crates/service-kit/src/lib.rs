//! Service plumbing shared by the platform's HTTP services (actix-web 4).
//!
//! Every service starts the same way ([`startup`]): settings ([`settings::load`], env last),
//! telemetry ([`telemetry::init`]), the database ([`startup::open_database`]: pool, migrations,
//! schema check), readiness ([`startup::readiness`]), the app ([`http::AppParts`]: the service's
//! routes using [`extract`] and [`ApiError`], its OpenAPI description via [`docs::finalize`],
//! [`metrics::Metrics`]), bind ([`startup::HttpApp::bind`], port 0 in tests) and
//! [`startup::HttpApp::run_until`].

pub mod auth;
pub mod clock;
pub mod codec;
pub mod db;
pub mod docs;
pub mod error;
pub mod extract;
pub mod health;
pub mod http;
pub mod instant;
pub mod metrics;
#[cfg(feature = "mqtt")]
pub mod mqtt;
pub mod multipart;
pub mod read_model;
pub mod schema;
pub mod settings;
pub mod startup;
pub mod store_error;
pub mod telemetry;

pub use error::{ApiError, ErrorBody};

pub use store_error::StoreError;
