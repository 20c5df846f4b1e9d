//! citizen-api (skeleton).

pub mod captcha;
pub mod media;
pub mod rate_limit;
