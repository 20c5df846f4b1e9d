//! Report categories (spec 2.3): `GET`/`POST /admin/report-categories`, `PATCH`/`DELETE
//! /admin/report-categories/{categoryId}`. Every change is recorded (actor, time).

use actix_web::{web, HttpResponse};
use domain::error_code::ErrorCode;
use domain::i18n::Message;
use serde::{Deserialize, Deserializer};
use service_kit::docs::responses::{NotJson, PayloadTooLarge, ServiceUnavailable, Unauthorized};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;

use super::super::params::CategoryPath;
use super::super::AppState;
use super::dto::{AdminCategories, AdminCategory};
use super::{category_not_found, AnyOfficer, ReportCategoryManager};
use crate::app;
use crate::routes::responses::{CategoriesForbidden, CategoryManagerErrors, JsonObjectErrors};
use crate::store::admin::{CategoryChange, CategoryError};
use crate::store::NewCategory;

/// Most characters of a category name.
const NAME_MAX_CHARS: usize = 100;
/// Longest statement deadline in days.
const DEADLINE_MAX_DAYS: u32 = 3650;

/// `POST /admin/report-categories`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewCategoryRequest {
    /// 1–100 characters, unique.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// Make it the default category (the former default stops being one). Default false.
    #[serde(default)]
    pub is_default: bool,
    /// 1–3650 days; absent or null: no deadline.
    #[schema(minimum = 1, maximum = 3650)]
    pub statement_deadline_days: Option<u32>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

/// `PATCH /admin/report-categories/{categoryId}`: the fields to change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CategoryPatch {
    #[schema(min_length = 1, max_length = 100)]
    pub name: Option<String>,
    /// `true` makes it the default; `false` on the default is refused (there must be one).
    pub is_default: Option<bool>,
    /// 1–3650 days, or null for no deadline.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 3650)]
    pub statement_deadline_days: Option<Option<u32>>,
}

fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX_CHARS {
        return Err(ApiError::validation(
            Message::new("category-name-invalid").arg("max", NAME_MAX_CHARS),
        ));
    }
    Ok(name.to_owned())
}

fn check_deadline(days: Option<u32>) -> Result<Option<u32>, ApiError> {
    match days {
        Some(d) if d == 0 || d > DEADLINE_MAX_DAYS => Err(ApiError::validation(
            Message::new("category-deadline-invalid").arg("max", DEADLINE_MAX_DAYS),
        )),
        other => Ok(other),
    }
}

pub(super) fn category_error(err: CategoryError) -> ApiError {
    match err {
        CategoryError::NotFound => category_not_found(),
        CategoryError::InUse => {
            ApiError::new(ErrorCode::CategoryInUse, Message::new("category-in-use"))
        }
        CategoryError::DefaultRequired => ApiError::new(
            ErrorCode::Conflict,
            Message::new("category-default-required"),
        ),
        CategoryError::Store(err) => err.into(),
    }
}

/// Every report category with its statement deadline.
///
/// By name, the default category last. Readable with any of the officers' scopes.
#[utoipa::path(
    get,
    path = "/admin/report-categories",
    tag = "admin",
    operation_id = "listAdminReportCategories",
    security(("bearer" = ["cityuser:report-categories:manage"]), ("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The categories", body = AdminCategories),
        Unauthorized,
        (status = 403, description = "`FORBIDDEN`: none of the officers' scopes", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "list_admin_report_categories", skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    _auth: AnyOfficer,
) -> Result<Json<AdminCategories>, ApiError> {
    let categories = state.stores.categories.categories().await?;
    Ok(Json(AdminCategories {
        categories: categories.into_iter().map(AdminCategory::from).collect(),
    }))
}

/// Create a report category.
#[utoipa::path(
    post,
    path = "/admin/report-categories",
    tag = "admin",
    operation_id = "createAdminReportCategory",
    request_body = NewCategoryRequest,
    security(("bearer" = ["cityuser:report-categories:manage"])),
    responses(
        (status = 201, description = "The category", body = AdminCategory),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (name empty or too long, deadline out of range)", body = service_kit::ErrorBody),
        Unauthorized,
        CategoriesForbidden,
        (status = 409, description = "`CONFLICT`: the name is taken", body = service_kit::ErrorBody),
        PayloadTooLarge,
        NotJson,
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "create_admin_report_category", skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    auth: ReportCategoryManager,
    body: Json<NewCategoryRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.0;
    let new = NewCategory {
        name: check_name(&body.name)?,
        is_default: body.is_default,
        statement_deadline_days: check_deadline(body.statement_deadline_days)?,
    };
    let created = app::categories::create(
        state.stores.admin.as_ref(),
        &new,
        &auth.0.subject,
        state.clock.now(),
    )
    .await
    .map_err(category_error)?;
    Ok(HttpResponse::Created().json(AdminCategory::from(created)))
}

/// Change a category's name, default flag or statement deadline.
#[utoipa::path(
    patch,
    path = "/admin/report-categories/{categoryId}",
    tag = "admin",
    operation_id = "updateAdminReportCategory",
    params(CategoryPath),
    request_body = CategoryPatch,
    security(("bearer" = ["cityuser:report-categories:manage"])),
    responses(
        (status = 200, description = "The category", body = AdminCategory),
        CategoryManagerErrors,
        (status = 409, description = "`CONFLICT`: the name is taken, or `is_default: false` on the default category", body = service_kit::ErrorBody),
        JsonObjectErrors,
    )
)]
#[tracing::instrument(name = "update_admin_report_category", skip(state, auth, body))]
pub async fn update(
    path: Path<CategoryPath>,
    state: web::Data<AppState>,
    auth: ReportCategoryManager,
    body: Json<CategoryPatch>,
) -> Result<Json<AdminCategory>, ApiError> {
    let body = body.0;
    let id = path.id()?;
    let change = CategoryChange {
        name: body.name.as_deref().map(check_name).transpose()?,
        is_default: body.is_default,
        statement_deadline_days: body
            .statement_deadline_days
            .map(check_deadline)
            .transpose()?,
    };
    let updated = app::categories::update(
        state.stores.admin.as_ref(),
        id,
        &change,
        &auth.0.subject,
        state.clock.now(),
    )
    .await
    .map_err(category_error)?;
    Ok(Json(AdminCategory::from(updated)))
}

/// Delete a category no report was ever placed in (with its officer assignments).
#[utoipa::path(
    delete,
    path = "/admin/report-categories/{categoryId}",
    tag = "admin",
    operation_id = "deleteAdminReportCategory",
    params(CategoryPath),
    security(("bearer" = ["cityuser:report-categories:manage"])),
    responses(
        (status = 204, description = "Deleted"),
        CategoryManagerErrors,
        (status = 409, description = "`CATEGORY_IN_USE` (issues were placed in it), `CONFLICT` (it is the default category)", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "delete_admin_report_category", skip(state, auth))]
pub async fn delete(
    path: Path<CategoryPath>,
    state: web::Data<AppState>,
    auth: ReportCategoryManager,
) -> Result<HttpResponse, ApiError> {
    let id = path.id()?;
    app::categories::delete(
        state.stores.admin.as_ref(),
        id,
        &auth.0.subject,
        state.clock.now(),
    )
    .await
    .map_err(category_error)?;
    Ok(HttpResponse::NoContent().finish())
}
