//! The REST behaviour suite, run against SQLite and PostgreSQL over real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

mod access;
mod cache;
mod docs;
mod helpers;
mod messages;
mod openapi_snapshot;
mod validation;
