//! The checks every format shares: number, name, lines, the source CRS's area, reprojection
//! (the uniqueness of numbers is the pipeline's).

use serde_json::Value;

use crate::crs::Reprojector;
use crate::FeatureProblem;

pub(crate) type FeatureResult<T> = Result<T, (Option<i64>, FeatureProblem)>;

/// Checks lines already read from a binary geometry and reprojects them.
pub(crate) fn check_lines(
    raw: &[Vec<[f64; 2]>],
    reprojector: &Reprojector,
) -> Result<Vec<Vec<[f64; 2]>>, FeatureProblem> {
    if raw.is_empty() {
        return Err(FeatureProblem::EmptyGeometry);
    }
    reproject_lines(
        raw.iter().map(Vec::as_slice),
        reprojector,
        |&[x, y], _, _| Ok((x, y)),
    )
}

/// Each line with at least two positions, each position read by `read_position(position,
/// line, index)` and reprojected.
pub(crate) fn reproject_lines<'a, P: 'a>(
    lines: impl IntoIterator<Item = &'a [P]>,
    reprojector: &Reprojector,
    read_position: impl Fn(&P, usize, usize) -> Result<(f64, f64), FeatureProblem>,
) -> Result<Vec<Vec<[f64; 2]>>, FeatureProblem> {
    lines
        .into_iter()
        .enumerate()
        .map(|(line, positions)| {
            if positions.len() < 2 {
                return Err(FeatureProblem::TooFewPositions {
                    line,
                    count: positions.len(),
                });
            }
            positions
                .iter()
                .enumerate()
                .map(|(position, value)| {
                    let (x, y) = read_position(value, line, position)?;
                    reproject(x, y, reprojector, line, position)
                })
                .collect()
        })
        .collect()
}

/// `I_GM_U`: a JSON integer, an integral number such as `12.0`, or a string of digits.
pub(crate) fn read_number(value: Option<&Value>) -> Result<i64, FeatureProblem> {
    let invalid = |v: &Value| FeatureProblem::InvalidNumber(v.to_string());
    match value {
        None | Some(Value::Null) => Err(FeatureProblem::MissingNumber),
        Some(v @ Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                Ok(i)
            } else if let Some(f) = n.as_f64() {
                // 2^63 as f64; integral values within (-2^63, 2^63) convert exactly.
                const LIMIT: f64 = 9_223_372_036_854_775_808.0;
                if f.is_finite() && f.fract() == 0.0 && f > -LIMIT && f < LIMIT {
                    #[allow(clippy::cast_possible_truncation)]
                    Ok(f as i64)
                } else {
                    Err(invalid(v))
                }
            } else {
                Err(invalid(v))
            }
        }
        Some(v @ Value::String(s)) => {
            let s = s.trim();
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                s.parse::<i64>().map_err(|_| invalid(v))
            } else {
                Err(invalid(v))
            }
        }
        Some(v) => Err(invalid(v)),
    }
}

pub(crate) fn read_name(value: Option<&Value>) -> Result<String, FeatureProblem> {
    match value {
        None | Some(Value::Null) => Err(FeatureProblem::MissingName),
        Some(Value::String(s)) => {
            let s = s.trim();
            if s.is_empty() {
                Err(FeatureProblem::EmptyName)
            } else {
                Ok(s.to_owned())
            }
        }
        Some(v) => Err(FeatureProblem::InvalidName(v.to_string())),
    }
}

/// Checks a source position and brings it to WGS84 [longitude, latitude].
pub(crate) fn reproject(
    x: f64,
    y: f64,
    reprojector: &Reprojector,
    line: usize,
    position: usize,
) -> Result<[f64; 2], FeatureProblem> {
    if !x.is_finite() || !y.is_finite() {
        return Err(FeatureProblem::NonFiniteCoordinate { line, position });
    }
    let crs = || reprojector.crs().clone();
    if !reprojector.contains(x, y) {
        return Err(FeatureProblem::OutsideArea {
            line,
            position,
            x,
            y,
            crs: crs(),
            area: reprojector.area_description(),
        });
    }
    let [lon, lat] = reprojector
        .to_wgs84(x, y)
        .map_err(|reason| FeatureProblem::Reprojection {
            line,
            position,
            x,
            y,
            crs: crs(),
            reason,
        })?;
    if !(lon.is_finite()
        && lat.is_finite()
        && (-180.0..=180.0).contains(&lon)
        && (-90.0..=90.0).contains(&lat))
    {
        return Err(FeatureProblem::OutsideWgs84 {
            line,
            position,
            x,
            y,
            crs: crs(),
            lon,
            lat,
        });
    }
    Ok([lon, lat])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::{Crs, FeatureProblem, ImportError};

    #[test]
    fn non_finite_coordinates_are_refused() {
        // JSON cannot carry NaN or infinity, so this check is reached only here.
        let identity = Reprojector::new(&Crs::Wgs84).unwrap();
        for (x, y) in [
            (f64::NAN, 50.0),
            (14.0, f64::INFINITY),
            (f64::NEG_INFINITY, 0.0),
        ] {
            let err = reproject(x, y, &identity, 2, 5).unwrap_err();
            assert_eq!(
                err,
                FeatureProblem::NonFiniteCoordinate {
                    line: 2,
                    position: 5
                }
            );
        }
        let err = ImportError::Feature {
            index: 4,
            number: Some(77),
            problem: FeatureProblem::NonFiniteCoordinate {
                line: 2,
                position: 5,
            },
        };
        assert_eq!(
            err.to_string(),
            "feature at index 4 (I_GM_U 77): line 2, position 5: coordinate is not a finite number"
        );
    }

    #[test]
    fn results_outside_valid_lon_lat_are_refused() {
        // A Mercator that does not wrap longitudes (`+over`) and has no area check gives
        // longitude 269° for x = 30 000 km.
        let wide = Reprojector::new(&Crs::Wkt(Box::new(crate::WktCrs {
            name: "Mercator, not wrapped".to_owned(),
            proj: "+proj=merc +datum=WGS84 +over +units=m".to_owned(),
        })))
        .unwrap();
        let err = reproject(30_000_000.0, 0.0, &wide, 0, 1).unwrap_err();
        assert!(
            matches!(
                err,
                FeatureProblem::OutsideWgs84 {
                    line: 0,
                    position: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("not a valid WGS84 position"),
            "{err}"
        );
    }

    #[test]
    fn feature_without_readable_number_is_named_by_index_only() {
        let err = ImportError::Feature {
            index: 3,
            number: None,
            problem: FeatureProblem::MissingNumber,
        };
        assert_eq!(
            err.to_string(),
            "feature at index 3: has no property I_GM_U"
        );
    }
}
