//! citizen-api (skeleton).

pub mod media;
