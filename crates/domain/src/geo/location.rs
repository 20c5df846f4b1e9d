//! The `location` query parameter: `longitude,latitude[,radius_m]`.

use thiserror::Error;

use super::{CoordinateError, LonLat};
use crate::i18n::Message;

/// A parsed `location` parameter: `longitude,latitude[,radius_m]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocationParam {
    pub point: LonLat,
    pub radius_m: Option<f64>,
}

/// A `location` value that cannot be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LocationError {
    #[error("location must be \"longitude,latitude\" or \"longitude,latitude,radius\"")]
    Shape,
    #[error(transparent)]
    Coordinate(#[from] CoordinateError),
    #[error("location radius must be a positive number of metres")]
    Radius,
}

impl LocationError {
    /// The client-facing text: `location-shape`, `location-radius` (no arguments), or the
    /// coordinate's [`CoordinateError::message`].
    pub fn message(&self) -> Message {
        match self {
            Self::Shape => Message::new("location-shape"),
            Self::Coordinate(err) => err.message(),
            Self::Radius => Message::new("location-radius"),
        }
    }
}

/// Parses `longitude,latitude[,radius_m]` (spaces around the numbers are allowed).
pub fn parse_location(raw: &str) -> Result<LocationParam, LocationError> {
    let parts: Vec<&str> = raw.split(',').map(str::trim).collect();
    let number = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
    match parts.as_slice() {
        [lon, lat] | [lon, lat, _] => {
            let lon = number(lon).ok_or(LocationError::Shape)?;
            let lat = number(lat).ok_or(LocationError::Shape)?;
            let point = LonLat::new(lon, lat)?;
            let radius_m = match parts.get(2) {
                None => None,
                Some(r) => Some(
                    number(r)
                        .filter(|r| *r > 0.0)
                        .ok_or(LocationError::Radius)?,
                ),
            };
            Ok(LocationParam { point, radius_m })
        }
        _ => Err(LocationError::Shape),
    }
}
