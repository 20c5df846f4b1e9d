//! `POST /admin/issues/{issueId}/statements`: an officer's statement on an issue
//! (multipart/form-data: `text`, `final`, `media` files).

use actix_web::{web, HttpRequest, HttpResponse};
use domain::i18n::Message;
use domain::reports::check_statement;
use service_kit::extract::{parse_bool, Path};
use service_kit::multipart::{MultipartReader, MultipartSpec, Part};
use service_kit::ApiError;

use super::super::params::IssuePath;
use super::super::uploads::{with_media, StoredFiles};
use super::super::AppState;
use super::dto::AdminStatement;
use super::{accessible_issue, workflow_error, ReportManager};
use crate::routes::responses::{IssueManagerErrors, UploadErrors};

#[derive(Default)]
struct Form {
    text: Option<String>,
    final_: bool,
    files: StoredFiles,
}

/// Add a statement to an issue.
///
/// `multipart/form-data` with `text` (required, 1–4096 characters), `final` (`true` or
/// `false`, default `false`: the city's final word on the issue) and `media` (files, as for
/// filing a report). The statement appears in the citizen's timeline without its author, under
/// the issue's current step (under its first step while the issue is still open), and in the
/// timeline of every duplicate of the issue. The report counts as processed from then on.
#[utoipa::path(
    post,
    path = "/admin/issues/{issueId}/statements",
    tag = "admin",
    operation_id = "addIssueStatement",
    params(IssuePath),
    request_body(content_type = "multipart/form-data", content = StatementForm),
    security(("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 201, description = "The statement", body = AdminStatement),
        (status = 400, description = "`VALIDATION_ERROR` (text missing, empty or too long; final not true/false; an unknown or repeated field), `NO_MEDIA` (an empty file part), `TOTAL_MEDIA_SIZE_TOO_LARGE`", body = service_kit::ErrorBody),
        IssueManagerErrors,
        UploadErrors,
    )
)]
#[tracing::instrument(name = "add_issue_statement", skip_all)]
pub async fn add(
    req: HttpRequest,
    path: Path<IssuePath>,
    body: web::Payload,
    state: web::Data<AppState>,
    auth: ReportManager,
) -> Result<HttpResponse, ApiError> {
    let (item, _) = accessible_issue(&state, &auth.0, &path).await?;
    let spec = with_media(
        MultipartSpec::new(state.form_limits)
            .required_text("text")
            .text("final"),
    );
    let mut reader = MultipartReader::from_request(&req, body, spec)?;
    let mut form = Form::default();
    let read = read_form(&state, &mut reader, &mut form).await;
    let added = match (read, form.text.take()) {
        (Ok(()), Some(text)) => crate::app::workflow::add_statement(
            state.stores.issues.as_ref(),
            item.issue.id,
            &text,
            form.final_,
            &form.files.media,
            &auth.0.subject,
            state.clock.now(),
        )
        .await
        .map_err(workflow_error),
        (Ok(()), None) => Err(ApiError::validation(
            Message::new("multipart-missing-field").arg("field", "text"),
        )),
        (Err(err), _) => Err(err),
    };
    let added = form
        .files
        .discard_if_refused(&state, &mut reader, added)
        .await?;
    Ok(HttpResponse::Created().json(AdminStatement::from_store(&added, &state.media)))
}

async fn read_form(
    state: &AppState,
    reader: &mut MultipartReader,
    form: &mut Form,
) -> Result<(), ApiError> {
    while let Some(part) = reader.next().await? {
        match part {
            Part::Text { name, value } => match name {
                "text" => {
                    check_statement(&value).map_err(|e| ApiError::validation(e.message()))?;
                    form.text = Some(value);
                }
                "final" => {
                    form.final_ = parse_bool(&value).ok_or_else(|| {
                        ApiError::validation(Message::new("statement-final-invalid"))
                    })?
                }
                _ => {}
            },
            Part::File(mut file) => form.files.store(state, &mut file).await?,
        }
    }
    Ok(())
}

/// The form of `POST /admin/issues/{issueId}/statements` (documentation).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // read by utoipa only
pub struct StatementForm {
    /// 1–4096 characters.
    #[schema(min_length = 1, max_length = 4096)]
    text: String,
    /// `true` or `false` (default): the city's final word on the issue.
    #[schema(value_type = Option<String>, pattern = "^(true|false)$")]
    #[serde(rename = "final")]
    final_: Option<bool>,
    /// Photos or documents (JPEG, PNG, WebP, HEIC, PDF).
    #[schema(value_type = Option<Vec<String>>, format = Binary)]
    media: Option<Vec<Vec<u8>>>,
}
