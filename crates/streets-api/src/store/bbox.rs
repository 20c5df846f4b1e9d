//! The `bbox` filter of the features API (OGC API – Features Part 1): a street is selected when
//! its geometry intersects the box, in CRS84 coordinates as they are (planar, longitude then
//! latitude). The test is geo's `Intersects` of each segment with the rectangle; every backend
//! and the read model use it, so all answer alike.

use geo::{coord, Intersects, Line, Rect};

/// The boxes of one `bbox` parameter: one, or two when it crosses the antimeridian (west edge
/// greater than the east edge, as the standard allows).
#[derive(Debug, Clone, PartialEq)]
pub struct BoxFilter {
    boxes: Vec<[f64; 4]>,
}

impl BoxFilter {
    /// The filter of a validated `[west, south, east, north]`.
    pub fn new(bbox: [f64; 4]) -> Self {
        let [west, south, east, north] = bbox;
        let boxes = if west > east {
            vec![[west, south, 180.0, north], [-180.0, south, east, north]]
        } else {
            vec![bbox]
        };
        Self { boxes }
    }

    /// The boxes as `[min_lon, min_lat, max_lon, max_lat]`, each with west ≤ east.
    pub fn boxes(&self) -> &[[f64; 4]] {
        &self.boxes
    }

    /// Whether any segment of the lines intersects (touches or crosses, or lies in) a box.
    pub fn intersects<'a>(&self, lines: impl IntoIterator<Item = &'a [[f64; 2]]>) -> bool {
        let rects: Vec<Rect<f64>> = self
            .boxes
            .iter()
            .map(|b| Rect::new(coord! {x: b[0], y: b[1]}, coord! {x: b[2], y: b[3]}))
            .collect();
        lines.into_iter().any(|line| {
            line.windows(2).any(|pair| {
                let segment = Line::new(
                    coord! {x: pair[0][0], y: pair[0][1]},
                    coord! {x: pair[1][0], y: pair[1][1]},
                );
                rects.iter().any(|r| r.intersects(&segment))
            }) || (line.len() == 1
                && rects
                    .iter()
                    .any(|r| r.intersects(&coord! {x: line[0][0], y: line[0][1]})))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(bbox: [f64; 4], line: &[[f64; 2]]) -> bool {
        BoxFilter::new(bbox).intersects([line])
    }

    #[test]
    fn inside_crossing_touching_and_outside() {
        let b = [0.0, 0.0, 1.0, 1.0];
        assert!(hit(b, &[[0.2, 0.2], [0.3, 0.3]]), "inside");
        assert!(
            hit(b, &[[-1.0, 0.5], [2.0, 0.5]]),
            "crosses without a vertex inside"
        );
        assert!(hit(b, &[[1.0, 1.0], [2.0, 2.0]]), "touches a corner");
        assert!(!hit(b, &[[1.1, 0.0], [2.0, 2.0]]), "outside");
        // Both ends outside, the segment passes beside the corner.
        assert!(!hit(b, &[[0.5, 1.6], [1.6, 0.5]]));
        assert!(hit(b, &[[0.4, 1.4], [1.4, 0.4]]));
    }

    #[test]
    fn across_the_antimeridian() {
        let b = [179.0, -1.0, -179.0, 1.0];
        assert_eq!(BoxFilter::new(b).boxes().len(), 2);
        assert!(hit(b, &[[179.5, 0.0], [179.6, 0.0]]));
        assert!(hit(b, &[[-179.5, 0.0], [-179.6, 0.0]]));
        assert!(!hit(b, &[[0.0, 0.0], [1.0, 0.0]]));
    }
}
