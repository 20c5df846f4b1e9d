//! Integration tests of citizen-api's filing building blocks: media storage, CAPTCHA
//! verification and the anonymous rate limit.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod captcha;
mod media;
mod rate_limit;
