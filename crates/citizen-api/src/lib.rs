//! citizen-api: citizens' reports of problems in the city.
//!
//! A report is filed with a title, a description, an optional location inside the city
//! ([`city`]) and photos ([`media`]; anonymous filers pass a [`captcha`] and a [`rate_limit`]);
//! it is handled as one issue per category, whose states give the report its status and its
//! public timeline (the rules are in `domain::issues`). Storage is behind the traits of
//! [`store`] (PostgreSQL with PostGIS, or SQLite), whose backends only read and write; the use
//! cases' scripts and the rules they apply are in [`app`]; [`routes`] parse, call and map.

// The layers, each calling only the ones below it (scripts/check-layering.sh): HTTP (routes,
// the web app among them), the use cases (app), storage (store), and the pure rules in the
// `domain` crate.
pub mod app;
pub mod routes;
pub mod store;

// What the layers use beside the database: the territory, the media store, CAPTCHA checks, the
// filers' rate limit, the news read model, and the notification workers.
pub mod captcha;
pub mod city;
pub mod media;
pub mod news_read_model;
pub mod notify;
pub mod rate_limit;

// Jobs of the command line (`cli`): the news import and the demo data.
pub mod demo;
pub mod news_import;

// The service's start-up skeleton (service-kit's) and its settings.
pub mod cli;
pub mod settings;
pub mod startup;

pub use settings::{Settings, SPEC};
pub use startup::{Application, BuildOptions};
