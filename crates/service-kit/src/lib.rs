//! Service plumbing shared by the platform's HTTP services.

pub mod auth;
pub mod error;

pub use error::{ApiError, ErrorBody};
