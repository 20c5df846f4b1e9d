//! The behaviour suite of citizen-api, run against SQLite and PostgreSQL over real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

mod detail;
mod docs;
mod helpers;
mod list;
mod list_edges;
mod me;
mod timeline;
