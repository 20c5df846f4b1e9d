//! `GET /admin/stats`: the figures officers are judged by (issue 56, docs/officers-guide.md
//! "Figures"), per category of the caller and in total, as JSON or as a CSV download.

use std::borrow::Cow;

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, TimeDelta, Utc};
use domain::i18n::Message;
use domain::limits::LimitError;
use domain::stats::{figures, Durations, Figures, MAX_PERIOD_DAYS};
use serde::{Deserialize, Serialize};
use service_kit::extract::Query;
use service_kit::ApiError;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::super::params::{category_ids, date};
use super::super::AppState;
use super::access;
use crate::routes::responses::ReaderErrors;
use crate::routes::scopes::ReportReader;
use crate::store::stats::StatsQuery;

/// The period's default length when `dateFrom` is absent.
const DEFAULT_PERIOD_DAYS: i64 = 30;

/// The parameters of `GET /admin/stats`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatsParams {
    /// The period's start, included (RFC 3339); default 30 days before `dateTo`.
    #[serde(rename = "dateFrom")]
    #[param(value_type = Option<DateTime<Utc>>)]
    date_from: Option<String>,
    /// The period's end, excluded (RFC 3339); default the time of the request. At most 366 days
    /// after `dateFrom`.
    #[serde(rename = "dateTo")]
    #[param(value_type = Option<DateTime<Utc>>)]
    date_to: Option<String>,
    /// Category ids (repeat the parameter for several): only these of the caller's categories.
    #[serde(default)]
    #[param(value_type = Option<Vec<Uuid>>)]
    category: Vec<String>,
    /// `json` (the default) or `csv`: a download with a line per category, then the total.
    #[param(pattern = "^(json|csv)$")]
    format: Option<String>,
}

/// The answer's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
}

/// A validated request: the period, the categories asked for and the format.
struct Asked {
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    categories: Vec<Uuid>,
    format: Format,
}

impl StatsParams {
    fn parse(self, now: DateTime<Utc>) -> Result<Asked, LimitError> {
        let to = date("dateTo", self.date_to.as_deref())?.unwrap_or(now);
        let from = date("dateFrom", self.date_from.as_deref())?
            .unwrap_or(to - TimeDelta::days(DEFAULT_PERIOD_DAYS));
        if from >= to || to - from > TimeDelta::days(MAX_PERIOD_DAYS) {
            return Err(LimitError::new(
                "dateFrom",
                Message::new("stats-period-invalid").arg("days", MAX_PERIOD_DAYS.to_string()),
            ));
        }
        let format = match self.format.as_deref().map(str::trim) {
            None | Some("json") => Format::Json,
            Some("csv") => Format::Csv,
            Some(other) => {
                return Err(LimitError::new(
                    "format",
                    Message::new("stats-format-invalid").arg("value", format!("{other:?}")),
                ))
            }
        };
        Ok(Asked {
            from,
            to,
            categories: category_ids(&self.category)?,
            format,
        })
    }
}

/// Durations from a step's start to an event: how many were measured, their median and 90th
/// percentile (nearest rank) in seconds; no percentile without a measurement.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatsDurations {
    pub measured: u64,
    pub median_seconds: Option<i64>,
    pub p90_seconds: Option<i64>,
}

impl From<Durations> for StatsDurations {
    fn from(d: Durations) -> Self {
        Self {
            measured: d.measured,
            median_seconds: d.median_seconds,
            p90_seconds: d.p90_seconds,
        }
    }
}

/// One row of figures.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatsFigures {
    /// Issues placed in the category within the period (filed there, moved or added there),
    /// whatever became of them since.
    pub received: u64,
    /// Accepts made within the period.
    pub accepted: u64,
    /// Resolutions made within the period.
    pub resolved: u64,
    /// Issues marked as duplicates within the period.
    pub duplicates: u64,
    /// Open or accepted issues past the category's statement deadline at the time of the
    /// request, whenever they were placed.
    pub overdue_now: u64,
    /// From placing to the first public statement, over the issues received in the period that
    /// have one (so far).
    pub first_statement: StatsDurations,
    /// From placing to the resolution, over the issues received in the period that are
    /// resolved (so far).
    pub resolution: StatsDurations,
}

impl From<Figures> for StatsFigures {
    fn from(f: Figures) -> Self {
        Self {
            received: f.received,
            accepted: f.accepted,
            resolved: f.resolved,
            duplicates: f.duplicates,
            overdue_now: f.overdue_now,
            first_statement: f.first_statement.into(),
            resolution: f.resolution.into(),
        }
    }
}

/// A category's figures.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryStats {
    pub category_id: Uuid,
    pub category_name: String,
    pub figures: StatsFigures,
}

/// The figures of a period.
#[derive(Debug, Serialize, ToSchema)]
pub struct Stats {
    pub date_from: DateTime<Utc>,
    pub date_to: DateTime<Utc>,
    /// Every category of the caller (or of `category`), by name.
    pub categories: Vec<CategoryStats>,
    /// Over the same categories; its durations are over all their issues.
    pub total: StatsFigures,
}

/// A line of the CSV download.
#[derive(Serialize)]
struct CsvLine<'a> {
    category_id: String,
    category_name: Cow<'a, str>,
    date_from: String,
    date_to: String,
    received: u64,
    accepted: u64,
    resolved: u64,
    duplicates: u64,
    overdue_now: u64,
    first_statement_measured: u64,
    first_statement_median_seconds: Option<i64>,
    first_statement_p90_seconds: Option<i64>,
    resolution_measured: u64,
    resolution_median_seconds: Option<i64>,
    resolution_p90_seconds: Option<i64>,
}

impl Stats {
    fn csv_line<'a>(&self, id: Option<Uuid>, name: &'a str, f: &StatsFigures) -> CsvLine<'a> {
        CsvLine {
            category_id: id.map(|id| id.to_string()).unwrap_or_default(),
            category_name: spreadsheet_safe(name),
            date_from: self.date_from.to_rfc3339(),
            date_to: self.date_to.to_rfc3339(),
            received: f.received,
            accepted: f.accepted,
            resolved: f.resolved,
            duplicates: f.duplicates,
            overdue_now: f.overdue_now,
            first_statement_measured: f.first_statement.measured,
            first_statement_median_seconds: f.first_statement.median_seconds,
            first_statement_p90_seconds: f.first_statement.p90_seconds,
            resolution_measured: f.resolution.measured,
            resolution_median_seconds: f.resolution.median_seconds,
            resolution_p90_seconds: f.resolution.p90_seconds,
        }
    }

    /// The CSV: a header, a line per category, then the total (no id, named `total`).
    fn csv(&self) -> Result<Vec<u8>, ApiError> {
        let mut out = csv::Writer::from_writer(Vec::new());
        for row in &self.categories {
            out.serialize(self.csv_line(Some(row.category_id), &row.category_name, &row.figures))
                .map_err(ApiError::internal)?;
        }
        out.serialize(self.csv_line(None, "total", &self.total))
            .map_err(ApiError::internal)?;
        out.into_inner()
            .map_err(|err| ApiError::internal(err.into_error()))
    }
}

/// A name a spreadsheet would not read as a formula: one starting with `=`, `+`, `-` or `@` is
/// written as text (a leading apostrophe, OWASP's advice for CSV injection).
fn spreadsheet_safe(name: &str) -> Cow<'_, str> {
    if name.starts_with(['=', '+', '-', '@']) {
        Cow::Owned(format!("'{name}"))
    } else {
        Cow::Borrowed(name)
    }
}

/// The figures officers are judged by.
///
/// Per category of the caller (every category with `cityuser:report-categories:access-all`,
/// else the caller's categories; `category` narrows them) and in total, over the period
/// `[dateFrom, dateTo)`: issues received, accepts, resolutions and duplicates made, issues
/// overdue now, and the median and 90th percentile (nearest rank) of the time from placing to
/// the first public statement and to the resolution of the issues received in the period that
/// have reached it. `format=csv` answers the same as a CSV download.
#[utoipa::path(
    get,
    path = "/admin/stats",
    tag = "admin",
    operation_id = "adminStats",
    params(StatsParams),
    security(("bearer" = ["cityuser:reports:read"]), ("bearer" = ["cityuser:reports:manage"])),
    responses(
        (status = 200, description = "The figures: JSON, or with `format=csv` a CSV download", content((Stats = "application/json"), (String = "text/csv"))),
        (status = 400, description = "`VALIDATION_ERROR`: a date is malformed, the period is empty or longer than 366 days, a category id or the format is malformed", body = service_kit::ErrorBody),
        ReaderErrors,
    )
)]
#[tracing::instrument(name = "admin_stats", skip_all)]
pub async fn stats(
    state: web::Data<AppState>,
    auth: ReportReader,
    Query(params): Query<StatsParams>,
) -> Result<HttpResponse, ApiError> {
    let now = state.clock.now();
    let asked = params.parse(now)?;
    let access = access(&state, &auth.0).await?;
    let mut shown: Vec<_> = state
        .stores
        .categories
        .categories()
        .await?
        .into_iter()
        .filter(|c| access.allows(c.id))
        .filter(|c| asked.categories.is_empty() || asked.categories.contains(&c.id))
        .collect();
    shown.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    let ids: Vec<Uuid> = shown.iter().map(|c| c.id).collect();
    let query = StatsQuery {
        categories: Some(&ids),
        from: asked.from,
        to: asked.to,
    };
    let (received, steps, overdue) = futures::try_join!(
        state.stores.stats.received(query),
        state.stores.stats.steps(query),
        state.stores.stats.overdue(Some(&ids), now),
    )?;
    let (mut rows, total) = figures(&ids, &received, &steps, &overdue);
    let answer = Stats {
        date_from: asked.from,
        date_to: asked.to,
        categories: shown
            .into_iter()
            .map(|c| CategoryStats {
                figures: rows.remove(&c.id).unwrap_or_default().into(),
                category_id: c.id,
                category_name: c.name,
            })
            .collect(),
        total: total.into(),
    };
    Ok(match asked.format {
        Format::Json => HttpResponse::Ok().json(answer),
        Format::Csv => HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"stats-{}-{}.csv\"",
                    asked.from.format("%Y%m%d"),
                    asked.to.format("%Y%m%d")
                ),
            ))
            .body(answer.csv()?),
    })
}
