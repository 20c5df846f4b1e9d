//! `GET /streets`: list or search streets (by name, around a point).

use actix_web::{web, HttpResponse};
use domain::geo::LonLat;
use domain::i18n::Message;
use domain::limits::{self, LimitError, Page, STREETS_RADIUS_DEFAULT_M, STREETS_RADIUS_MAX_M};
use serde::Deserialize;
use service_kit::extract::Query;
use service_kit::{ApiError, ErrorBody};
use utoipa::IntoParams;

use super::json;
use crate::model::{Near, StreetFeature, StreetQuery};
use crate::store::StreetStore;
use service_kit::docs::responses::DatabaseUnavailable;

/// Query parameters of `GET /streets`; all optional. Values arrive as text and are validated
/// here so every malformed or out-of-range value gets a 400 naming the parameter.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreetsParams {
    /// Page size.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 100, default = 100)]
    limit: Option<String>,
    /// Streets to skip.
    #[param(value_type = Option<i32>, minimum = 0, maximum = 1000, default = 0)]
    offset: Option<String>,
    /// Street name search ignoring case and diacritics; matches the start of the name or of any
    /// word in it. Best matches first: whole name, then name prefix, then word prefix.
    #[param(value_type = Option<String>, min_length = 1, max_length = 200, example = "spel")]
    q: Option<String>,
    /// Longitude (WGS84) of the search point; needs `latitude`.
    #[param(value_type = Option<f64>, minimum = -180, maximum = 180, example = 14.4378)]
    longitude: Option<String>,
    /// Latitude (WGS84) of the search point; needs `longitude`.
    #[param(value_type = Option<f64>, minimum = -90, maximum = 90, example = 50.0755)]
    latitude: Option<String>,
    /// Search radius in metres around the point (true metres on the WGS84 ellipsoid); only with
    /// a point. Streets whose geometry comes within the radius are returned, nearest first.
    #[param(value_type = Option<f64>, exclusive_minimum = 0, maximum = 5000, default = 100)]
    radius: Option<String>,
}

impl StreetsParams {
    fn to_query(&self) -> Result<StreetQuery, LimitError> {
        let page = Page::parse(self.limit.as_deref(), self.offset.as_deref())?;
        let name = limits::parse_q(self.q.as_deref())?.map(domain::text::Search::new);
        let lon = limits::parse_f64_in("longitude", self.longitude.as_deref(), -180.0, 180.0)?;
        let lat = limits::parse_f64_in("latitude", self.latitude.as_deref(), -90.0, 90.0)?;
        let radius =
            limits::parse_f64_in("radius", self.radius.as_deref(), 0.0, STREETS_RADIUS_MAX_M)?;
        if radius == Some(0.0) {
            return Err(LimitError::new("radius", Message::new("radius-positive")));
        }
        let near = match (lon, lat) {
            (Some(lon), Some(lat)) => {
                let point =
                    LonLat::new(lon, lat).map_err(|e| LimitError::new("longitude", e.message()))?;
                Some(Near {
                    point,
                    radius_m: radius.unwrap_or(STREETS_RADIUS_DEFAULT_M),
                })
            }
            (None, None) if radius.is_some() => {
                return Err(LimitError::new(
                    "radius",
                    Message::new("radius-needs-point"),
                ));
            }
            (None, None) => None,
            (Some(_), None) => {
                return Err(LimitError::new(
                    "latitude",
                    Message::new("longitude-needs-latitude"),
                ))
            }
            (None, Some(_)) => {
                return Err(LimitError::new(
                    "longitude",
                    Message::new("latitude-needs-longitude"),
                ))
            }
        };
        Ok(StreetQuery {
            limit: page.limit,
            offset: page.offset,
            name,
            near,
        })
    }
}

/// List or search streets.
///
/// Without parameters: every street, ordered by street number. With `q`: streets whose name
/// (ignoring case and diacritics) starts with `q` or has a word starting with `q`. With
/// `longitude` and `latitude`: streets within `radius` metres of the point, nearest first. The
/// filters combine.
#[utoipa::path(
    get,
    path = "/streets",
    tag = "streets",
    operation_id = "listStreets",
    params(StreetsParams),
    responses(
        (status = 200, description = "Street features (possibly none)", body = [StreetFeature]),
        (status = 400, description = "`VALIDATION_ERROR`: a parameter is malformed or out of range, or only one of longitude/latitude", body = ErrorBody),
        DatabaseUnavailable,
    )
)]
#[tracing::instrument(name = "list_streets", skip_all)]
pub async fn list_streets(
    store: web::Data<dyn StreetStore>,
    Query(params): Query<StreetsParams>,
) -> Result<HttpResponse, ApiError> {
    let query = params.to_query()?;
    let body = store
        .find_streets_json(&query)
        .await
        .map_err(ApiError::storage)?;
    Ok(json(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> StreetsParams {
        let qs = serde_urlencoded::to_string(pairs).unwrap();
        serde_urlencoded::from_str(&qs).unwrap()
    }

    #[test]
    fn point_needs_both_coordinates_and_radius_needs_a_point() {
        assert_eq!(
            params(&[("longitude", "14")])
                .to_query()
                .unwrap_err()
                .parameter,
            "latitude"
        );
        assert_eq!(
            params(&[("latitude", "50")])
                .to_query()
                .unwrap_err()
                .parameter,
            "longitude"
        );
        assert_eq!(
            params(&[("radius", "10")])
                .to_query()
                .unwrap_err()
                .parameter,
            "radius"
        );
        let q = params(&[("longitude", "14"), ("latitude", "50")])
            .to_query()
            .unwrap();
        assert_eq!(q.near.unwrap().radius_m, 100.0);
    }

    #[test]
    fn radius_edges() {
        let at =
            |r: &str| params(&[("longitude", "14"), ("latitude", "50"), ("radius", r)]).to_query();
        assert_eq!(at("5000").unwrap().near.unwrap().radius_m, 5000.0);
        assert!(at("0.001").is_ok());
        assert_eq!(at("0").unwrap_err().parameter, "radius");
        assert_eq!(at("5000.0001").unwrap_err().parameter, "radius");
        assert_eq!(at("-1").unwrap_err().parameter, "radius");
    }

    #[test]
    fn q_is_folded() {
        let q = params(&[("q", "SPÉL")]).to_query().unwrap();
        assert_eq!(q.name_text(), Some("spel"));
        let q = params(&[("q", "%_")]).to_query().unwrap();
        assert!(q.matches_nothing() && q.name_text().is_none());
        assert_eq!(params(&[("q", "")]).to_query().unwrap_err().parameter, "q");
    }
}
