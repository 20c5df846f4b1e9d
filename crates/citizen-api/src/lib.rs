//! citizen-api: citizens' reports of problems in the city.
//!
//! A report is filed with a title, a description, an optional location inside the city
//! ([`city`]) and photos ([`media`]; anonymous filers pass a [`captcha`] and a [`rate_limit`]);
//! it is handled as one issue per category, whose states give the report its status and its
//! public timeline (the rules are in `domain::issues`). Storage is behind the traits of
//! [`store`] (PostgreSQL with PostGIS, or SQLite), whose backends only read and write; the use
//! cases' scripts and the rules they apply are in [`app`]; [`routes`] parse, call and map.

pub mod app;
pub mod captcha;
pub mod city;
pub mod cli;
pub mod demo;
pub mod demo_news;
pub mod media;
pub mod news_import;
pub mod news_model;
pub mod notify;
pub mod rate_limit;
pub mod routes;
pub mod settings;
pub mod startup;
pub mod store;
pub mod stores;
pub mod votes;
pub mod web_app;

pub use settings::{Settings, SPEC};
pub use startup::{Application, BuildOptions};
