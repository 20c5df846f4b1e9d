//! A CRS from WKT (a Shapefile's `.prj`, or a GeoPackage / FlatGeobuf definition), in this
//! order:
//! 1. the EPSG authority of the top-level element, when the EPSG table holds it;
//! 2. the names ESRI and GDAL write for S-JTSK Krovak East North, UTM, Web Mercator and WGS 84
//!    (S-JTSK needs PROJ's per-area datum shifts, see `crs`);
//! 3. the WKT itself, turned into a PROJ string by `proj4wkt`. A WKT without an authority (an
//!    ESRI `.prj` never has one) lacks the datum shift PROJ would use, so the EPSG table is
//!    searched for the same projection on the same ellipsoid (`identify`): when the matches
//!    agree on the datum shift, or the WKT's datum name picks one, that EPSG definition is used,
//!    as PROJ identifies an ESRI WKT. Otherwise the WKT is used as it is (its own TOWGS84, or
//!    none).

use std::collections::BTreeMap;

use crate::crs::{readable, WktCrs};
use crate::{parse_crs, Crs, ImportError};

/// The CRS the WKT defines; `UnsupportedCrs` / `UnreadableCrs` with its name otherwise.
pub(crate) fn crs_from_wkt(wkt: &str) -> Result<Crs, ImportError> {
    let wkt = wkt.trim().trim_start_matches('\u{feff}');
    if let Some(crs) = top_level_epsg(wkt).and_then(Crs::from_epsg) {
        return readable(crs);
    }
    let name = top_level_name(wkt)
        .ok_or_else(|| ImportError::UnsupportedCrs(format!("unreadable WKT {wkt:?}")))?;
    if let Some(code) = epsg_for_name(&normalise(name)) {
        return parse_crs(&format!("EPSG:{code}"));
    }
    let proj = proj4wkt::wkt_to_projstring(wkt).map_err(|e| ImportError::UnreadableCrs {
        name: format!("{name:?}"),
        reason: format!("its WKT cannot be read: {e}"),
    })?;
    if let Some(crs) = identify(&proj, datum_name(wkt)).and_then(Crs::from_epsg) {
        return readable(crs);
    }
    readable(Crs::Wkt(Box::new(WktCrs {
        name: name.to_owned(),
        proj,
    })))
}

/// The PROJ parameters that define a projection on an ellipsoid, with PROJ's defaults filled
/// in; UTM written as the transverse Mercator it is.
#[derive(Debug, PartialEq)]
struct Definition {
    projection: String,
    numbers: BTreeMap<&'static str, f64>,
    flags: Vec<String>,
}

const NUMBERS: &[(&str, f64)] = &[
    ("lat_0", 0.0),
    ("lon_0", 0.0),
    ("lat_1", 0.0),
    ("lat_2", 0.0),
    ("lat_ts", 0.0),
    ("lonc", 0.0),
    ("alpha", 0.0),
    ("gamma", 0.0),
    ("k_0", 1.0),
    ("x_0", 0.0),
    ("y_0", 0.0),
    ("a", 0.0),
    ("rf", 0.0),
    ("to_meter", 1.0),
];

impl Definition {
    /// The definition of a PROJ string as proj4wkt writes it (ellipsoid as `+a` and `+rf`).
    fn of(proj: &str) -> Option<Definition> {
        let mut projection = None;
        let mut numbers: BTreeMap<&'static str, f64> = NUMBERS.iter().copied().collect();
        let mut flags = Vec::new();
        for term in proj.split_whitespace() {
            let term = term.trim_start_matches('+');
            match term.split_once('=') {
                Some(("proj", p)) => projection = Some(p.to_owned()),
                Some(("k", v)) => {
                    numbers.insert("k_0", v.parse().ok()?);
                }
                Some(("units", "m")) => {}
                Some(("units", _)) => return None,
                Some((key, v)) => {
                    if let Some(&(key, _)) = NUMBERS.iter().find(|(k, _)| *k == key) {
                        numbers.insert(key, v.parse().ok()?);
                    }
                }
                None if term == "south" => flags.push(term.to_owned()),
                None => {}
            }
        }
        let mut projection = projection?;
        if projection == "utm" {
            let zone: f64 = proj
                .split_whitespace()
                .find_map(|t| t.strip_prefix("+zone="))?
                .parse()
                .ok()?;
            projection = "tmerc".to_owned();
            numbers.insert("lon_0", zone * 6.0 - 183.0);
            numbers.insert("k_0", 0.9996);
            numbers.insert("x_0", 500_000.0);
            if flags.iter().any(|f| f == "south") {
                numbers.insert("y_0", 10_000_000.0);
            }
            flags.retain(|f| f != "south");
        }
        Some(Definition {
            projection,
            numbers,
            flags,
        })
    }

    fn same_as(&self, other: &Definition) -> bool {
        self.projection == other.projection
            && self.flags == other.flags
            && self.numbers.iter().all(|(key, a)| {
                let b = other.numbers.get(key).copied().unwrap_or(f64::NAN);
                (a - b).abs() <= 1e-9 * a.abs().max(1.0)
            })
    }
}

/// The datum shift part of a table definition (`+towgs84`, `+datum`, `+nadgrids`); a null
/// shift (all-zero `+towgs84`, `+datum=WGS84`) is none.
fn datum_shift(proj4: &str) -> Vec<&str> {
    proj4
        .split_whitespace()
        .filter(|t| {
            (t.starts_with("+towgs84=") || t.starts_with("+datum=") || t.starts_with("+nadgrids="))
                && *t != "+datum=WGS84"
                && !t
                    .strip_prefix("+towgs84=")
                    .is_some_and(|v| v.split(',').all(|n| n.parse() == Ok(0.0)))
        })
        .collect()
}

/// The EPSG code of the table's definitions with the same projection and ellipsoid as `proj`,
/// when they agree on the datum shift (after keeping those whose datum has the WKT's datum
/// name, if they do not).
fn identify(proj: &str, datum: Option<&str>) -> Option<u32> {
    let wanted = Definition::of(proj)?;
    fn projection_of(proj4: &str) -> Option<&str> {
        let p = proj4
            .split_whitespace()
            .find_map(|t| t.strip_prefix("+proj="))?;
        Some(if p == "utm" { "tmerc" } else { p })
    }
    let mut matches = Vec::new();
    for code in 0..=u16::MAX {
        let Some(def) = crs_definitions::from_code(code) else {
            continue;
        };
        if projection_of(def.proj4) != Some(wanted.projection.as_str()) {
            continue;
        }
        let Ok(theirs) = proj4wkt::wkt_to_projstring(def.wkt) else {
            continue;
        };
        if Definition::of(&theirs).is_some_and(|d| d.same_as(&wanted)) {
            matches.push(def);
        }
    }
    let agree = |defs: &[crs_definitions::Def]| {
        defs.windows(2)
            .all(|w| datum_shift(w[0].proj4) == datum_shift(w[1].proj4))
    };
    if matches.is_empty() {
        return None;
    }
    if !agree(&matches) {
        let datum = normalise(datum?);
        let datum = datum.strip_prefix("d_").unwrap_or(&datum).to_owned();
        matches.retain(|def| {
            datum_name(def.wkt).is_some_and(|d| {
                let d = normalise(d);
                d.strip_prefix("d_").unwrap_or(&d) == datum
            })
        });
        if matches.is_empty() || !agree(&matches) {
            return None;
        }
    }
    // The same definition may be a compound CRS's too (EPSG:7405 is British National Grid
    // with heights): name the plain one.
    matches.sort_by_key(|def| (def.wkt.starts_with("COMPD_CS"), def.code));
    matches.first().map(|def| u32::from(def.code))
}

/// The name of the first `DATUM[...]` of the WKT.
fn datum_name(wkt: &str) -> Option<&str> {
    let upper = wkt.to_ascii_uppercase();
    let at = ["DATUM[", "DATUM("]
        .iter()
        .filter_map(|k| upper.find(k))
        .min()?;
    let rest = &wkt[at..];
    let start = rest.find('"')? + 1;
    let len = rest[start..].find('"')?;
    Some(&rest[start..start + len])
}

/// `AUTHORITY["EPSG","5514"]` (WKT1) or `ID["EPSG",5514]` (WKT2) directly inside the root.
fn top_level_epsg(wkt: &str) -> Option<u32> {
    let mut depth = 0usize;
    let mut in_quotes = false;
    for (i, c) in wkt.char_indices() {
        match c {
            '"' => in_quotes = !in_quotes,
            '[' | '(' if !in_quotes => depth += 1,
            ']' | ')' if !in_quotes => depth = depth.saturating_sub(1),
            _ if !in_quotes && depth == 1 && (i == 0 || !is_word(wkt, i - 1)) => {
                let rest = &wkt[i..];
                let upper = rest.get(..10).unwrap_or(rest).to_ascii_uppercase();
                let body = if upper.starts_with("AUTHORITY[") {
                    &rest[10..]
                } else if upper.starts_with("ID[") {
                    &rest[3..]
                } else {
                    continue;
                };
                let mut parts = body.split(',').map(|p| p.trim().trim_matches('"'));
                if parts.next().is_some_and(|a| a.eq_ignore_ascii_case("EPSG")) {
                    let code = parts
                        .next()?
                        .split([']', ')'])
                        .next()?
                        .trim()
                        .trim_matches('"');
                    return code.parse().ok();
                }
            }
            _ => {}
        }
    }
    None
}

fn is_word(s: &str, i: usize) -> bool {
    s.as_bytes()
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// The root element's name: the first quoted string.
fn top_level_name(wkt: &str) -> Option<&str> {
    let start = wkt.find('"')? + 1;
    let len = wkt[start..].find('"')?;
    Some(&wkt[start..start + len])
}

/// Lowercase, every run of other characters than letters and digits made one `_`.
fn normalise(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_owned()
}

fn epsg_for_name(name: &str) -> Option<u32> {
    match name {
        "s_jtsk_krovak_east_north" | "s_jtsk_krovak_eastnorth" => return Some(5514),
        "gcs_wgs_1984" | "wgs_84" | "wgs_1984" | "wgs84" => return Some(4326),
        "wgs_84_pseudo_mercator"
        | "wgs_1984_web_mercator_auxiliary_sphere"
        | "wgs_1984_web_mercator"
        | "popular_visualisation_crs_mercator" => return Some(3857),
        _ => {}
    }
    for (prefix, north, south) in [
        ("wgs_1984_utm_zone_", 32600, Some(32700)),
        ("wgs_84_utm_zone_", 32600, Some(32700)),
        ("etrs_1989_utm_zone_", 25800, None),
        ("etrs89_utm_zone_", 25800, None),
    ] {
        let Some(zone) = name.strip_prefix(prefix) else {
            continue;
        };
        let (digits, hemisphere) = zone.split_at(zone.find(|c: char| !c.is_ascii_digit())?);
        let zone: u32 = digits.parse().ok().filter(|z| (1..=60).contains(z))?;
        return match hemisphere {
            "n" => Some(north + zone),
            "s" => south.map(|s| s + zone),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn code(wkt: &str) -> Option<u32> {
        crs_from_wkt(wkt).unwrap().epsg_code()
    }

    #[test]
    fn esri_names_as_gdal_writes_them_in_a_prj() {
        // What ogr2ogr 3.6 writes beside a Shapefile in EPSG:5514 (shortened).
        let krovak = r#"PROJCS["S-JTSK_Krovak_East_North",GEOGCS["GCS_S_JTSK",DATUM["D_S_JTSK",SPHEROID["Bessel_1841",6377397.155,299.1528128]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Krovak"],UNIT["Meter",1.0]]"#;
        let names = [
            (krovak, 5514),
            (
                r#"PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984"]]"#,
                32633,
            ),
            (
                r#"PROJCS["WGS_1984_UTM_Zone_19S",GEOGCS["GCS_WGS_1984"]]"#,
                32719,
            ),
            (
                r#"PROJCS["ETRS_1989_UTM_Zone_34N",GEOGCS["GCS_ETRS_1989"]]"#,
                25834,
            ),
            (r#"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984"]]"#, 4326),
            (
                r#"PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984"]]"#,
                3857,
            ),
        ];
        for (wkt, epsg) in names {
            assert_eq!(code(wkt), Some(epsg), "{wkt}");
        }
    }

    #[test]
    fn the_root_authority_wins_over_nested_ones_and_the_name() {
        let wkt1 = r#"PROJCS["anything",GEOGCS["WGS 84",AUTHORITY["EPSG","4326"]],AUTHORITY["EPSG","32633"]]"#;
        assert_eq!(code(wkt1), Some(32633));
        let wkt2 = r#"PROJCRS["S-JTSK / Krovak East North",BASEGEOGCRS["S-JTSK",ID["EPSG",4156]],ID["EPSG",5514]]"#;
        assert_eq!(code(wkt2), Some(5514));
        // Only a nested authority: the name decides.
        let nested = r#"PROJCS["WGS 84 / UTM zone 33N",GEOGCS["WGS 84",AUTHORITY["EPSG","4326"]]]"#;
        assert_eq!(code(nested), Some(32633));
    }

    #[test]
    fn unreadable_systems_are_refused_by_name() {
        let err = crs_from_wkt(r#"PROJCS["S-JTSK_Krovak",GEOGCS["GCS_S_JTSK"]]"#).unwrap_err();
        assert!(
            matches!(err, ImportError::UnreadableCrs { ref name, .. } if name.contains("S-JTSK_Krovak")),
            "{err}"
        );
        assert!(err.to_string().contains("S-JTSK_Krovak"), "{err}");
        assert!(crs_from_wkt("garbage").is_err());
        // An authority the table does not hold, and nothing else to read.
        assert!(crs_from_wkt(r#"PROJCS["x",AUTHORITY["EPSG","99999"]]"#).is_err());
    }

    #[test]
    fn an_esri_prj_is_identified_with_its_epsg_datum_shift() {
        // What ogr2ogr 3.6 writes beside a Shapefile in EPSG:27700 and EPSG:2056: no
        // authority, no TOWGS84; PROJ identifies them and uses their Helmert shifts.
        let bng = r#"PROJCS["British_National_Grid",GEOGCS["GCS_OSGB_1936",DATUM["D_OSGB_1936",SPHEROID["Airy_1830",6377563.396,299.3249646]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",400000.0],PARAMETER["False_Northing",-100000.0],PARAMETER["Central_Meridian",-2.0],PARAMETER["Scale_Factor",0.9996012717],PARAMETER["Latitude_Of_Origin",49.0],UNIT["Meter",1.0]]"#;
        assert_eq!(code(bng), Some(27700));
        let tm35fin = r#"PROJCS["EUREF_FIN_TM35FIN",GEOGCS["GCS_ETRS_1989",DATUM["D_ETRS_1989",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",27.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]"#;
        let crs = crs_from_wkt(tm35fin).unwrap();
        assert!(crs.epsg_code().is_some(), "{crs}");
        // A projection no EPSG definition has: the WKT as it is.
        let odd = tm35fin.replace("500000.0", "123456.0");
        assert!(matches!(crs_from_wkt(&odd).unwrap(), Crs::Wkt(_)));
    }
}
