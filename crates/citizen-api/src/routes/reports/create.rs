//! `POST /reports`: filing a report (multipart/form-data), anonymously or signed in.
//!
//! The body is read part by part and each part is dealt with as it arrives, so a bad request is
//! refused as early as possible and a file is never held whole:
//! 1. an anonymous filer is rate-limited per client address before any part is read;
//! 2. `title`, `description` and `location` are checked when they arrive (400 at the first bad
//!    one, before any later file is stored);
//! 3. `captchaToken` is verified when it arrives (anonymous filers only); a file that comes
//!    before a verified token is stored and removed again if verification fails;
//! 4. each `media` part is sniffed, stripped of metadata and streamed to the media store; the
//!    files' uploaded bytes together may not pass `media.max_total_bytes`
//!    (`TOTAL_MEDIA_SIZE_TOO_LARGE`; the reader stops a body long before it could pass the
//!    total plus the text fields, so nothing unbounded is ever read);
//! 5. the report, its media rows and its first issue are written in one transaction.
//!
//! Whatever fails after a file was stored, the stored files are deleted before the error is
//! answered: a failed filing leaves no row and no file.

use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::geo::{parse_location, LocationParam};
use domain::i18n::Message;
use domain::reports::{check_description, check_title};
use service_kit::auth::MaybeAuth;
use service_kit::docs::responses::{InvalidToken, ServiceUnavailable};
use service_kit::multipart::{MultipartReader, MultipartSpec, Part};
use service_kit::ApiError;
use uuid::Uuid;

use super::super::model::{Report, View};
use super::super::uploads::{with_media, StoredFiles};
use super::super::AppState;
use crate::routes::responses::FileTooLarge;
use crate::store::NewReport;

/// What has been read of the form so far.
#[derive(Default)]
struct Form {
    title: Option<String>,
    description: Option<String>,
    location: Option<LocationParam>,
    captcha_verified: bool,
    files: StoredFiles,
}

/// Checks a `location` value: readable, and inside the city.
fn check_location(state: &AppState, raw: &str) -> Result<LocationParam, ApiError> {
    let location = parse_location(raw).map_err(|_| {
        ApiError::new(
            ErrorCode::ReportInvalidLocation,
            Message::new("report-invalid-location"),
        )
    })?;
    if !state.city.contains(location.point) {
        return Err(ApiError::new(
            ErrorCode::ReportOutsideCity,
            Message::new("report-outside-city"),
        ));
    }
    Ok(location)
}

/// File a report.
///
/// `multipart/form-data` with `title` (required, 1–256 characters), `description` (required,
/// 1–2048 characters), `location` (optional, `longitude,latitude[,radius_m]`, inside the city),
/// `media` (files; JPEG, PNG, WebP, HEIC or PDF, decided by their bytes; EXIF/GPS metadata is
/// removed from photos before storing) and `captchaToken` (required without a bearer token).
/// No other field is accepted. A signed-in citizen's report is theirs (`GET /me/reports`).
/// Anonymous filings are rate-limited per client address (429 with `Retry-After`). The report
/// gets one open issue in the default category.
#[utoipa::path(
    post,
    path = "/reports",
    tag = "reports",
    operation_id = "createReport",
    request_body(content_type = "multipart/form-data", content = ReportForm),
    security((), ("bearer" = [])),
    responses(
        (status = 201, description = "The filed report", body = Report),
        (status = 400, description = "`VALIDATION_ERROR` (a field missing, empty, too long, unknown or repeated; too many files), `NO_MEDIA` (an empty or unreadable file part), `TOTAL_MEDIA_SIZE_TOO_LARGE`, `REPORT_INVALID_LOCATION`, `REPORT_OUTSIDE_CITY`", body = service_kit::ErrorBody),
        InvalidToken,
        (status = 403, description = "`CAPTCHA_VERIFICATION_FAILED`: anonymous filing without a valid CAPTCHA token", body = service_kit::ErrorBody),
        FileTooLarge,
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not multipart/form-data, or a file type that is not accepted", body = service_kit::ErrorBody),
        (status = 429, description = "`TOO_MANY_REQUESTS`: anonymous filings from this address over the limit", body = service_kit::ErrorBody),
        ServiceUnavailable,
    )
)]
#[tracing::instrument(name = "create_report", skip_all)]
pub async fn create(
    req: HttpRequest,
    body: web::Payload,
    state: web::Data<AppState>,
    auth: MaybeAuth,
) -> Result<HttpResponse, ApiError> {
    if let Some(principal) = &auth.0 {
        crate::routes::notifications::remember_locale(&state, principal).await?;
    }
    let author = auth.0.map(|p| p.subject);
    let client = crate::rate_limit::client_address(&req, state.trusted_proxy_hops);
    if author.is_none() {
        state
            .rate_limiter
            .check_request(&req, std::time::Instant::now())?;
    }
    let spec = with_media(
        MultipartSpec::new(state.form_limits)
            .required_text("title")
            .required_text("description")
            .text("location")
            .text("captchaToken"),
    );
    let mut reader = MultipartReader::from_request(&req, body, spec)?;
    let mut form = Form {
        captcha_verified: author.is_some(),
        ..Form::default()
    };
    let read = read_form(&state, &mut reader, &mut form, client).await;
    #[cfg(debug_assertions)]
    if read.is_ok() {
        hold_for_tests(&form).await;
    }
    let filed = match read {
        Ok(()) => file(&state, &mut form, author).await,
        Err(err) => Err(err),
    };
    let report = form
        .files
        .discard_if_refused(&state, &mut reader, filed)
        .await?;
    Ok(HttpResponse::Created().json(report))
}

/// Test-only, in debug builds (the fault suite's killed filing): with
/// `CITIZEN_API_TEST_HOLD_FILING=<path>` in the environment, a filing whose files are written
/// writes their media ids to `<path>` and then waits for ever before its transaction, so a test
/// can kill the process between the write and the commit. Release builds do not read it.
#[cfg(debug_assertions)]
async fn hold_for_tests(form: &Form) {
    let Some(marker) = std::env::var_os("CITIZEN_API_TEST_HOLD_FILING") else {
        return;
    };
    let ids: Vec<String> = form.files.media.iter().map(|m| m.id.to_string()).collect();
    if let Err(err) = std::fs::write(&marker, ids.join("\n")) {
        tracing::warn!(error = %err, "CITIZEN_API_TEST_HOLD_FILING: cannot write the marker");
    }
    std::future::pending::<()>().await;
}

async fn read_form(
    state: &AppState,
    reader: &mut MultipartReader,
    form: &mut Form,
    client: Option<std::net::IpAddr>,
) -> Result<(), ApiError> {
    while let Some(part) = reader.next().await? {
        match part {
            Part::Text { name, value } => match name {
                "title" => {
                    check_title(&value).map_err(|e| ApiError::validation(e.message()))?;
                    form.title = Some(value);
                }
                "description" => {
                    check_description(&value).map_err(|e| ApiError::validation(e.message()))?;
                    form.description = Some(value);
                }
                "location" => form.location = Some(check_location(state, &value)?),
                "captchaToken" if !form.captcha_verified => {
                    state.captcha.verify(Some(&value), client).await?;
                    form.captcha_verified = true;
                }
                _ => {}
            },
            Part::File(mut file) => form.files.store(state, &mut file).await?,
        }
    }
    if !form.captcha_verified {
        // Anonymous and no token at all: the verifier answers the missing-token refusal.
        state.captcha.verify(None, client).await?;
        form.captcha_verified = true;
    }
    Ok(())
}

async fn file(
    state: &AppState,
    form: &mut Form,
    author: Option<String>,
) -> Result<Report, ApiError> {
    let (Some(title), Some(description)) = (form.title.take(), form.description.take()) else {
        // The reader refuses a form without its required fields; this cannot be reached.
        return Err(ApiError::validation(
            Message::new("multipart-missing-field").arg("field", "title"),
        ));
    };
    let new = NewReport {
        id: Uuid::now_v7(),
        author,
        title,
        description,
        location: form.location,
        media: form.files.media.clone(),
    };
    let report =
        crate::app::filing::file_report(state.stores.issues.as_ref(), &new, state.clock.now())
            .await?
            .ok_or_else(|| {
                ApiError::unavailable(anyhow::anyhow!("there is no default report category"))
            })?;
    crate::routes::admin::duplicates::suggest(
        state,
        crate::store::admin::Opened::Report(report.id),
    )
    .await;
    let mut shown = Report::from_store(report, &state.media, View::Trusted, None);
    shown.status = Some(domain::issues::IssueStatus::Open);
    Ok(shown)
}

/// The form of `POST /reports` (documentation).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // read by utoipa only
pub struct ReportForm {
    /// 1–256 characters.
    #[schema(min_length = 1, max_length = 256)]
    title: String,
    /// 1–2048 characters.
    #[schema(min_length = 1, max_length = 2048)]
    description: String,
    /// `longitude,latitude[,radius_m]` in WGS84, inside the city (`GET /geo/boundary`).
    #[schema(example = "14.4213,50.0875")]
    location: Option<String>,
    /// Photos or documents (JPEG, PNG, WebP, HEIC, PDF).
    #[schema(value_type = Option<Vec<String>>, format = Binary)]
    media: Option<Vec<Vec<u8>>>,
    /// reCAPTCHA v3 token; required without a bearer token.
    #[serde(rename = "captchaToken")]
    captcha_token: Option<String>,
}
