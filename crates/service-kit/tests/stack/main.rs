//! The shared actix stack over real HTTP: error bodies for every framework error, localized
//! `userinfo`, request ids, time-out, panics, docs, metrics and CORS.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod errors;
mod helpers;
mod localization;
mod ops;
