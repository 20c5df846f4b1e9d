//! Bearer-token authentication against a real JWKS served over HTTP, with real RS256, PS256,
//! ES256 and EdDSA signatures (test keys in `fixtures/auth`, made by `make_fixtures.sh`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config;
mod helpers;
mod http;
mod jwks;
mod refused;
mod valid;
