//! `GET /geo/boundary`: the city's territory.

use actix_web::{web, HttpResponse};

use super::AppState;

/// The city's territory.
///
/// A GeoJSON MultiPolygon in WGS84: a report's location must lie inside it (or on its edge),
/// otherwise filing answers 400 `REPORT_OUTSIDE_CITY`.
#[utoipa::path(
    get,
    path = "/geo/boundary",
    tag = "reports",
    operation_id = "getCityBoundary",
    responses(
        (status = 200, description = "GeoJSON MultiPolygon geometry", content_type = "application/geo+json",
         body = Object, example = json!({"type": "MultiPolygon", "coordinates": [[[[14.2, 50.0], [14.7, 50.0], [14.7, 50.2], [14.2, 50.0]]]]})),
    )
)]
pub async fn boundary(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/geo+json")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(state.city.boundary_json().to_owned())
}
