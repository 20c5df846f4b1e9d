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
//!
//! With an `Idempotency-Key` header (`app::idempotency`) the key is claimed before any part is
//! read: a key whose first request still runs is 409 `IDEMPOTENCY_KEY_IN_USE`; a key answered
//! before has the form read only to hash it, and is answered the first answer again (the same
//! form) or 422 `IDEMPOTENCY_KEY_REUSED` (another form); a new key files as above and stores
//! its answer in the filing's transaction.

use actix_web::{web, HttpRequest, HttpResponse};
use domain::error_code::ErrorCode;
use domain::geo::{parse_location, LocationParam};
use domain::i18n::Message;
use domain::reports::{check_address, check_description, check_title};
use service_kit::auth::MaybeAuth;
use service_kit::docs::responses::{InvalidToken, ServiceUnavailable};
use service_kit::multipart::{MultipartReader, MultipartSpec, Part};
use service_kit::ApiError;
use uuid::Uuid;

use super::idempotency::{key_of, ClaimGuard};
use crate::app::filing::Answering;
use crate::app::idempotency;
use crate::store::idempotency::{Claim, StoredAnswer};

use super::super::dto::{Report, View};
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
    address: Option<String>,
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
///
/// A client that may retry (a dropped connection on a mobile network) sends an
/// `Idempotency-Key`: a retry with the same key and the same form within
/// `reports.idempotency_key_hours` (24 h by default) is answered the first filing's answer
/// again and files nothing.
#[utoipa::path(
    post,
    path = "/reports",
    tag = "reports",
    operation_id = "createReport",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "A key of the client's choice (1–255 visible ASCII characters, as a bare token or a quoted structured-field string; a UUID v4 is a good one) that makes retrying the filing safe (IETF httpapi idempotency-key-header draft). Keys are kept per signed-in citizen or, anonymous, per client address (IPv4, IPv6 /64) for `reports.idempotency_key_hours` (24 h). The same key with the same form (fields and files, the CAPTCHA token left out) answers the first answer again (status and body) and files nothing; with another form it is 422 `IDEMPOTENCY_KEY_REUSED`; while the first request with the key is still running it is 409 `IDEMPOTENCY_KEY_IN_USE` (retry later). A filing that failed does not keep its key."),
    ),
    request_body(content_type = "multipart/form-data", content = ReportForm),
    security((), ("bearer" = [])),
    responses(
        (status = 201, description = "The filed report", body = Report),
        (status = 400, description = "`VALIDATION_ERROR` (a field missing, empty, too long, unknown or repeated; too many files; a malformed `Idempotency-Key`), `NO_MEDIA` (an empty or unreadable file part), `TOTAL_MEDIA_SIZE_TOO_LARGE`, `REPORT_INVALID_LOCATION`, `REPORT_OUTSIDE_CITY`", body = service_kit::ErrorBody),
        InvalidToken,
        (status = 403, description = "`CAPTCHA_VERIFICATION_FAILED`: anonymous filing without a valid CAPTCHA token", body = service_kit::ErrorBody),
        FileTooLarge,
        (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not multipart/form-data, or a file type that is not accepted", body = service_kit::ErrorBody),
        (status = 409, description = "`IDEMPOTENCY_KEY_IN_USE`: a filing with this `Idempotency-Key` is still running", body = service_kit::ErrorBody),
        (status = 422, description = "`IDEMPOTENCY_KEY_REUSED`: this `Idempotency-Key` was used for another form", body = service_kit::ErrorBody),
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
    let key = key_of(&req)?;
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
            .text("address")
            .text("captchaToken"),
    );
    let mut reader = MultipartReader::from_request(&req, body, spec)?;
    let claim = match key {
        None => None,
        Some(key) => {
            reader = reader.with_content_digest(&["captchaToken"]);
            let scope = match &author {
                Some(subject) => idempotency::scope_of_subject(subject),
                None => idempotency::scope_of_client(client),
            };
            match claim_key(&state, &scope, &key).await? {
                Claim::Claimed => Some(ClaimGuard::new(
                    state.stores.idempotency.clone(),
                    scope,
                    key,
                )),
                Claim::InProgress => {
                    reader.discard_rest().await;
                    return Err(ApiError::new(
                        ErrorCode::IdempotencyKeyInUse,
                        Message::new("idempotency-key-in-use"),
                    ));
                }
                Claim::Done(answer) => return replay(&mut reader, answer).await,
            }
        }
    };
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
        Ok(()) => {
            let digest = reader.content_digest().map(hex::encode);
            file(&state, &mut form, author, claim.as_ref(), digest).await
        }
        Err(err) => Err(err),
    };
    let answer = form
        .files
        .discard_if_refused(&state, &mut reader, filed)
        .await;
    if let Some(claim) = claim {
        // A completed claim stays; a failed filing's goes, so a retry may file.
        claim.release().await;
    }
    Ok(HttpResponse::Created()
        .content_type("application/json")
        .body(answer?))
}

/// Claims `key` in `scope` at the state's clock.
async fn claim_key(state: &AppState, scope: &str, key: &str) -> Result<Claim, ApiError> {
    let now = state.clock.now();
    let expired_before = now.checked_sub_signed(state.idempotency_ttl).unwrap_or(now);
    let stale_before = now
        .checked_sub_signed(idempotency::STALE_AFTER)
        .unwrap_or(now);
    Ok(state
        .stores
        .idempotency
        .claim_key(scope, key, now, expired_before, stale_before)
        .await?)
}

/// A key answered before: the form is read to its end (nothing stored) and hashed; the same
/// form gets the stored answer again, another one 422 `IDEMPOTENCY_KEY_REUSED`.
async fn replay(
    reader: &mut MultipartReader,
    answer: StoredAnswer,
) -> Result<HttpResponse, ApiError> {
    while let Some(part) = reader.next().await? {
        if let Part::File(mut file) = part {
            while file.chunk().await?.is_some() {}
        }
    }
    let digest = reader.content_digest().map(hex::encode);
    if digest.as_deref() != Some(answer.request_hash.as_str()) {
        return Err(ApiError::new(
            ErrorCode::IdempotencyKeyReused,
            Message::new("idempotency-key-reused"),
        ));
    }
    let status = actix_web::http::StatusCode::from_u16(answer.status)
        .map_err(|err| ApiError::internal(anyhow::anyhow!("stored answer status: {err}")))?;
    Ok(HttpResponse::build(status)
        .content_type("application/json")
        .body(answer.body))
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
                "address" => {
                    form.address =
                        check_address(&value).map_err(|e| ApiError::validation(e.message()))?;
                }
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

/// Files the form read: the answer's JSON body; with a `claim`, the answer is stored under its
/// key in the filing's transaction (the form's `digest` with it).
async fn file(
    state: &AppState,
    form: &mut Form,
    author: Option<String>,
    claim: Option<&ClaimGuard>,
    digest: Option<String>,
) -> Result<String, ApiError> {
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
        address: form.address.take(),
        media: form.files.media.clone(),
        media_link: None,
    };
    let now = state.clock.now();
    let report = crate::store::Report::filed(&new, now);
    let mut shown = Report::from_store(report, &state.media, View::Trusted, None);
    shown.status = Some(domain::issues::IssueStatus::Open);
    let body = serde_json::to_string(&shown)
        .map_err(|err| ApiError::internal(anyhow::anyhow!("the filed report as JSON: {err}")))?;
    let answer = StoredAnswer {
        request_hash: digest.unwrap_or_default(),
        status: 201,
        body,
    };
    let answering = claim.map(|c| Answering {
        scope: &c.scope,
        key: &c.key,
        answer: &answer,
    });
    let filed = crate::app::filing::file_report_answering(
        state.stores.issues.as_ref(),
        &new,
        now,
        answering,
    )
    .await?
    .ok_or_else(|| ApiError::unavailable(anyhow::anyhow!("there is no default report category")))?;
    crate::routes::admin::duplicates::suggest(state, crate::store::admin::Opened::Report(filed.id))
        .await;
    Ok(answer.body)
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
    /// The place in words (`Vodičkova 20, by the tram stop`), at most 200 characters; a blank
    /// one is none. Shown on the report's detail.
    #[schema(max_length = 200)]
    address: Option<String>,
    /// Photos or documents (JPEG, PNG, WebP, HEIC, PDF).
    #[schema(value_type = Option<Vec<String>>, format = Binary)]
    media: Option<Vec<Vec<u8>>>,
    /// reCAPTCHA v3 token; required without a bearer token.
    #[serde(rename = "captchaToken")]
    captcha_token: Option<String>,
}
