//! The distance a row shows: the geodesic distance on the WGS84 ellipsoid rounded to the
//! centimetre, always the number that rounding [`distance_m`] (Karney's algorithm) gives, at a
//! tenth of its cost for the near rows a page shows.
//!
//! A page measures its rows from one point, so that point's place and radii are computed once
//! ([`DistancesFrom`]). A row within [`NEAR_M`] is measured by the chord between the two places
//! in Earth-centred coordinates, lengthened to the arc of the normal section's radius at the
//! origin in the chord's direction (`s = c + c³/24R² + 3c⁵/640R⁴`): within 10 km this is within
//! [`NEAR_ERROR_M`] of Karney's distance (the tests check it over random pairs at every
//! latitude). When that error could move the rounding (the value lies that close to half a
//! centimetre), and for rows farther away, Karney's algorithm measures: 4.8 µs against 42 µs a
//! page of 100 rows (docs/benchmarks/history/2026-11-notebook.md).

use super::{distance_m, LonLat};

const A: f64 = 6_378_137.0;
const F: f64 = 1.0 / 298.257_223_563;
/// How far the chord is used.
pub const NEAR_M: f64 = 10_000.0;
/// How far the chord's length may be from Karney's distance within [`NEAR_M`] (the worst seen
/// over the tests' pairs is 1.7e-8 m).
pub const NEAR_ERROR_M: f64 = 1e-7;

fn e2() -> f64 {
    F * (2.0 - F)
}

/// Earth-centred, Earth-fixed coordinates of a place on the ellipsoid, in metres.
fn ecef(place: LonLat) -> [f64; 3] {
    let lat = place.lat.to_radians().sin_cos();
    let lon = place.lon.to_radians().sin_cos();
    ecef_of(lat, lon)
}

/// [`ecef`] from the sines and cosines of the latitude and longitude.
fn ecef_of((sin_lat, cos_lat): (f64, f64), (sin_lon, cos_lon): (f64, f64)) -> [f64; 3] {
    let n = A / (1.0 - e2() * sin_lat * sin_lat).sqrt();
    [
        n * cos_lat * cos_lon,
        n * cos_lat * sin_lon,
        n * (1.0 - e2()) * sin_lat,
    ]
}

/// How far from the origin (radians of latitude and of longitude) a place's sine and cosine
/// are taken from the origin's by the angle-sum formulas ([`DistancesFrom::sin_cos_near`]).
const SMALL_ANGLE: f64 = 0.02;

/// The sine and cosine of `d` (|d| ≤ [`SMALL_ANGLE`]) from their Taylor series: the first
/// term left out is below 10⁻²⁰ of the result, far under a unit in the last place.
fn small_sin_cos(d: f64) -> (f64, f64) {
    let d2 = d * d;
    let sin = d * (1.0 - d2 / 6.0 * (1.0 - d2 / 20.0 * (1.0 - d2 / 42.0)));
    let cos = 1.0 - d2 / 2.0 * (1.0 - d2 / 12.0 * (1.0 - d2 / 30.0 * (1.0 - d2 / 56.0)));
    (sin, cos)
}

/// Distances from one place, each rounded to the centimetre (module docs).
#[derive(Debug, Clone, Copy)]
pub struct DistancesFrom {
    origin: LonLat,
    /// The sine and cosine of the origin's latitude and longitude.
    lat: (f64, f64),
    lon: (f64, f64),
    at: [f64; 3],
    east: [f64; 3],
    north: [f64; 3],
    /// The inverse radii of curvature at the origin: of the meridian and of the prime vertical.
    inverse_m: f64,
    inverse_n: f64,
}

impl DistancesFrom {
    pub fn new(origin: LonLat) -> Self {
        let (sin_lat, cos_lat) = origin.lat.to_radians().sin_cos();
        let (sin_lon, cos_lon) = origin.lon.to_radians().sin_cos();
        let w = 1.0 - e2() * sin_lat * sin_lat;
        Self {
            origin,
            lat: (sin_lat, cos_lat),
            lon: (sin_lon, cos_lon),
            at: ecef_of((sin_lat, cos_lat), (sin_lon, cos_lon)),
            east: [-sin_lon, cos_lon, 0.0],
            north: [-sin_lat * cos_lon, -sin_lat * sin_lon, cos_lat],
            inverse_m: w * w.sqrt() / (A * (1.0 - e2())),
            inverse_n: w.sqrt() / A,
        }
    }

    /// The sine and cosine of an angle `d` radians from one whose are `(sin, cos)`, by the
    /// angle-sum formulas: two products each, where the library's `sin_cos` was half of a
    /// row's distance (`perf`, 2026-11-27). Both sides are within a few units in the last place
    /// of the library's, so the chord moves by nanometres (the error allowed is 0.1 µm).
    fn sin_cos_near((sin, cos): (f64, f64), d: f64) -> (f64, f64) {
        let (sin_d, cos_d) = small_sin_cos(d);
        (sin * cos_d + cos * sin_d, cos * cos_d - sin * sin_d)
    }

    /// The distance to `place` from the chord, when `place` is within [`NEAR_M`].
    fn near(&self, place: LonLat) -> Option<f64> {
        let d_lat = (place.lat - self.origin.lat).to_radians();
        let d_lon = (place.lon - self.origin.lon).to_radians();
        let p = if d_lat.abs() <= SMALL_ANGLE && d_lon.abs() <= SMALL_ANGLE {
            ecef_of(
                Self::sin_cos_near(self.lat, d_lat),
                Self::sin_cos_near(self.lon, d_lon),
            )
        } else {
            ecef(place)
        };
        let d = [p[0] - self.at[0], p[1] - self.at[1], p[2] - self.at[2]];
        let c2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if c2 > NEAR_M * NEAR_M {
            return None;
        }
        let e: f64 = d.iter().zip(self.east).map(|(x, y)| x * y).sum();
        let n: f64 = d.iter().zip(self.north).map(|(x, y)| x * y).sum();
        let h = e * e + n * n;
        if h == 0.0 {
            // The same place (or one straight above it, which no place on the ellipsoid is).
            return (c2 == 0.0).then_some(0.0);
        }
        // Euler: the normal section's curvature in the chord's direction.
        let inverse_r = (n * n * self.inverse_m + e * e * self.inverse_n) / h;
        let x = c2 * inverse_r * inverse_r;
        Some(c2.sqrt() * (1.0 + x / 24.0 + 3.0 * x * x / 640.0))
    }

    /// The geodesic distance to `place` in metres, rounded to the centimetre: always
    /// `(distance_m(origin, place) * 100).round() / 100`.
    pub fn rounded_cm(&self, place: LonLat) -> f64 {
        match self.near(place) {
            Some(metres) => round_cm_near(metres, || distance_m(self.origin, place)),
            None => round_cm(distance_m(self.origin, place)),
        }
    }
}

fn round_cm(metres: f64) -> f64 {
    (metres * 100.0).round() / 100.0
}

/// `metres` (within [`NEAR_ERROR_M`] of the exact distance) rounded to the centimetre, or the
/// exact distance (`exact`) rounded when the error could cross half a centimetre.
fn round_cm_near(metres: f64, exact: impl FnOnce() -> f64) -> f64 {
    let cm = metres * 100.0;
    let from_half = (cm - cm.floor() - 0.5).abs();
    if from_half <= NEAR_ERROR_M * 100.0 * 2.0 {
        round_cm(exact())
    } else {
        cm.round() / 100.0
    }
}

/// The geodesic distance between `a` and `b` in metres, rounded to the centimetre, as a row
/// shows it ([`DistancesFrom::rounded_cm`]).
pub fn distance_cm(a: LonLat, b: LonLat) -> f64 {
    DistancesFrom::new(a).rounded_cm(b)
}

#[cfg(test)]
#[path = "shown_tests.rs"]
mod tests;
