//! Source coordinate reference systems and their reprojection to WGS84.

use std::fmt;

use proj4rs::proj::Proj;

use crate::ImportError;

/// A coordinate reference system the importer can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Crs {
    /// EPSG:4326, WGS 84 geographic; GeoJSON positions are read as [longitude, latitude].
    Wgs84,
    /// OGC:CRS84, WGS 84 with longitude first (GeoJSON's default).
    Crs84,
    /// EPSG:3857, WGS 84 / Pseudo-Mercator.
    WebMercator,
    /// EPSG:326zz (north) and EPSG:327zz (south): WGS 84 / UTM zone zz.
    WgsUtm { zone: u8, north: bool },
    /// EPSG:258zz: ETRS89 / UTM zone zzN (zones 28 to 37).
    EtrsUtm { zone: u8 },
    /// EPSG:5514: S-JTSK / Krovak East North (negative easting and northing).
    SJtskKrovakEastNorth,
}

/// The CRS strings every supported system can be named with, for error messages.
pub const SUPPORTED_CRS: &str = "EPSG:4326, OGC:CRS84, EPSG:3857, EPSG:5514, \
     EPSG:32601-32660, EPSG:32701-32760, EPSG:25828-25837";

impl Crs {
    /// The EPSG code, or `None` for OGC:CRS84.
    pub fn epsg_code(&self) -> Option<u32> {
        match *self {
            Crs::Wgs84 => Some(4326),
            Crs::Crs84 => None,
            Crs::WebMercator => Some(3857),
            Crs::WgsUtm { zone, north } => {
                Some(if north { 32600 } else { 32700 } + u32::from(zone))
            }
            Crs::EtrsUtm { zone } => Some(25800 + u32::from(zone)),
            Crs::SJtskKrovakEastNorth => Some(5514),
        }
    }

    fn from_epsg(code: u32) -> Option<Crs> {
        match code {
            4326 => Some(Crs::Wgs84),
            3857 => Some(Crs::WebMercator),
            5514 => Some(Crs::SJtskKrovakEastNorth),
            32601..=32660 => Some(Crs::WgsUtm {
                zone: u8::try_from(code - 32600).ok()?,
                north: true,
            }),
            32701..=32760 => Some(Crs::WgsUtm {
                zone: u8::try_from(code - 32700).ok()?,
                north: false,
            }),
            25828..=25837 => Some(Crs::EtrsUtm {
                zone: u8::try_from(code - 25800).ok()?,
            }),
            _ => None,
        }
    }

    /// Whether a source position lies inside this CRS's area of use.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        match *self {
            Crs::Wgs84 | Crs::Crs84 => (-180.0..=180.0).contains(&x) && (-90.0..=90.0).contains(&y),
            Crs::WebMercator => x.abs() <= WEB_MERCATOR_MAX && y.abs() <= WEB_MERCATOR_MAX,
            Crs::WgsUtm { .. } | Crs::EtrsUtm { .. } => {
                (100_000.0..=900_000.0).contains(&x) && (0.0..=10_000_000.0).contains(&y)
            }
            Crs::SJtskKrovakEastNorth => SJTSK_AREA.contains(x, y),
        }
    }

    /// A readable description of the area of use, for error messages.
    pub fn area_description(&self) -> String {
        match *self {
            Crs::Wgs84 | Crs::Crs84 => "longitude -180..180 and latitude -90..90".to_owned(),
            Crs::WebMercator => format!("x and y within ±{WEB_MERCATOR_MAX}"),
            Crs::WgsUtm { .. } | Crs::EtrsUtm { .. } => {
                "easting 100000..900000 and northing 0..10000000".to_owned()
            }
            Crs::SJtskKrovakEastNorth => format!(
                "x {}..{} and y {}..{} (Czechia and Slovakia)",
                SJTSK_AREA.min_x, SJTSK_AREA.max_x, SJTSK_AREA.min_y, SJTSK_AREA.max_y
            ),
        }
    }
}

impl fmt::Display for Crs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.epsg_code() {
            Some(code) => write!(f, "EPSG:{code}"),
            None => f.write_str("OGC:CRS84"),
        }
    }
}

impl std::str::FromStr for Crs {
    type Err = ImportError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_crs(s)
    }
}

/// Parses a CRS name: `EPSG:5514`, `epsg:3857`, `urn:ogc:def:crs:EPSG::5514`
/// (also with a version, `urn:ogc:def:crs:EPSG:9.8.15:5514`),
/// `http://www.opengis.net/def/crs/EPSG/0/5514`, `urn:ogc:def:crs:OGC:1.3:CRS84`,
/// `OGC:CRS84`, `CRS84`, or a bare EPSG code such as `5514`.
pub fn parse_crs(s: &str) -> Result<Crs, ImportError> {
    let unsupported = || ImportError::UnsupportedCrs(s.to_owned());
    let trimmed = s.trim();
    let lower = trimmed.to_ascii_lowercase();

    if matches!(
        lower.as_str(),
        "crs84"
            | "ogc:crs84"
            | "urn:ogc:def:crs:ogc:1.3:crs84"
            | "urn:ogc:def:crs:ogc::crs84"
            | "http://www.opengis.net/def/crs/ogc/1.3/crs84"
            | "https://www.opengis.net/def/crs/ogc/1.3/crs84"
    ) {
        return Ok(Crs::Crs84);
    }

    let code = if let Some(rest) = lower.strip_prefix("epsg:") {
        rest
    } else if let Some(rest) = lower.strip_prefix("urn:ogc:def:crs:epsg:") {
        // urn:ogc:def:crs:EPSG:{version}:{code}; the version may be empty.
        match rest.split_once(':') {
            Some((_version, code)) => code,
            None => return Err(unsupported()),
        }
    } else if let Some(rest) = lower
        .strip_prefix("http://www.opengis.net/def/crs/epsg/")
        .or_else(|| lower.strip_prefix("https://www.opengis.net/def/crs/epsg/"))
    {
        match rest.split_once('/') {
            Some((_version, code)) => code,
            None => return Err(unsupported()),
        }
    } else {
        lower.as_str()
    };

    if code.is_empty() || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unsupported());
    }
    code.parse::<u32>()
        .ok()
        .and_then(Crs::from_epsg)
        .ok_or_else(unsupported)
}

const WEB_MERCATOR_MAX: f64 = 20_037_508.342_789_244;

/// A rectangle in source coordinates.
#[derive(Debug, Clone, Copy)]
struct Envelope {
    min_x: f64,
    min_y: f64,
    max_x: f64,
    max_y: f64,
}

impl Envelope {
    fn contains(&self, x: f64, y: f64) -> bool {
        (self.min_x..=self.max_x).contains(&x) && (self.min_y..=self.max_y).contains(&y)
    }
}

// S-JTSK -> WGS 84: PROJ (9.5, pyproj 3.7) offers three Helmert transformations from
// EPSG:5514 and picks one per point, exactly like `proj_trans` does: among the
// operations whose area of use (as an envelope in EPSG:5514 coordinates, the
// envelope of the EPSG lon/lat box densified with 21 points per edge) holds the
// point, the most accurate one wins, and between equally accurate ones the one with
// the smaller area. The envelopes below are PROJ's, printed by pyproj's
// `transform_bounds(..., densify_pts=21)`, each shrunk inward to the whole metre.

/// Area of use of EPSG:5514 and of "S-JTSK to WGS 84 (3)" (EPSG:1623), Czechia and
/// Slovakia, 12.09..22.56 E, 47.73..51.06 N.
const SJTSK_AREA: Envelope = Envelope {
    min_x: -951_499.0,
    min_y: -1_353_306.0,
    max_x: -159_366.0,
    max_y: -911_042.0,
};

/// "S-JTSK to WGS 84 (4)" (EPSG:4836), Slovakia, 16.84..22.56 E, 47.73..49.61 N,
/// accuracy 1 m. Its area is smaller than Czechia's, so PROJ prefers it where they
/// overlap (which covers Brno, Olomouc and Zlín).
const SJTSK_SLOVAKIA: Envelope = Envelope {
    min_x: -598_360.0,
    min_y: -1_353_306.0,
    max_x: -164_133.0,
    max_y: -1_116_658.0,
};

/// "S-JTSK to WGS 84 (5)" (EPSG:5239), Czechia, 12.09..18.86 E, 48.58..51.06 N,
/// accuracy 1 m.
const SJTSK_CZECHIA: Envelope = Envelope {
    min_x: -935_719.0,
    min_y: -1_244_159.0,
    max_x: -418_598.0,
    max_y: -911_042.0,
};

const KROVAK: &str = "+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 \
     +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +units=m +no_defs";

/// EPSG:5239 is given in the coordinate-frame convention (rx=-4.9732 ry=-1.529
/// rz=-5.2484 arc-seconds); `+towgs84` takes position-vector rotations, so the signs
/// of the rotations are flipped.
const TOWGS84_CZECHIA: &str = "+towgs84=572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378";
/// EPSG:4836, position vector.
const TOWGS84_SLOVAKIA: &str = "+towgs84=485,169.5,483.8,7.786,4.398,4.103,0";
/// EPSG:1623, three parameters, accuracy 6 m.
const TOWGS84_WHOLE: &str = "+towgs84=589,76,480,0,0,0,0";

const WGS84_LONLAT: &str = "+proj=longlat +datum=WGS84 +no_defs";

/// Converts positions of one source CRS to WGS84 [longitude, latitude] degrees.
pub(crate) struct Reprojector {
    crs: Crs,
    kind: Kind,
}

enum Kind {
    Identity,
    Proj {
        dst: Box<Proj>,
        /// Operations in order of preference, each with the envelope where it applies.
        ops: Vec<(Envelope, Proj)>,
    },
}

impl Reprojector {
    pub(crate) fn new(crs: Crs) -> Result<Self, ImportError> {
        let build = |s: &str| {
            Proj::from_proj_string(s).map_err(|e| ImportError::Projection {
                crs,
                reason: format!("cannot set up {s:?}: {e}"),
            })
        };
        let everywhere = Envelope {
            min_x: f64::NEG_INFINITY,
            min_y: f64::NEG_INFINITY,
            max_x: f64::INFINITY,
            max_y: f64::INFINITY,
        };
        let ops = match crs {
            Crs::Wgs84 | Crs::Crs84 => {
                return Ok(Self {
                    crs,
                    kind: Kind::Identity,
                })
            }
            Crs::WebMercator => vec![(
                everywhere,
                build(
                    "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 \
                     +units=m +nadgrids=@null +no_defs",
                )?,
            )],
            Crs::WgsUtm { zone, north } => {
                let south = if north { "" } else { " +south" };
                vec![(
                    everywhere,
                    build(&format!(
                        "+proj=utm +zone={zone}{south} +datum=WGS84 +units=m +no_defs"
                    ))?,
                )]
            }
            // PROJ's default ETRS89 -> WGS 84 is "ETRS89 to WGS 84 (1)", a null shift.
            Crs::EtrsUtm { zone } => vec![(
                everywhere,
                build(&format!(
                    "+proj=utm +zone={zone} +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs"
                ))?,
            )],
            Crs::SJtskKrovakEastNorth => vec![
                (
                    SJTSK_SLOVAKIA,
                    build(&format!("{KROVAK} {TOWGS84_SLOVAKIA}"))?,
                ),
                (
                    SJTSK_CZECHIA,
                    build(&format!("{KROVAK} {TOWGS84_CZECHIA}"))?,
                ),
                (everywhere, build(&format!("{KROVAK} {TOWGS84_WHOLE}"))?),
            ],
        };
        Ok(Self {
            crs,
            kind: Kind::Proj {
                dst: Box::new(build(WGS84_LONLAT)?),
                ops,
            },
        })
    }

    /// Reprojects one source position (already checked to be finite and inside the
    /// area of use) to [longitude, latitude] in degrees.
    pub(crate) fn to_wgs84(&self, x: f64, y: f64) -> Result<[f64; 2], String> {
        match &self.kind {
            Kind::Identity => Ok([x, y]),
            Kind::Proj { dst, ops } => {
                let Some((_, src)) = ops.iter().find(|(env, _)| env.contains(x, y)) else {
                    return Err(format!("no transformation from {} applies here", self.crs));
                };
                let mut point = (x, y, 0.0);
                proj4rs::transform::transform(src, dst, &mut point).map_err(|e| e.to_string())?;
                Ok([point.0.to_degrees(), point.1.to_degrees()])
            }
        }
    }
}
