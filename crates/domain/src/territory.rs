//! The city's territory: a report's location must lie inside it (`REPORT_OUTSIDE_CITY`).
//!
//! The service reads the boundary file (GeoJSON Polygon, MultiPolygon, or a Feature or
//! FeatureCollection of them) and hands the rings here; this module checks them and answers
//! "is this point inside?". A point on the boundary counts as inside (a report on the border
//! street belongs to the city), a point in a hole (an enclave) does not.

use geo::{BoundingRect, Coord, Intersects, LineString, MultiPolygon, Point, Polygon, Rect};
use thiserror::Error;

use crate::geo::LonLat;

/// One polygon: its outer ring, then its holes; each ring a list of `[longitude, latitude]`.
pub type Rings = Vec<Vec<[f64; 2]>>;

/// A boundary that cannot serve as the territory.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TerritoryError {
    #[error("the boundary has no polygon")]
    Empty,
    #[error("polygon {polygon}, ring {ring}: a ring needs at least 4 positions")]
    ShortRing { polygon: usize, ring: usize },
    #[error("polygon {polygon}, ring {ring}: a ring must end where it starts")]
    OpenRing { polygon: usize, ring: usize },
    #[error("polygon {polygon}, ring {ring}: a position is not a WGS84 longitude, latitude")]
    BadPosition { polygon: usize, ring: usize },
}

/// The checked territory.
#[derive(Debug, Clone)]
pub struct Territory {
    area: MultiPolygon<f64>,
    bounds: Rect<f64>,
}

impl Territory {
    /// Checks the rings (closed, at least 4 positions, WGS84 ranges) and builds the territory.
    pub fn new(polygons: &[Rings]) -> Result<Self, TerritoryError> {
        let mut built = Vec::with_capacity(polygons.len());
        for (p, rings) in polygons.iter().enumerate() {
            let mut lines = Vec::with_capacity(rings.len());
            for (r, ring) in rings.iter().enumerate() {
                lines.push(ring_line(ring, p, r)?);
            }
            let mut lines = lines.into_iter();
            let Some(exterior) = lines.next() else {
                return Err(TerritoryError::ShortRing {
                    polygon: p,
                    ring: 0,
                });
            };
            built.push(Polygon::new(exterior, lines.collect()));
        }
        let area = MultiPolygon::new(built);
        let bounds = area.bounding_rect().ok_or(TerritoryError::Empty)?;
        Ok(Self { area, bounds })
    }

    /// Whether `point` lies inside the territory or on its boundary.
    pub fn contains(&self, point: LonLat) -> bool {
        let p = Point::new(point.lon, point.lat);
        self.bounds.intersects(&p) && self.area.intersects(&p)
    }

    /// `[min_lon, min_lat, max_lon, max_lat]`, e.g. for a map's initial view.
    pub fn bounds(&self) -> [f64; 4] {
        let (min, max) = (self.bounds.min(), self.bounds.max());
        [min.x, min.y, max.x, max.y]
    }
}

fn ring_line(
    ring: &[[f64; 2]],
    polygon: usize,
    index: usize,
) -> Result<LineString<f64>, TerritoryError> {
    if ring.len() < 4 {
        return Err(TerritoryError::ShortRing {
            polygon,
            ring: index,
        });
    }
    if ring.first() != ring.last() {
        return Err(TerritoryError::OpenRing {
            polygon,
            ring: index,
        });
    }
    let valid = |[lon, lat]: [f64; 2]| LonLat::new(lon, lat).is_ok();
    if !ring.iter().copied().all(valid) {
        return Err(TerritoryError::BadPosition {
            polygon,
            ring: index,
        });
    }
    Ok(LineString::new(
        ring.iter().map(|&[x, y]| Coord { x, y }).collect(),
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<[f64; 2]> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
    }

    fn at(lon: f64, lat: f64) -> LonLat {
        LonLat::new(lon, lat).unwrap()
    }

    #[test]
    fn inside_outside_boundary_and_holes() {
        // A city with an enclave, and a detached exclave.
        let city = vec![
            square(14.2, 49.9, 14.7, 50.2),
            square(14.4, 50.0, 14.5, 50.1),
        ];
        let exclave = vec![square(15.0, 50.0, 15.1, 50.1)];
        let t = Territory::new(&[city, exclave]).unwrap();
        let cases = [
            (14.3, 50.05, true, "inside"),
            (14.45, 50.05, false, "in the enclave"),
            (14.4, 50.05, true, "on the enclave's edge"),
            (14.2, 50.0, true, "on the outer boundary"),
            (14.7, 50.2, true, "on a corner"),
            (14.19999, 50.0, false, "just outside"),
            (15.05, 50.05, true, "in the exclave"),
            (14.9, 50.05, false, "between the two"),
            (-74.0, 40.7, false, "far away"),
        ];
        for (lon, lat, inside, what) in cases {
            assert_eq!(t.contains(at(lon, lat)), inside, "{what}");
        }
        assert_eq!(t.bounds(), [14.2, 49.9, 15.1, 50.2]);
    }

    #[test]
    fn refuses_unusable_boundaries() {
        assert_eq!(Territory::new(&[]).unwrap_err(), TerritoryError::Empty);
        assert_eq!(
            Territory::new(&[vec![]]).unwrap_err(),
            TerritoryError::ShortRing {
                polygon: 0,
                ring: 0
            }
        );
        let short = vec![vec![[14.0, 50.0], [14.1, 50.0], [14.0, 50.0]]];
        assert_eq!(
            Territory::new(&[short]).unwrap_err(),
            TerritoryError::ShortRing {
                polygon: 0,
                ring: 0
            }
        );
        let mut open = square(14.0, 50.0, 14.1, 50.1);
        open.pop();
        open.push([14.05, 50.0]);
        assert_eq!(
            Territory::new(&[vec![square(1.0, 1.0, 2.0, 2.0)], vec![open]]).unwrap_err(),
            TerritoryError::OpenRing {
                polygon: 1,
                ring: 0
            }
        );
        let bad = vec![square(14.0, 50.0, 14.1, 91.0)];
        assert_eq!(
            Territory::new(&[bad]).unwrap_err(),
            TerritoryError::BadPosition {
                polygon: 0,
                ring: 0
            }
        );
    }
}
