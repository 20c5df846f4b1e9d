//! `PATCH /admin/reply-templates/{templateId}`: a change of a template's title, texts or
//! `applies_on`.

use std::collections::BTreeMap;

use actix_web::web;
use domain::reply_templates::check_title;
use serde::Deserialize;
use service_kit::docs::responses::{NotJson, PayloadTooLarge};
use service_kit::extract::{Json, Path};
use service_kit::ApiError;
use utoipa::ToSchema;

use super::super::super::news_categories::present;
use super::super::super::params::ReplyTemplatePath;
use super::super::super::AppState;
use super::super::{access, ReportManager};
use super::{applies_on, invalid, template_error, texts, ReplyTemplateItem};
use super::{AppliesOnSchema, TemplateTexts};
use crate::app::reply_templates::{self, TemplateChange};
use crate::routes::responses::TemplateManagerErrors;

/// `PATCH /admin/reply-templates/{templateId}`: the fields to change (absent: as they are).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplyTemplatePatch {
    /// 1–200 characters (trimmed).
    #[schema(min_length = 1, max_length = 200)]
    pub title: Option<String>,
    /// Replaces every text: a language left out has none afterwards.
    #[schema(value_type = Option<TemplateTexts>)]
    pub texts: Option<BTreeMap<String, String>>,
    /// `accepted`, `resolved`, or null for none.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<AppliesOnSchema>)]
    pub applies_on: Option<Option<String>>,
}

/// Change a reply template.
///
/// A template of a category the caller works (else 404 like one that does not exist); `texts`
/// replaces the whole set of languages. The category of a template does not change.
#[utoipa::path(
    patch,
    path = "/admin/reply-templates/{templateId}",
    tag = "admin",
    operation_id = "updateReplyTemplate",
    params(ReplyTemplatePath),
    request_body = ReplyTemplatePatch,
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The template as changed", body = ReplyTemplateItem),
        (status = 400, description = "`INVALID_JSON`, `VALIDATION_ERROR` (as for a new template; an unknown field, `category_id` included)", body = service_kit::ErrorBody),
        TemplateManagerErrors,
        PayloadTooLarge,
        NotJson,
    )
)]
#[tracing::instrument(name = "update_reply_template", skip(state, auth, body))]
pub async fn update(
    path: Path<ReplyTemplatePath>,
    state: web::Data<AppState>,
    auth: ReportManager,
    body: Json<ReplyTemplatePatch>,
) -> Result<Json<ReplyTemplateItem>, ApiError> {
    let id = path.id()?;
    let body = body.0;
    let change = TemplateChange {
        title: body
            .title
            .as_deref()
            .map(check_title)
            .transpose()
            .map_err(invalid)?,
        texts: body.texts.as_ref().map(texts).transpose()?,
        applies_on: body
            .applies_on
            .map(|value| applies_on(value.as_deref()))
            .transpose()?,
    };
    let access = access(&state, &auth.0).await?;
    let updated = reply_templates::update(
        state.stores.reply_templates.as_ref(),
        &access,
        id,
        change,
        state.clock.now(),
    )
    .await
    .map_err(template_error)?;
    Ok(Json(ReplyTemplateItem::from(updated)))
}
