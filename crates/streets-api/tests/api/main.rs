//! streets-api over real HTTP, against SQLite and (when reachable) PostgreSQL with PostGIS.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a test failure

mod clients;
mod docs_page;
mod features;
mod helpers;
mod http_cache;
mod import;
mod import_at_scale;
mod links;
mod model_answers;
mod openapi_snapshot;
mod outage;
mod read_model;
mod schema;
mod stack;
mod streets;
