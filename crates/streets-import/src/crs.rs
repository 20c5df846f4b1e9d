//! Source coordinate reference systems and their reprojection to WGS84.
//!
//! A CRS is named by an EPSG code, looked up in the full EPSG table of `crs-definitions`
//! (PROJ's own definitions, with the datum shift PROJ uses by default where one Helmert
//! transformation is it), or defined by the file's WKT (see `prj`). Reprojection is done by
//! proj4rs. Two systems are kept apart from the table:
//! - EPSG:4326 and OGC:CRS84 pass through (GeoJSON positions are longitude, latitude);
//! - EPSG:5514, S-JTSK / Krovak East North, for which PROJ picks one of three Helmert
//!   transformations per point by area (the table holds only the coarsest).

use std::fmt;

use proj4rs::proj::Proj;

use crate::ImportError;

/// A coordinate reference system the importer can read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Crs {
    /// EPSG:4326, WGS 84 geographic; GeoJSON positions are read as [longitude, latitude].
    Wgs84,
    /// OGC:CRS84, WGS 84 with longitude first (GeoJSON's default).
    Crs84,
    /// EPSG:5514: S-JTSK / Krovak East North (negative easting and northing), with PROJ's
    /// choice among three datum shifts by area.
    SJtskKrovakEastNorth,
    /// Any other EPSG code of the EPSG table.
    Epsg(u16),
    /// A CRS defined by a file's WKT without an EPSG code the table knows.
    Wkt(Box<WktCrs>),
}

/// A CRS as a file's WKT defines it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WktCrs {
    /// The name of the WKT's root element.
    pub name: String,
    /// The definition as a PROJ string (`proj4wkt`).
    pub proj: String,
}

/// What the importer accepts as a CRS name, for error messages.
pub const SUPPORTED_CRS: &str = "an EPSG code of a projected or geographic CRS, e.g. EPSG:3067, \
     or OGC:CRS84";

impl Crs {
    /// The EPSG code, or `None` for OGC:CRS84 and a WKT definition.
    pub fn epsg_code(&self) -> Option<u32> {
        match self {
            Crs::Wgs84 => Some(4326),
            Crs::Crs84 | Crs::Wkt(_) => None,
            Crs::SJtskKrovakEastNorth => Some(5514),
            Crs::Epsg(code) => Some(u32::from(*code)),
        }
    }

    /// The CRS of an EPSG code; `None` when the table does not hold it.
    pub fn from_epsg(code: u32) -> Option<Crs> {
        match code {
            4326 => Some(Crs::Wgs84),
            5514 => Some(Crs::SJtskKrovakEastNorth),
            _ => {
                let code = u16::try_from(code).ok()?;
                crs_definitions::from_code(code).map(|_| Crs::Epsg(code))
            }
        }
    }

    /// The PROJ string of a table or WKT CRS.
    fn proj_string(&self) -> Option<&str> {
        match self {
            Crs::Epsg(code) => crs_definitions::from_code(*code).map(|d| d.proj4),
            Crs::Wkt(wkt) => Some(&wkt.proj),
            _ => None,
        }
    }
}

impl fmt::Display for Crs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Crs::Crs84 => f.write_str("OGC:CRS84"),
            Crs::Wkt(wkt) => write!(f, "{:?} (WKT)", wkt.name),
            other => match other.epsg_code() {
                Some(code) => write!(f, "EPSG:{code}"),
                None => f.write_str("an unnamed CRS"),
            },
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
/// `OGC:CRS84`, `CRS84`, or a bare EPSG code such as `5514`. Any code of the EPSG table is
/// accepted; one that is not in it is `UnsupportedCrs`, one whose definition proj4rs cannot
/// read is `UnreadableCrs`, both naming it.
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
    let crs = code
        .parse::<u32>()
        .ok()
        .and_then(Crs::from_epsg)
        .ok_or_else(unsupported)?;
    readable(crs)
}

/// The CRS, if proj4rs can set up its definition; `UnreadableCrs` naming it otherwise.
pub(crate) fn readable(crs: Crs) -> Result<Crs, ImportError> {
    if let Some(proj) = crs.proj_string() {
        let parsed = Proj::from_proj_string(proj).map_err(|e| ImportError::UnreadableCrs {
            name: crs.to_string(),
            reason: format!("{e} in {proj:?}"),
        })?;
        if parsed.is_geocent() {
            return Err(ImportError::UnreadableCrs {
                name: crs.to_string(),
                reason: "a geocentric CRS holds no map positions".to_owned(),
            });
        }
    }
    Ok(crs)
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
    const EVERYWHERE: Envelope = Envelope {
        min_x: f64::NEG_INFINITY,
        min_y: f64::NEG_INFINITY,
        max_x: f64::INFINITY,
        max_y: f64::INFINITY,
    };

    fn contains(&self, x: f64, y: f64) -> bool {
        (self.min_x..=self.max_x).contains(&x) && (self.min_y..=self.max_y).contains(&y)
    }
}

/// Where a CRS's coordinates may lie (checked before reprojecting, so that swapped axes or
/// another CRS's numbers are refused with the position named).
#[derive(Debug, Clone, Copy)]
enum Area {
    /// Longitude -180..180 and latitude -90..90 (degrees).
    LonLat,
    /// A UTM zone: easting 100000..900000 and northing 0..10000000.
    Utm,
    /// Web Mercator: x and y within ±20037508.34.
    WebMercator,
    /// A box of source coordinates, described.
    Box(Envelope, &'static str),
    /// Any finite numbers; the result must still be a valid WGS84 position.
    Any,
}

impl Area {
    /// The area of a CRS whose definition is this PROJ string.
    fn of_proj(proj: &str) -> Area {
        let has = |term: &str| proj.split_whitespace().any(|t| t == term);
        if has("+proj=longlat") || has("+proj=latlong") {
            Area::LonLat
        } else if has("+proj=utm") {
            Area::Utm
        } else if has("+proj=merc") && has("+a=6378137") && has("+b=6378137") {
            Area::WebMercator
        } else {
            Area::Any
        }
    }

    fn contains(&self, x: f64, y: f64) -> bool {
        match self {
            Area::LonLat => (-180.0..=180.0).contains(&x) && (-90.0..=90.0).contains(&y),
            Area::Utm => (100_000.0..=900_000.0).contains(&x) && (0.0..=10_000_000.0).contains(&y),
            Area::WebMercator => x.abs() <= WEB_MERCATOR_MAX && y.abs() <= WEB_MERCATOR_MAX,
            Area::Box(envelope, _) => envelope.contains(x, y),
            Area::Any => true,
        }
    }

    fn description(&self) -> String {
        match self {
            Area::LonLat => "longitude -180..180 and latitude -90..90".to_owned(),
            Area::Utm => "easting 100000..900000 and northing 0..10000000".to_owned(),
            Area::WebMercator => format!("x and y within ±{WEB_MERCATOR_MAX}"),
            Area::Box(e, place) => format!(
                "x {}..{} and y {}..{} ({place})",
                e.min_x, e.max_x, e.min_y, e.max_y
            ),
            Area::Any => "finite coordinates".to_owned(),
        }
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
    area: Area,
    kind: Kind,
}

enum Kind {
    Identity,
    Proj {
        dst: Box<Proj>,
        /// Operations in order of preference, each with the envelope where it applies.
        ops: Vec<(Envelope, Proj)>,
        /// The source is geographic: positions are degrees, proj4rs takes radians.
        degrees: bool,
    },
}

impl Reprojector {
    pub(crate) fn new(crs: &Crs) -> Result<Self, ImportError> {
        let build = |s: &str| {
            Proj::from_proj_string(s).map_err(|e| ImportError::Projection {
                crs: crs.clone(),
                reason: format!("cannot set up {s:?}: {e}"),
            })
        };
        let (area, ops) = match crs {
            Crs::Wgs84 | Crs::Crs84 => {
                return Ok(Self {
                    crs: crs.clone(),
                    area: Area::LonLat,
                    kind: Kind::Identity,
                })
            }
            Crs::SJtskKrovakEastNorth => (
                Area::Box(SJTSK_AREA, "Czechia and Slovakia"),
                vec![
                    (
                        SJTSK_SLOVAKIA,
                        build(&format!("{KROVAK} {TOWGS84_SLOVAKIA}"))?,
                    ),
                    (
                        SJTSK_CZECHIA,
                        build(&format!("{KROVAK} {TOWGS84_CZECHIA}"))?,
                    ),
                    (
                        Envelope::EVERYWHERE,
                        build(&format!("{KROVAK} {TOWGS84_WHOLE}"))?,
                    ),
                ],
            ),
            Crs::Epsg(_) | Crs::Wkt(_) => {
                let proj = crs.proj_string().ok_or_else(|| ImportError::Projection {
                    crs: crs.clone(),
                    reason: "the EPSG table does not hold it".to_owned(),
                })?;
                (
                    Area::of_proj(proj),
                    vec![(Envelope::EVERYWHERE, build(proj)?)],
                )
            }
        };
        let degrees = ops.iter().any(|(_, p)| p.is_latlong());
        Ok(Self {
            crs: crs.clone(),
            area,
            kind: Kind::Proj {
                dst: Box::new(build(WGS84_LONLAT)?),
                ops,
                degrees,
            },
        })
    }

    /// The CRS positions are read in.
    pub(crate) fn crs(&self) -> &Crs {
        &self.crs
    }

    /// Whether a source position lies inside the CRS's area of use.
    pub(crate) fn contains(&self, x: f64, y: f64) -> bool {
        self.area.contains(x, y)
    }

    /// A readable description of the area of use, for error messages.
    pub(crate) fn area_description(&self) -> String {
        self.area.description()
    }

    /// Reprojects one source position (already checked to be finite and inside the
    /// area of use) to [longitude, latitude] in degrees.
    pub(crate) fn to_wgs84(&self, x: f64, y: f64) -> Result<[f64; 2], String> {
        match &self.kind {
            Kind::Identity => Ok([x, y]),
            Kind::Proj { dst, ops, degrees } => {
                let Some((_, src)) = ops.iter().find(|(env, _)| env.contains(x, y)) else {
                    return Err(format!("no transformation from {} applies here", self.crs));
                };
                let mut point = if *degrees {
                    (x.to_radians(), y.to_radians(), 0.0)
                } else {
                    (x, y, 0.0)
                };
                proj4rs::transform::transform(src, dst, &mut point).map_err(|e| e.to_string())?;
                Ok([point.0.to_degrees(), point.1.to_degrees()])
            }
        }
    }
}
