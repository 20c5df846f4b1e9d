//! streets-api (skeleton).
