//! The query parameters of the features API, each resource's in one struct that both reads
//! (through `service_kit`'s query parser, the one every service uses) and documents them. An
//! unknown or repeated parameter is refused (OGC API – Features Part 1,
//! /req/core/query-param-unknown and /req/core/query-param-invalid): every fault is a 400
//! `VALIDATION_ERROR` naming it.

use chrono::{DateTime, NaiveDate};
use domain::i18n::Message;
use domain::limits::Q_MAX_CHARS;
use serde::Deserialize;
use service_kit::extract::parse_query;
use service_kit::ApiError;
use utoipa::IntoParams;

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

fn invalid(parameter: &str, reason: impl std::fmt::Display) -> ApiError {
    ApiError::validation(
        Message::new("invalid-query")
            .arg("field", parameter)
            .arg("reason", reason),
    )
}

/// The query of a resource that takes only `f`: read (an unknown or repeated parameter is a
/// 400 naming it) and documented by this one struct.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct FormatParam {
    /// Encoding: JSON (GeoJSON for features), the only one served.
    #[param(value_type = Option<String>, pattern = "^(json|geojson)$", example = "json")]
    f: Option<String>,
}

/// The query of `/collections/streets/items`, read and documented by this one struct; the
/// values arrive as text and [`items`] checks each, naming the parameter at fault.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ItemsParams {
    /// Features per page; default `features.default_limit` (10). A value larger than
    /// `features.max_limit` (10000) is served as that maximum, not refused (the standard).
    #[param(value_type = Option<i64>, minimum = 1, default = 10)]
    limit: Option<String>,
    /// Streets (by number) to skip; the `next` and `prev` links carry it.
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64, default = 0)]
    offset: Option<String>,
    /// Only streets whose geometry intersects the box `west,south,east,north` in CRS84 (with
    /// heights: `west,south,low,east,north,high`); west > east crosses the antimeridian.
    #[param(value_type = Option<Vec<f64>>, style = Form, explode = false, example = json!([14.41, 50.07, 14.43, 50.09]))]
    bbox: Option<String>,
    /// An RFC 3339 date-time or interval (`start/end`, `..` for an open end). Streets have no
    /// temporal geometry, so every street matches a valid value (/req/core/fc-time-response).
    #[param(value_type = Option<String>, example = "2026-01-01T00:00:00Z/..")]
    datetime: Option<String>,
    /// Only streets whose name (`N_GM_U`) equals this, ignoring case and diacritics.
    #[param(value_type = Option<String>, min_length = 1, max_length = 200, example = "Národní")]
    name: Option<String>,
    /// Encoding: JSON (GeoJSON), the only one served.
    #[param(value_type = Option<String>, pattern = "^(json|geojson)$", example = "json")]
    f: Option<String>,
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
    let params: FormatParam = parse_query(raw)?;
    params.f.as_deref().map_or(Ok(()), check_format)
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
    let params: ItemsParams = parse_query(raw)?;
    if let Some(f) = &params.f {
        check_format(f)?;
    }
    let limit = match &params.limit {
        None => settings.default_limit,
        // A 64-bit integer, as the API description says; larger ones are refused.
        Some(value) => {
            let limit: i64 = value.parse().ok().filter(|l| *l >= 1).ok_or_else(|| {
                invalid(
                    "limit",
                    "it must be an integer from 1 to 9223372036854775807",
                )
            })?;
            u32::try_from(limit)
                .unwrap_or(u32::MAX)
                .min(settings.max_limit)
        }
    };
    let offset = match &params.offset {
        None => 0,
        Some(value) => value
            .parse()
            .map_err(|_| invalid("offset", "it must be an integer from 0 to 4294967295"))?,
    };
    let bbox = params.bbox.as_deref().map(bbox).transpose()?;
    if let Some(value) = &params.datetime {
        datetime(value)?;
    }
    let name = match &params.name {
        None => None,
        Some(value) => {
            let chars = value.chars().count();
            if chars == 0 || chars > Q_MAX_CHARS {
                return Err(invalid(
                    "name",
                    format!("it must be 1 to {Q_MAX_CHARS} characters"),
                ));
            }
            Some(domain::text::fold(value))
        }
    };
    let filters = [
        ("bbox", params.bbox),
        ("datetime", params.datetime),
        ("name", params.name),
    ]
    .into_iter()
    .filter_map(|(n, v)| v.map(|v| (n, v)))
    .collect();
    let query = ItemsQuery {
        limit,
        offset,
        bbox: bbox.map(BoxFilter::new),
        name,
    };
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
