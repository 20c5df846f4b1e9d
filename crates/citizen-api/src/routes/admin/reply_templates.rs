//! Reply templates (`GET`/`POST /admin/reply-templates`, `PATCH`/`DELETE
//! /admin/reply-templates/{templateId}`), a file per action: texts per report category in the
//! city's languages that the console offers when an officer writes a statement, pre-filled on a
//! status change when the template says so (`applies_on`). The rules are
//! `domain::reply_templates`; a change runs in `app::reply_templates`.
//!
//! Access as on the rest of the officers' side: the templates of the caller's categories (every
//! category with `cityuser:report-categories:access-all`); another category's template answers
//! 404 `REPLY_TEMPLATE_NOT_FOUND` and another category 404 `CATEGORY_NOT_FOUND`, exactly like
//! ones that do not exist.

pub mod create;
pub mod delete;
pub mod list;
pub mod update;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use domain::error_code::ErrorCode;
use domain::reply_templates::{check_applies_on, check_texts, TemplateRefusal, Texts};
use serde::Serialize;
use service_kit::instant;
use service_kit::ApiError;
use utoipa::ToSchema;
use uuid::Uuid;

use super::category_not_found;
use crate::app::reply_templates::TemplateError;
use crate::routes::not_found::reply_template_not_found;
use crate::store::reply_templates::ReplyTemplate;

/// A template's texts by language (`cs`, `en`, `uk`: no other key); a language without a text is
/// left out, and at least one has one. Each text 1–4096 characters (a statement's limit), not
/// blank.
#[derive(Debug, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplateTexts {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, min_length = 1, max_length = 4096)]
    pub cs: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, min_length = 1, max_length = 4096)]
    pub en: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, min_length = 1, max_length = 4096)]
    pub uk: Option<String>,
}

impl From<Texts> for TemplateTexts {
    fn from(t: Texts) -> Self {
        Self {
            cs: t.cs,
            en: t.en,
            uk: t.uk,
        }
    }
}

/// The status change a template is meant for (the console pre-fills it on that step).
#[derive(ToSchema)]
#[schema(as = TemplateAppliesOn)]
#[allow(dead_code)] // the wire value is domain::reply_templates::AppliesOn; this describes it
pub enum AppliesOnSchema {
    #[schema(rename = "accepted")]
    Accepted,
    #[schema(rename = "resolved")]
    Resolved,
}

/// A reply template.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReplyTemplate)]
pub struct ReplyTemplateItem {
    pub template_id: Uuid,
    /// The report category it belongs to.
    pub category_id: Uuid,
    /// 1–200 characters, trimmed.
    pub title: String,
    pub texts: TemplateTexts,
    /// `accepted` or `resolved`: the step the console offers it with; null: none.
    #[schema(value_type = Option<AppliesOnSchema>)]
    pub applies_on: Option<&'static str>,
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
    /// The last change (`inserted_at` until the first).
    #[serde(serialize_with = "instant::serialize")]
    pub updated_at: DateTime<Utc>,
}

impl From<ReplyTemplate> for ReplyTemplateItem {
    fn from(t: ReplyTemplate) -> Self {
        Self {
            template_id: t.id,
            category_id: t.category_id,
            title: t.title,
            texts: t.texts.into(),
            applies_on: t.applies_on.map(|a| a.as_str()),
            inserted_at: t.inserted_at,
            updated_at: t.updated_at,
        }
    }
}

/// `GET /admin/reply-templates`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplyTemplates {
    /// By category name, then title.
    pub templates: Vec<ReplyTemplateItem>,
}

/// 400 `VALIDATION_ERROR` of a refused field.
fn invalid(refusal: TemplateRefusal) -> ApiError {
    ApiError::validation(refusal.message())
}

/// `texts` as sent, checked.
fn texts(sent: &BTreeMap<String, String>) -> Result<Texts, ApiError> {
    check_texts(sent.iter().map(|(k, v)| (k.as_str(), v.as_str()))).map_err(invalid)
}

/// `applies_on` as sent (null: none), checked.
fn applies_on(sent: Option<&str>) -> Result<Option<domain::reply_templates::AppliesOn>, ApiError> {
    check_applies_on(sent).map_err(invalid)
}

/// The answer to a refused change.
fn template_error(err: TemplateError) -> ApiError {
    match err {
        TemplateError::CategoryNotFound => category_not_found(),
        TemplateError::NotFound => reply_template_not_found(),
        TemplateError::Refused(refusal @ TemplateRefusal::TooMany) => {
            ApiError::new(ErrorCode::TooManyReplyTemplates, refusal.message())
        }
        TemplateError::Refused(refusal) => invalid(refusal),
        TemplateError::Store(err) => err.into(),
    }
}
