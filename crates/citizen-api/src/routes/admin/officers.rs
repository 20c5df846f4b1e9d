//! Which officers work in a category: `GET /admin/report-categories/{categoryId}/officers`,
//! `PUT`/`DELETE …/officers/{subject}`. Changes are recorded (actor, time).

use actix_web::{web, HttpResponse};
use domain::i18n::Message;
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use uuid::Uuid;

use super::super::params::{CategoryPath, OfficerPath};
use super::super::AppState;
use super::categories::category_error;
use super::dto::Officers;
use super::{category_not_found, ReportCategoryManager};
use crate::app;
use crate::app::categories::OfficerChange;
use crate::routes::responses::CategoryManagerErrors;

/// Most characters of a token subject.
const SUBJECT_MAX_CHARS: usize = 255;

/// The category of the path, which must exist.
async fn existing(state: &AppState, id: Uuid) -> Result<Uuid, ApiError> {
    match state.stores.admin.category(id).await? {
        Some(_) => Ok(id),
        None => Err(category_not_found()),
    }
}

fn check_subject(subject: &str) -> Result<(), ApiError> {
    if subject.trim().is_empty() || subject.chars().count() > SUBJECT_MAX_CHARS {
        return Err(ApiError::validation(
            Message::new("officer-subject-invalid").arg("max", SUBJECT_MAX_CHARS),
        ));
    }
    Ok(())
}

/// The officers (token subjects) of a category, sorted.
#[utoipa::path(
    get,
    path = "/admin/report-categories/{categoryId}/officers",
    tag = "admin",
    operation_id = "listCategoryOfficers",
    params(CategoryPath),
    security(("bearer" = ["cityuser:report-categories:manage"])),
    responses(
        (status = 200, description = "The officers", body = Officers),
        CategoryManagerErrors,
    )
)]
#[tracing::instrument(name = "list_category_officers", skip(state, _auth))]
pub async fn list(
    path: Path<CategoryPath>,
    state: web::Data<AppState>,
    _auth: ReportCategoryManager,
) -> Result<Json<Officers>, ApiError> {
    let id = existing(&state, path.id()?).await?;
    let officers = state.stores.admin.category_officers(id).await?;
    Ok(Json(Officers { officers }))
}

/// Let an officer work in a category (idempotent).
///
/// From then on the officer (the token subject) sees and works the category's issues.
#[utoipa::path(
    put,
    path = "/admin/report-categories/{categoryId}/officers/{subject}",
    tag = "admin",
    operation_id = "addCategoryOfficer",
    params(OfficerPath),
    security(("bearer" = ["cityuser:report-categories:manage"])),
    responses(
        (status = 204, description = "Assigned"),
        (status = 400, description = "`VALIDATION_ERROR`: the subject is blank or too long", body = service_kit::ErrorBody),
        CategoryManagerErrors,
    )
)]
#[tracing::instrument(name = "add_category_officer", skip(state, auth))]
pub async fn add(
    path: Path<OfficerPath>,
    state: web::Data<AppState>,
    auth: ReportCategoryManager,
) -> Result<HttpResponse, ApiError> {
    let id = existing(&state, path.category()?).await?;
    check_subject(&path.subject)?;
    change_officer(&state, &auth, id, &path.subject, true).await
}

/// Take an officer off a category (idempotent).
#[utoipa::path(
    delete,
    path = "/admin/report-categories/{categoryId}/officers/{subject}",
    tag = "admin",
    operation_id = "removeCategoryOfficer",
    params(OfficerPath),
    security(("bearer" = ["cityuser:report-categories:manage"])),
    responses(
        (status = 204, description = "Not assigned (any more)"),
        CategoryManagerErrors,
    )
)]
#[tracing::instrument(name = "remove_category_officer", skip(state, auth))]
pub async fn remove(
    path: Path<OfficerPath>,
    state: web::Data<AppState>,
    auth: ReportCategoryManager,
) -> Result<HttpResponse, ApiError> {
    // An unknown category is the app's `NotFound` (it locks the category's row anyway).
    let id = path.category()?;
    change_officer(&state, &auth, id, &path.subject, false).await
}

/// Assigns the officer (`assigned`) or takes them off the category: 204.
async fn change_officer(
    state: &AppState,
    auth: &ReportCategoryManager,
    category_id: Uuid,
    subject: &str,
    assigned: bool,
) -> Result<HttpResponse, ApiError> {
    let change = OfficerChange {
        category_id,
        subject,
        assigned,
    };
    app::categories::change_officer(
        state.stores.admin.as_ref(),
        change,
        &auth.0.subject,
        state.clock.now(),
    )
    .await
    .map_err(category_error)?;
    Ok(HttpResponse::NoContent().finish())
}
