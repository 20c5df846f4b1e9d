//! Pure domain rules of the citizen-services platform.
//!
//! Nothing in this crate performs I/O: no database, HTTP, MQTT or file access. CI enforces this
//! with `cargo tree -i` (see `.ci/run`). Services translate these rules into storage and HTTP.

pub mod digest;
pub mod duplicates;
pub mod error_code;
pub mod filenames;
pub mod geo;
pub mod i18n;
pub mod issues;
pub mod limits;
pub mod markdown;
pub mod messages;
pub mod news;
pub mod notifications;
pub mod open311;
pub mod reply_templates;
pub mod reports;
pub mod stats;
pub mod territory;
pub mod text;
pub mod votes;
