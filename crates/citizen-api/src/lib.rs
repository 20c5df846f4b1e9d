//! citizen-api (skeleton).
