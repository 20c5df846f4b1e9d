//! A CRS from WKT (a Shapefile's `.prj`, or a GeoPackage / FlatGeobuf definition): the EPSG
//! authority of the top-level element when it has one, else its name for the common S-JTSK,
//! UTM, Web Mercator and WGS 84 systems as ESRI and GDAL write them.

use crate::{parse_crs, Crs, ImportError};

/// The supported CRS the WKT names; `UnsupportedCrs` with its name otherwise.
pub(crate) fn crs_from_wkt(wkt: &str) -> Result<Crs, ImportError> {
    let wkt = wkt.trim().trim_start_matches('\u{feff}');
    if let Some(code) = top_level_epsg(wkt) {
        return parse_crs(&format!("EPSG:{code}"));
    }
    let name = top_level_name(wkt)
        .ok_or_else(|| ImportError::UnsupportedCrs(format!("unreadable WKT {wkt:?}")))?;
    match epsg_for_name(&normalise(name)) {
        Some(code) => parse_crs(&format!("EPSG:{code}")),
        None => Err(ImportError::UnsupportedCrs(name.to_owned())),
    }
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
        assert_eq!(code(krovak), Some(5514));
        assert_eq!(
            code(r#"PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984"]]"#),
            Some(32633)
        );
        assert_eq!(
            code(r#"PROJCS["WGS_1984_UTM_Zone_19S",GEOGCS["GCS_WGS_1984"]]"#),
            Some(32719)
        );
        assert_eq!(
            code(r#"PROJCS["ETRS_1989_UTM_Zone_34N",GEOGCS["GCS_ETRS_1989"]]"#),
            Some(25834)
        );
        assert_eq!(
            code(r#"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984"]]"#),
            Some(4326)
        );
        assert_eq!(
            code(r#"PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984"]]"#),
            Some(3857)
        );
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
    fn unknown_systems_are_refused_by_name() {
        let err = crs_from_wkt(r#"PROJCS["S-JTSK_Krovak",GEOGCS["GCS_S_JTSK"]]"#).unwrap_err();
        assert!(
            matches!(err, ImportError::UnsupportedCrs(ref n) if n == "S-JTSK_Krovak"),
            "{err}"
        );
        assert!(crs_from_wkt("garbage").is_err());
        assert!(crs_from_wkt(r#"PROJCS["x",AUTHORITY["EPSG","2065"]]"#).is_err());
    }
}
