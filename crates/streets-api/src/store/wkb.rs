//! Geometries between Rust and PostGIS as WKB, through geozero (design brief: geozero for the
//! conversions): written as ISO WKB, read back with `ST_AsBinary(geog::geometry)`.

use geo_types::{Coord, LineString, MultiLineString};
use geozero::wkb::Wkb;
use geozero::{CoordDimensions, ToGeo, ToWkb};

/// Lines of `[lon, lat]` as the WKB of a 2D MultiLineString.
pub fn multilinestring_wkb(lines: &[Vec<[f64; 2]>]) -> geozero::error::Result<Vec<u8>> {
    let geometry = MultiLineString::new(
        lines
            .iter()
            .map(|line| LineString::new(line.iter().map(|&[x, y]| Coord { x, y }).collect()))
            .collect(),
    );
    geo_types::Geometry::MultiLineString(geometry).to_wkb(CoordDimensions::xy())
}

/// The lines of a (Multi)LineString's WKB, as `ST_AsBinary` gives it; `None` for any other
/// geometry.
pub fn lines_from_wkb(wkb: &[u8]) -> geozero::error::Result<Option<Vec<Vec<[f64; 2]>>>> {
    let line = |l: &LineString| l.coords().map(|c| [c.x, c.y]).collect::<Vec<_>>();
    Ok(match Wkb(wkb).to_geo()? {
        geo_types::Geometry::MultiLineString(m) => Some(m.0.iter().map(line).collect()),
        geo_types::Geometry::LineString(l) => Some(vec![line(&l)]),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn round_trip_keeps_every_bit() {
        let lines = vec![
            vec![[14.437_812_345_678_9, 50.075_5], [14.441_2, 50.076_1]],
            vec![[-0.1, 0.1], [1e-300, -1e300], [180.0, -90.0]],
        ];
        let wkb = multilinestring_wkb(&lines).unwrap();
        // ISO WKB, little endian, type 5 (MultiLineString), 2 lines.
        assert_eq!(&wkb[..9], &[1, 5, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(lines_from_wkb(&wkb).unwrap(), Some(lines));
    }
}
