//! citizen-api (skeleton).

pub mod captcha;
pub mod media;
