//! The multipart reader over real HTTP, through the whole shared stack: a `POST /reports`-like
//! handler reads the form with [`service_kit::multipart::MultipartReader`] and answers a JSON
//! summary of what it read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod digest;
mod helpers;
mod limits;
mod refused;
mod streaming;
mod valid;
