//! platform-messages: operator announcements per client application, read over REST and
//! announced over MQTT (`system/messages/<client_id>`, retained `{client_id, version}`).
//!
//! The library owns start-up ([`startup`]): [`Application::build`] opens the database, migrates
//! it (SQLite always, PostgreSQL when configured), starts the MQTT publisher (and the embedded
//! broker when configured) and binds the HTTP listener, so tests use port 0. `main.rs` only
//! parses the command line. See docs/platform-messages.md.

pub mod cli;
pub mod clock;
pub mod notify;
pub mod routes;
pub mod scheduler;
pub mod settings;
pub mod startup;
pub mod store;

pub use settings::{Settings, SPEC};
pub use startup::{Application, BuildOptions};
pub use store::{migrations, SCHEMA};
