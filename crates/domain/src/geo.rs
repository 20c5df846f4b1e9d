//! Geography on WGS84: coordinate checks, the location parameter, and true distances in metres.
//!
//! Distances are geodesic on the WGS84 ellipsoid (Karney's algorithm, via the `geo` crate), the
//! same quantity PostGIS computes for `geography`, so both storage backends agree.

use geo::{Distance, Geodesic, Point};
use thiserror::Error;

use crate::i18n::Message;

mod location;
mod shown;
#[cfg(test)]
mod test_rng;
pub use location::{parse_location, LocationError, LocationParam};
pub use shown::{distance_cm, DistancesFrom};

/// Mean Earth radius (IUGG) in metres, used only for conservative bounding boxes.
const MEAN_EARTH_RADIUS_M: f64 = 6_371_008.8;
/// Smallest meridian radius of curvature on WGS84 (at the equator) in metres; a degree of
/// latitude is never shorter than this radius implies, so boxes built from it are conservative.
const MIN_MERIDIAN_RADIUS_M: f64 = 6_335_439.0;

/// A longitude/latitude pair in WGS84 degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LonLat {
    pub lon: f64,
    pub lat: f64,
}

/// A coordinate outside WGS84's range or not a number.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CoordinateError {
    #[error("longitude must be a number between -180 and 180")]
    Longitude,
    #[error("latitude must be a number between -90 and 90")]
    Latitude,
}

impl CoordinateError {
    /// The client-facing text: `longitude-out-of-range` or `latitude-out-of-range` (no arguments).
    pub fn message(&self) -> Message {
        match self {
            Self::Longitude => Message::new("longitude-out-of-range"),
            Self::Latitude => Message::new("latitude-out-of-range"),
        }
    }
}

impl LonLat {
    /// Checks the ranges: longitude -180..=180, latitude -90..=90, both finite.
    pub fn new(lon: f64, lat: f64) -> Result<Self, CoordinateError> {
        if !lon.is_finite() || !(-180.0..=180.0).contains(&lon) {
            return Err(CoordinateError::Longitude);
        }
        if !lat.is_finite() || !(-90.0..=90.0).contains(&lat) {
            return Err(CoordinateError::Latitude);
        }
        Ok(Self { lon, lat })
    }

    fn point(self) -> Point<f64> {
        Point::new(self.lon, self.lat)
    }
}

/// Metres per degree of longitude and of latitude on the WGS84 ellipsoid at `lat` (degrees):
/// the scales of the local plane around a point, where SQLite measures a radius.
pub fn metres_per_degree(lat: f64) -> (f64, f64) {
    const A: f64 = 6_378_137.0;
    const E2: f64 = 0.006_694_379_990_14;
    let phi = lat.to_radians();
    let w = 1.0 - E2 * phi.sin().powi(2);
    let n = A / w.sqrt();
    let m = A * (1.0 - E2) / w.powf(1.5);
    let per_radian = std::f64::consts::PI / 180.0;
    (n * phi.cos() * per_radian, m * per_radian)
}

/// An axis-aligned box in degrees: `[min_lon, min_lat, max_lon, max_lat]`.
pub type BBox = [f64; 4];

/// Geodesic distance between two points in metres.
pub fn distance_m(a: LonLat, b: LonLat) -> f64 {
    Geodesic.distance(a.point(), b.point())
}

/// [`distance_m`] rounded to 10 nanometres, as PostGIS rounds every geography distance
/// (`ST_Distance`): lists ordered by it in Rust and lists ordered by PostgreSQL then carry the
/// same numbers, so a cursor handed out by one is exact in the other.
pub fn rounded_distance_m(a: LonLat, b: LonLat) -> f64 {
    (distance_m(a, b) * 1e8).round() / 1e8
}

/// A box that certainly contains every point within `radius_m` metres of `center`.
///
/// Used as an index prefilter (R*Tree in SQLite); the exact test is [`distance_to_lines_m`].
pub fn bbox_around(center: LonLat, radius_m: f64) -> BBox {
    // 1 % margin on top of the conservative radii covers the ellipsoid's flattening.
    let r = radius_m * 1.01;
    let dlat = (r / MIN_MERIDIAN_RADIUS_M).to_degrees();
    let max_lat = (center.lat + dlat).min(90.0);
    let min_lat = (center.lat - dlat).max(-90.0);
    let widest = max_lat.abs().max(min_lat.abs()).to_radians().cos();
    let dlon = if widest <= 1e-9 {
        180.0
    } else {
        (r / (MEAN_EARTH_RADIUS_M * 0.99 * widest))
            .to_degrees()
            .min(180.0)
    };
    [
        (center.lon - dlon).max(-180.0),
        min_lat,
        (center.lon + dlon).min(180.0),
        max_lat,
    ]
}

/// The bounding box of a set of lines; `None` when there is no point.
pub fn bbox_of_lines(lines: &[Vec<[f64; 2]>]) -> Option<BBox> {
    let mut points = lines.iter().flatten();
    let first = points.next()?;
    let mut b = [first[0], first[1], first[0], first[1]];
    for p in points {
        b[0] = b[0].min(p[0]);
        b[1] = b[1].min(p[1]);
        b[2] = b[2].max(p[0]);
        b[3] = b[3].max(p[1]);
    }
    Some(b)
}

/// Shortest distance in metres from `point` to any segment of `lines` (WGS84 `[lon, lat]`).
///
/// For each segment the closest point is located in a local tangent plane centred on `point`
/// (exact for the short distances a city search asks about), then the geodesic distance to that
/// closest point is measured on the ellipsoid. Returns `f64::INFINITY` for no points.
pub fn distance_to_lines_m<L: AsRef<[[f64; 2]]>>(
    point: LonLat,
    lines: impl IntoIterator<Item = L>,
) -> f64 {
    let mut best = f64::INFINITY;
    for_each_closest_point(point, lines, |closest| {
        best = best.min(distance_m(point, closest));
    });
    best
}

/// WGS84 semi-major axis (m) and first eccentricity squared.
const WGS84_A: f64 = 6_378_137.0;
const WGS84_E2: f64 = 6.694_379_990_141_316e-3;
/// Where [`distance_to_lines_estimate_m`] answers: closest points within this many degrees of
/// the point in latitude and in longitude, and the point within this latitude.
const ESTIMATE_MAX_DEGREES: f64 = 0.1;
const ESTIMATE_MAX_LATITUDE: f64 = 80.0;

/// A cheap estimate of [`distance_to_lines_m`] and a bound on its error: the returned
/// `(estimate, bound)` satisfy `|distance_to_lines_m(point, lines) - estimate| <= bound`.
///
/// Same closest points as [`distance_to_lines_m`]; each is measured in the plane tangent to the
/// ellipsoid at the mid-latitude (meridian and prime-vertical radii of curvature) instead of by
/// Karney's geodesic. Within [`ESTIMATE_MAX_DEGREES`] (about 11 km; search radii are at most
/// 5 km) and below [`ESTIMATE_MAX_LATITUDE`] that differs from the geodesic by under 0.2 mm per
/// km (measured against the geodesic in the tests); the bound allows 10 mm per km. `None` outside that
/// domain or for no points: callers then use [`distance_to_lines_m`].
pub fn distance_to_lines_estimate_m<L: AsRef<[[f64; 2]]>>(
    point: LonLat,
    lines: impl IntoIterator<Item = L>,
) -> Option<(f64, f64)> {
    if point.lat.abs() > ESTIMATE_MAX_LATITUDE {
        return None;
    }
    let (sin_point, cos_point) = point.lat.to_radians().sin_cos();
    let mut best_squared = f64::INFINITY;
    let mut inside = true;
    for_each_closest_point(point, lines, |c| {
        let (dlat, dlon) = (c.lat - point.lat, c.lon - point.lon);
        if dlat.abs() > ESTIMATE_MAX_DEGREES || dlon.abs() > ESTIMATE_MAX_DEGREES {
            inside = false;
            return;
        }
        // sin and cos of the mid-latitude from those of the point's latitude and the half
        // difference h (|h| < 0.001 rad in the domain, so the Taylor terms left out, h⁴/24 and
        // h⁵/120, are below 1e-13): the same values as `sin_cos` of the mid-latitude for a few
        // multiplications, where `sin_cos` per closest point was most of a radius query's CPU.
        let h = dlat.to_radians() / 2.0;
        let h2 = h * h;
        let (sin_h, cos_h) = (h * (1.0 - h2 / 6.0), 1.0 - h2 / 2.0);
        let sin = sin_point * cos_h + cos_point * sin_h;
        let cos = cos_point * cos_h - sin_point * sin_h;
        let w2 = 1.0 - WGS84_E2 * sin * sin;
        let prime_vertical = WGS84_A / w2.sqrt();
        let meridian = prime_vertical * (1.0 - WGS84_E2) / w2;
        let north = meridian * dlat.to_radians();
        let east = prime_vertical * cos * dlon.to_radians();
        // Distances here are below 20 km, so squaring cannot overflow: compare squares, take
        // one square root at the end.
        best_squared = best_squared.min(north * north + east * east);
    });
    let best = best_squared.sqrt();
    (inside && best.is_finite()).then(|| (best, estimate_error_bound_m(best)))
}

/// The error bound of the estimate: 1 mm plus 10 mm per km, some fifty times what the tests
/// measure within the domain. Increasing with a slope below 1, so the minimum over segments
/// keeps the bound.
fn estimate_error_bound_m(estimate: f64) -> f64 {
    1e-3 + estimate * 1e-5
}

/// Calls `f` with the point of each segment of `lines` closest to `point`, located in the local
/// tangent plane centred on `point` (a one-point line gives that point).
fn for_each_closest_point<L: AsRef<[[f64; 2]]>>(
    point: LonLat,
    lines: impl IntoIterator<Item = L>,
    mut f: impl FnMut(LonLat),
) {
    let cos_lat = point.lat.to_radians().cos();
    let to_plane = |p: [f64; 2]| ((p[0] - point.lon) * cos_lat, p[1] - point.lat);
    let from_plane = |x: f64, y: f64| LonLat {
        lon: if cos_lat.abs() < 1e-12 {
            point.lon
        } else {
            point.lon + x / cos_lat
        },
        lat: point.lat + y,
    };
    for line in lines {
        let line = line.as_ref();
        if let [only] = line {
            f(LonLat {
                lon: only[0],
                lat: only[1],
            });
            continue;
        }
        for seg in line.windows(2) {
            let (ax, ay) = to_plane(seg[0]);
            let (bx, by) = to_plane(seg[1]);
            let (dx, dy) = (bx - ax, by - ay);
            let len2 = dx * dx + dy * dy;
            let t = if len2 == 0.0 {
                0.0
            } else {
                (-(ax * dx + ay * dy) / len2).clamp(0.0, 1.0)
            };
            f(from_plane(ax + t * dx, ay + t * dy));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_ranges() {
        assert!(LonLat::new(180.0, 90.0).is_ok());
        assert!(LonLat::new(-180.0, -90.0).is_ok());
        assert_eq!(LonLat::new(180.0001, 0.0), Err(CoordinateError::Longitude));
        assert_eq!(LonLat::new(0.0, -90.5), Err(CoordinateError::Latitude));
        assert_eq!(LonLat::new(f64::NAN, 0.0), Err(CoordinateError::Longitude));
    }

    #[test]
    fn one_degree_of_latitude_at_the_equator() {
        // Reference: 110 574.389 m (WGS84 meridian arc 0°..1°, GeographicLib).
        let d = distance_m(LonLat { lon: 0.0, lat: 0.0 }, LonLat { lon: 0.0, lat: 1.0 });
        assert!((d - 110_574.389).abs() < 0.01, "{d}");
    }

    #[test]
    fn rounded_distances_keep_ten_nanometres() {
        let a = LonLat {
            lon: 14.4,
            lat: 50.0,
        };
        for (b, want) in [
            (a, 0.0),
            // PostGIS: ST_Distance('POINT(14.4 50.0)'::geography, 'POINT(14.45 50.03)'::geography)
            (
                LonLat {
                    lon: 14.45,
                    lat: 50.03,
                },
                4896.68015618,
            ),
        ] {
            let d = rounded_distance_m(a, b);
            assert_eq!(d, want);
            assert!((d - distance_m(a, b)).abs() <= 5e-9);
            assert_eq!(d, (d * 1e8).round() / 1e8);
        }
    }

    #[test]
    fn distance_to_a_segment_is_perpendicular_not_to_a_vertex() {
        // A north-south segment 0.001° east of the point at 50°N, passing by it.
        let p = LonLat {
            lon: 14.0,
            lat: 50.0,
        };
        let line = vec![vec![[14.001, 49.99], [14.001, 50.01]]];
        let d = distance_to_lines_m(p, &line);
        let to_foot = distance_m(
            p,
            LonLat {
                lon: 14.001,
                lat: 50.0,
            },
        );
        assert!((d - to_foot).abs() < 0.05, "{d} vs {to_foot}");
        let to_vertex = distance_m(
            p,
            LonLat {
                lon: 14.001,
                lat: 49.99,
            },
        );
        assert!(d < to_vertex);
    }

    #[test]
    fn the_estimate_declines_outside_its_domain() {
        let p = LonLat {
            lon: 14.0,
            lat: 50.0,
        };
        assert!(distance_to_lines_estimate_m(p, &[vec![[14.2, 50.0], [14.4, 50.0]]]).is_none());
        assert!(distance_to_lines_estimate_m(p, Vec::<Vec<[f64; 2]>>::new()).is_none());
        let polar = LonLat {
            lon: 0.0,
            lat: 85.0,
        };
        assert!(distance_to_lines_estimate_m(polar, &[vec![[0.0, 85.001]]]).is_none());
        let near = distance_to_lines_estimate_m(p, &[vec![[14.001, 49.99], [14.001, 50.01]]]);
        let (estimate, bound) = near.unwrap();
        assert!((estimate - 71.7).abs() < 0.1, "{estimate}");
        assert!(bound < 0.0025, "{bound}");
    }

    #[test]
    fn bbox_contains_the_circle() {
        for lat in [0.0, 45.0, 60.0, 80.0] {
            let c = LonLat { lon: 10.0, lat };
            let b = bbox_around(c, 5000.0);
            // Walk the circle: 5 km east and north must be inside.
            let east = LonLat {
                lon: 10.0 + (5000.0 / (111_320.0 * f64::cos(f64::to_radians(lat)))),
                lat,
            };
            assert!(distance_m(c, east) > 4900.0);
            assert!(
                east.lon <= b[2] && b[0] <= 10.0 - (east.lon - 10.0),
                "lat {lat}: {b:?}"
            );
            assert!(b[3] - lat >= 5000.0 / 111_700.0, "lat {lat}: {b:?}");
        }
    }

    #[test]
    fn location_param() {
        let l = parse_location("14.42, 50.08,250").unwrap();
        assert_eq!(
            l.point,
            LonLat {
                lon: 14.42,
                lat: 50.08
            }
        );
        assert_eq!(l.radius_m, Some(250.0));
        assert_eq!(parse_location("14.42,50.08").unwrap().radius_m, None);
        assert_eq!(parse_location("14.42"), Err(LocationError::Shape));
        assert_eq!(parse_location("a,b"), Err(LocationError::Shape));
        assert_eq!(parse_location("1,2,3,4"), Err(LocationError::Shape));
        assert_eq!(parse_location("14,50,0"), Err(LocationError::Radius));
        assert_eq!(
            parse_location("200,50"),
            Err(LocationError::Coordinate(CoordinateError::Longitude))
        );
    }

    #[test]
    fn error_messages_name_their_keys() {
        let cases = [
            (LocationError::Shape.message(), "location-shape"),
            (LocationError::Radius.message(), "location-radius"),
            (
                LocationError::Coordinate(CoordinateError::Longitude).message(),
                "longitude-out-of-range",
            ),
            (
                LocationError::Coordinate(CoordinateError::Latitude).message(),
                "latitude-out-of-range",
            ),
        ];
        for (message, key) in cases {
            assert_eq!(message.key, key);
            assert!(message.args.is_empty(), "{message}");
        }
    }
}
