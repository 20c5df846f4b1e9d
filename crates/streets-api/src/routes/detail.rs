//! `GET /streets/{streetId}`: one street by database id or street number.

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use service_kit::extract::Path;
use service_kit::{ApiError, ErrorBody};

use super::json;
use crate::model::StreetFeature;
use crate::store::StreetStore;
use service_kit::docs::responses::DatabaseUnavailable;

/// One street by database id or street number.
///
/// An all-digit `streetId` is the street number (`I_GM_U`); anything else is the database id
/// (`_id`).
#[utoipa::path(
    get,
    path = "/streets/{streetId}",
    tag = "streets",
    operation_id = "getStreet",
    params(("streetId" = String, Path, description = "Database id, or street number (I_GM_U) when all digits", min_length = 1, max_length = 100)),
    responses(
        (status = 200, description = "The street", body = StreetFeature),
        (status = 404, description = "`STREET_NOT_FOUND`", body = ErrorBody),
        DatabaseUnavailable,
    )
)]
#[tracing::instrument(name = "get_street", skip(store))]
pub async fn get_street(
    store: web::Data<dyn StreetStore>,
    street_id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let street_id = street_id.into_inner();
    let not_found = || {
        ApiError::new(
            ErrorCode::StreetNotFound,
            Message::new("street-not-found").arg("id", &street_id),
        )
    };
    let found = if !street_id.is_empty() && street_id.bytes().all(|b| b.is_ascii_digit()) {
        match street_id.parse::<i64>() {
            Ok(number) => store.street_by_number(number).await,
            Err(_) => return Err(not_found()),
        }
    } else {
        store.street_by_id(&street_id).await
    };
    let street = found.map_err(ApiError::storage)?.ok_or_else(not_found)?;
    Ok(json(street.into_bytes()))
}
