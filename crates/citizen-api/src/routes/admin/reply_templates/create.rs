//! `POST /admin/reply-templates`: a new template in one of the caller's categories.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use domain::reply_templates::check_title;
use serde::Deserialize;
use service_kit::docs::responses::{NotJson, PayloadTooLarge};
use service_kit::extract::Json;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::super::AppState;
use super::super::{access, ReportManager};
use super::{applies_on, invalid, template_error, texts, ReplyTemplateItem};
use super::{AppliesOnSchema, TemplateTexts};
use crate::app::reply_templates::{self, NewTemplate};
use crate::routes::responses::{CategoryNotFound, ManagerErrors};

/// `POST /admin/reply-templates`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewReplyTemplate {
    /// A category the caller works.
    pub category_id: Uuid,
    /// 1–200 characters (trimmed).
    #[schema(min_length = 1, max_length = 200)]
    pub title: String,
    /// At least one of `cs`, `en`, `uk`, and no other key.
    #[schema(value_type = TemplateTexts)]
    pub texts: BTreeMap<String, String>,
    /// `accepted`, `resolved`, or null (the default): the step the console offers it with.
    #[serde(default)]
    #[schema(value_type = Option<AppliesOnSchema>)]
    pub applies_on: Option<String>,
}

/// Add a reply template to a category.
///
/// In a category the caller works (every category with
/// `cityuser:report-categories:access-all`; another one answers 404 like one that does not
/// exist). A category holds at most 100 templates.
#[utoipa::path(
    post,
    path = "/admin/reply-templates",
    tag = "admin",
    operation_id = "createReplyTemplate",
    request_body = NewReplyTemplate,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 201, description = "The template", body = ReplyTemplateItem),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (the title empty or over 200 characters; no text, a text empty or over 4096 characters, a language other than cs, en, uk; `applies_on` other than accepted, resolved or null; an unknown field)", body = service_kit::ErrorBody),
        ManagerErrors,
        CategoryNotFound,
        (status = 409, description = "`TOO_MANY_REPLY_TEMPLATES`: the category holds 100 templates already", body = service_kit::ErrorBody),
        PayloadTooLarge,
        NotJson,
    )
)]
#[tracing::instrument(name = "create_reply_template", skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    auth: ReportManager,
    body: Json<NewReplyTemplate>,
) -> Result<HttpResponse, ApiError> {
    let body = body.0;
    let new = NewTemplate {
        category_id: body.category_id,
        title: check_title(&body.title).map_err(invalid)?,
        texts: texts(&body.texts)?,
        applies_on: applies_on(body.applies_on.as_deref())?,
    };
    let access = access(&state, &auth.0).await?;
    let created = reply_templates::create(
        state.stores.reply_templates.as_ref(),
        &access,
        new,
        state.clock.now(),
    )
    .await
    .map_err(template_error)?;
    Ok(HttpResponse::Created().json(ReplyTemplateItem::from(created)))
}
