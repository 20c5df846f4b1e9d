//! `DELETE /me`: a citizen erases its personal data (docs/privacy.md).

use actix_web::{web, HttpResponse};
use domain::i18n::Message;
use serde::Deserialize;
use service_kit::auth::Auth;
use service_kit::docs::responses::{ServiceUnavailable, Unauthorized};
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::responses::OwnJsonErrors;
use super::AppState;
use crate::app::erasure::Photos;

/// The word a client sends to confirm an erasure, which cannot be undone.
pub const CONFIRMATION: &str = "ERASE";

/// The prefix of the city's staff scopes: their erasure is an operator's (`citizen-api erase`).
const STAFF_SCOPES: &str = "cityuser:";

/// `DELETE /me`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EraseRequest {
    /// `ERASE`, exactly: the client asked the citizen, erasing cannot be undone.
    #[schema(pattern = "^ERASE$", example = "ERASE")]
    pub confirm: String,
    /// Photos of the citizen's reports to delete too: `true` for all, or their `media_id`s
    /// (others are passed over). Default: they stay, with the reports.
    #[serde(default)]
    pub remove_photos: RemovePhotos,
}

/// `remove_photos`: all, none, or these.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum RemovePhotos {
    All(bool),
    These(Vec<Uuid>),
}

impl Default for RemovePhotos {
    fn default() -> Self {
        Self::All(false)
    }
}

impl From<RemovePhotos> for Photos {
    fn from(r: RemovePhotos) -> Self {
        match r {
            RemovePhotos::All(false) => Photos::Keep,
            RemovePhotos::All(true) => Photos::RemoveAll,
            RemovePhotos::These(ids) => Photos::Remove(ids),
        }
    }
}

/// Erase my data.
///
/// Deletes the caller's vote tokens (active ones stop counting on their reports), web push and
/// e-mail subscriptions with everything queued to them, notification feed, digests and settings,
/// and news subscriptions. The caller's reports stay public with their timelines but lose their
/// author, as anonymous filings; `remove_photos` deletes all their photos too, or those named. In the
/// officers' audit trail the caller's subject becomes a pseudonym. Erasing again answers the
/// same. Tokens with a staff scope (`cityuser:…`) are refused: an officer's data is erased by the
/// city's operators.
#[utoipa::path(
    delete, path = "/me", tag = "me", operation_id = "eraseMe",
    request_body = EraseRequest, security(("bearer" = [])),
    responses(
        (status = 204, description = "Erased (or nothing left to erase)"),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (`confirm` missing or not `ERASE`, another property)", body = service_kit::ErrorBody),
        Unauthorized,
        (status = 403, description = "`FORBIDDEN`: a token with a staff scope", body = service_kit::ErrorBody),
        OwnJsonErrors,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "erase_me", skip_all)]
pub async fn erase(
    state: web::Data<AppState>,
    auth: Auth,
    body: Json<EraseRequest>,
) -> Result<HttpResponse, ApiError> {
    if auth.0.scopes.iter().any(|s| s.starts_with(STAFF_SCOPES)) {
        return Err(ApiError::forbidden(Message::new("erase-by-operator")));
    }
    if body.0.confirm != CONFIRMATION {
        return Err(ApiError::validation(Message::new("erase-confirm")));
    }
    let photos = Photos::from(body.0.remove_photos);
    crate::app::erasure::erase(
        state.stores.privacy.as_ref(),
        &state.media,
        &auth.0.subject,
        &photos,
    )
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
