//! The query parameters of the features API, read from the raw query string so that an unknown
//! or repeated parameter is refused (OGC API – Features Part 1, /req/core/query-param-unknown
//! and /req/core/query-param-invalid): every fault is a 400 `VALIDATION_ERROR` naming it.

use chrono::{DateTime, NaiveDate};
use domain::i18n::Message;
use domain::limits::Q_MAX_CHARS;
use service_kit::ApiError;

use crate::model::ItemsQuery;
use crate::store::bbox::BoxFilter;

/// `features.*` settings: the page sizes of `/collections/streets/items`.
#[derive(Debug, Clone, Copy, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeaturesSettings {
    /// Features per page when the request gives no `limit`.
    pub default_limit: u32,
    /// Most features per page; a larger `limit` is served as this (not an error, as the
    /// standard asks).
    pub max_limit: u32,
}

impl FeaturesSettings {
    /// `1 ≤ default_limit ≤ max_limit`.
    pub fn validate(&self) -> Result<(), String> {
        if self.default_limit == 0 || self.default_limit > self.max_limit {
            return Err(format!(
                "features.default_limit must be between 1 and features.max_limit ({}), got {}",
                self.max_limit, self.default_limit
            ));
        }
        Ok(())
    }
}

/// The parameters every features API resource accepts.
const COMMON: &[&str] = &["f"];
/// The parameters of `/collections/streets/items`.
const ITEMS: &[&str] = &["f", "limit", "offset", "bbox", "datetime", "name"];

fn invalid(parameter: &str, reason: impl std::fmt::Display) -> ApiError {
    ApiError::validation(
        Message::new("invalid-query")
            .arg("field", parameter)
            .arg("reason", reason),
    )
}

/// The query's pairs, each name at most once and known to the resource.
fn pairs(raw: &str, known: &[&'static str]) -> Result<Vec<(&'static str, String)>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw)
        .map_err(|e| invalid("query string", format!("it cannot be decoded: {e}")))?;
    let mut out: Vec<(&'static str, String)> = Vec::with_capacity(pairs.len());
    for (name, value) in pairs {
        let Some(&known) = known.iter().find(|k| **k == name) else {
            return Err(invalid(
                &name,
                format!(
                    "unknown parameter; this resource takes {}",
                    known.join(", ")
                ),
            ));
        };
        if out.iter().any(|(n, _)| *n == known) {
            return Err(ApiError::validation(
                Message::new("parameter-repeated").arg("parameter", known),
            ));
        }
        out.push((known, value));
    }
    Ok(out)
}

/// The `f` parameter: only JSON encodings are served.
fn check_format(value: &str) -> Result<(), ApiError> {
    match value {
        "json" | "geojson" => Ok(()),
        other => Err(ApiError::validation(
            Message::new("parameter-not-one-of")
                .arg("parameter", "f")
                .arg("allowed", "json, geojson")
                .arg("value", other),
        )),
    }
}

/// Checks the query of a resource that takes only `f`.
pub fn check_common(raw: &str) -> Result<(), ApiError> {
    for (name, value) in pairs(raw, COMMON)? {
        if name == "f" {
            check_format(&value)?;
        }
    }
    Ok(())
}

/// A validated items request, and its parameters as they go into paging links.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemsRequest {
    pub query: ItemsQuery,
    /// `bbox`, `datetime` and `name` as given (for the links), in that order.
    pub filters: Vec<(&'static str, String)>,
}

/// Reads the query of `/collections/streets/items`.
pub fn items(raw: &str, settings: FeaturesSettings) -> Result<ItemsRequest, ApiError> {
    let mut query = ItemsQuery {
        limit: settings.default_limit,
        offset: 0,
        bbox: None,
        name: None,
    };
    let mut filters = Vec::new();
    for (name, value) in pairs(raw, ITEMS)? {
        match name {
            "f" => check_format(&value)?,
            "limit" => {
                // A 64-bit integer, as the API description says; larger ones are refused.
                let limit: i64 = value.parse().ok().filter(|l| *l >= 1).ok_or_else(|| {
                    invalid(
                        "limit",
                        "it must be an integer from 1 to 9223372036854775807",
                    )
                })?;
                query.limit = u32::try_from(limit)
                    .unwrap_or(u32::MAX)
                    .min(settings.max_limit);
            }
            "offset" => {
                query.offset = value
                    .parse()
                    .map_err(|_| invalid("offset", "it must be an integer from 0 to 4294967295"))?;
            }
            "bbox" => {
                query.bbox = Some(BoxFilter::new(bbox(&value)?));
                filters.push((name, value));
            }
            "datetime" => {
                datetime(&value)?;
                filters.push((name, value));
            }
            "name" => {
                let chars = value.chars().count();
                if chars == 0 || chars > Q_MAX_CHARS {
                    return Err(invalid(
                        "name",
                        format!("it must be 1 to {Q_MAX_CHARS} characters"),
                    ));
                }
                query.name = Some(domain::text::fold(&value));
                filters.push((name, value));
            }
            _ => {}
        }
    }
    filters.sort_by_key(|(n, _)| ["bbox", "datetime", "name"].iter().position(|k| k == n));
    Ok(ItemsRequest { query, filters })
}

/// `bbox=west,south,east,north` (or with heights: `west,south,low,east,north,high`) in CRS84.
/// West may exceed east (a box across the antimeridian); south may not exceed north.
fn bbox(value: &str) -> Result<[f64; 4], ApiError> {
    let bad = |reason: &str| invalid("bbox", reason);
    let numbers: Vec<f64> = value
        .split(',')
        .map(|n| n.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("it must be 4 or 6 comma-separated numbers"))?;
    let [west, south, east, north] = match numbers[..] {
        [w, s, e, n] => [w, s, e, n],
        [w, s, low, e, n, high] if low <= high => [w, s, e, n],
        [_, _, _, _, _, _] => return Err(bad("its lower height exceeds the upper")),
        _ => return Err(bad("it must be 4 or 6 comma-separated numbers")),
    };
    if ![west, east].iter().all(|l| (-180.0..=180.0).contains(l)) {
        return Err(bad("longitudes must be between -180 and 180"));
    }
    if ![south, north].iter().all(|l| (-90.0..=90.0).contains(l)) {
        return Err(bad("latitudes must be between -90 and 90"));
    }
    if south > north {
        return Err(bad("its south edge lies north of its north edge"));
    }
    Ok([west, south, east, north])
}

/// `datetime`: an RFC 3339 date-time or date, or an interval of two (`start/end`, either end
/// open as `..` or empty). Streets have no temporal geometry, and the standard says such
/// features match every `datetime` (/req/core/fc-time-response C); it is still validated.
fn datetime(value: &str) -> Result<(), ApiError> {
    let bad = || {
        invalid(
            "datetime",
            "it must be an RFC 3339 date-time or date (2026-01-31T12:00:00Z), or an interval \
             start/end with '..' for an open end",
        )
    };
    let instant = |s: &str| -> Option<i64> {
        if let Ok(t) = DateTime::parse_from_rfc3339(s) {
            return Some(t.timestamp());
        }
        NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|t| t.and_utc().timestamp())
    };
    match value.split_once('/') {
        None => instant(value).map(drop).ok_or_else(bad),
        Some((start, end)) => {
            let open = |s: &str| s.is_empty() || s == "..";
            let bound = |s: &str| {
                if open(s) {
                    Ok(None)
                } else {
                    instant(s).map(Some).ok_or_else(bad)
                }
            };
            match (bound(start)?, bound(end)?) {
                (None, None) => Err(bad()),
                (Some(a), Some(b)) if a > b => Err(invalid(
                    "datetime",
                    "the interval's start is later than its end",
                )),
                _ => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: FeaturesSettings = FeaturesSettings {
        default_limit: 10,
        max_limit: 1000,
    };

    fn ok(raw: &str) -> ItemsQuery {
        items(raw, SETTINGS).unwrap().query
    }

    fn refused(raw: &str) {
        assert!(items(raw, SETTINGS).is_err(), "{raw} was accepted");
    }

    #[test]
    fn limit_default_maximum_and_edges() {
        assert_eq!(ok("").limit, 10);
        assert_eq!(ok("limit=1").limit, 1);
        assert_eq!(ok("limit=1000").limit, 1000);
        assert_eq!(
            ok("limit=1001").limit,
            1000,
            "over the maximum: the maximum"
        );
        assert_eq!(ok("limit=99999999999999").limit, 1000);
        assert_eq!(ok("limit=9223372036854775807").limit, 1000);
        refused("limit=9223372036854775808");
        refused("limit=0");
        refused("limit=-1");
        refused("limit=x");
        refused("limit=1.5");
    }

    #[test]
    fn offset_bbox_and_name() {
        assert_eq!(ok("offset=4294967295").offset, u32::MAX);
        refused("offset=4294967296");
        refused("offset=-1");
        let q = ok("bbox=14.4,50,14.5,50.1");
        assert_eq!(q.bbox.unwrap().boxes(), &[[14.4, 50.0, 14.5, 50.1]]);
        let q = ok("bbox=14.4,50,0,14.5,50.1,100");
        assert_eq!(q.bbox.unwrap().boxes(), &[[14.4, 50.0, 14.5, 50.1]]);
        assert_eq!(ok("bbox=170,0,-170,1").bbox.unwrap().boxes().len(), 2);
        assert!(ok("bbox=-180,-90,180,90").bbox.is_some());
        for bad in [
            "bbox=1,2,3",
            "bbox=1,2,3,4,5",
            "bbox=a,2,3,4",
            "bbox=0,1,1,0",
            "bbox=-180.1,0,1,1",
            "bbox=0,-90.1,1,1",
            "bbox=0,0,1,90.1",
            "bbox=0,0,9,1,1,8",
            "bbox=NaN,0,1,1",
            "bbox=",
        ] {
            refused(bad);
        }
        assert_eq!(
            ok("name=N%C3%A1rodn%C3%AD").name.as_deref(),
            Some("narodni")
        );
        refused("name=");
        refused(&format!("name={}", "a".repeat(201)));
        assert!(items(&format!("name={}", "a".repeat(200)), SETTINGS).is_ok());
    }

    #[test]
    fn datetime_per_the_standard() {
        for good in [
            "2026-01-31T12:00:00Z",
            "2026-01-31T12:00:00%2B01:00",
            "2026-01-31",
            "2026-01-01T00:00:00Z/2026-02-01T00:00:00Z",
            "../2026-01-31T12:00:00Z",
            "2026-01-31T12:00:00Z/..",
            "2026-01-31/",
            "/2026-01-31",
        ] {
            assert!(
                items(&format!("datetime={good}"), SETTINGS).is_ok(),
                "{good}"
            );
        }
        for bad in [
            "yesterday",
            "2026-13-01",
            "../..",
            "/",
            "2026-02-01/2026-01-01",
            "2026-01-31T25:00:00Z",
        ] {
            refused(&format!("datetime={bad}"));
        }
    }

    #[test]
    fn unknown_repeated_and_format() {
        refused("limt=10");
        refused("bbox-crs=http://www.opengis.net/def/crs/OGC/1.3/CRS84");
        refused("limit=1&limit=2");
        refused("f=html");
        assert!(items("f=json", SETTINGS).is_ok());
        assert!(check_common("f=json").is_ok());
        assert!(check_common("limit=1").is_err());
        let r = items("name=x&bbox=0,0,1,1&limit=5", SETTINGS).unwrap();
        assert_eq!(
            r.filters,
            vec![("bbox", "0,0,1,1".to_owned()), ("name", "x".to_owned())]
        );
    }
}
