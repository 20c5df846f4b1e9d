//! `GET /reports/{reportId}`: one report with the status derived from all its issues.

use std::sync::Arc;

use actix_web::http::header::ContentType;
use actix_web::{web, HttpResponse};
use service_kit::auth::MaybeAuth;
use service_kit::extract::Path;
use service_kit::ApiError;

use super::super::model::{Report, View};
use super::super::AppState;
use super::{kept, report_id, report_not_found};
use crate::store::{DetailKey, ReportDetail};

/// A report.
///
/// The status is derived from all its issues: the least advanced wins (open, then accepted,
/// then duplicate, then resolved); moved issues do not count, and a report with only moved
/// issues has no status. While `explicit` is set, the media are hidden from everyone but the
/// report's author.
#[utoipa::path(
    get,
    path = "/reports/{reportId}",
    tag = "reports",
    operation_id = "getReport",
    params(("reportId" = String, Path, description = "The report id (a UUID)")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The report", body = Report),
        (status = 401, description = "`UNAUTHORIZED`: a token was sent but is invalid", body = service_kit::ErrorBody),
        (status = 404, description = "`REPORT_NOT_FOUND`", body = service_kit::ErrorBody),
        (status = 503, description = "`SERVICE_UNAVAILABLE`", body = service_kit::ErrorBody),
    )
)]
#[tracing::instrument(name = "get_report", skip(state, auth))]
pub async fn detail(
    path: Path<String>,
    state: web::Data<AppState>,
    auth: MaybeAuth,
) -> Result<HttpResponse, ApiError> {
    let id = report_id(&path)?;
    let now = state.clock.now();
    let reports = &state.stores.reports;
    let details = &state.details;
    let signed_in = auth.0.is_some();
    let is_author = |key: &DetailKey| match (&auth.0, &key.author) {
        (Some(principal), Some(author)) => principal.subject == *author,
        _ => false,
    };
    // With a detail kept, its version is read first (with the vote count): a kept detail of
    // that version is still what the database holds (kept.rs). With none, the detail is read
    // with its version in one statement. The author's own view (media shown while `explicit`)
    // is never kept.
    // An anonymous request takes that version and count from the list index, after the feed
    // read every page waits for (no statement of its own); a signed-in one reads the author too.
    if let Some((version, head)) = details.peek(id) {
        let indexed = match (&state.list_index, signed_in) {
            (Some(index), false) => index.detail_key(id, now).await,
            _ => None,
        };
        let key = match indexed {
            Some((version, votes_count)) => DetailKey {
                version,
                author: None,
                votes_count,
            },
            None => reports
                .report_detail_key(id, now, signed_in)
                .await?
                .ok_or_else(report_not_found)?,
        };
        if key.version == version && !is_author(&key) {
            details.count(true, 1);
            return respond(&head, key.votes_count);
        }
    }
    details.count(false, 1);
    let ReportDetail { key, found } = reports
        .report_detail(id, now)
        .await?
        .ok_or_else(report_not_found)?;
    let own = is_author(&key);
    let status = found.status();
    let view = if own { View::Trusted } else { View::Public };
    let mut report = Report::from_store(found.report, &state.media, view, None);
    report.status = status;
    let head: Arc<str> = kept::head(report).map_err(ApiError::internal)?.into();
    if !own {
        details.put(id, key.version, head.clone());
    }
    respond(&head, key.votes_count)
}

/// The detail: its head and the vote count.
fn respond(head: &str, votes_count: i64) -> Result<HttpResponse, ApiError> {
    let mut body = Vec::with_capacity(head.len() + 32);
    body.extend_from_slice(head.as_bytes());
    kept::finish(&mut body, votes_count, None).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}
