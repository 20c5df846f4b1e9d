//! The JSON shapes of the officers' side (spec 2.1 admin list row and admin issue item, 2.3).

use chrono::{DateTime, Utc};
use domain::issues::IssueStatus;
use serde::Serialize;
use service_kit::instant;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::dto::{Report, StatementMedia, View};
use crate::media::MediaStore;
use crate::store::admin::{AdminIssue, AuditEntry, Suggestion};
use crate::store::{self, Category};
use domain::geo::LocationParam;

/// An issue as officers see it (spec 2.1, admin issue item).
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminIssueItem {
    pub issue_id: Uuid,
    pub category_id: Uuid,
    pub category_name: String,
    #[schema(value_type = super::super::dto::IssueStatusSchema)]
    pub status: IssueStatus,
    /// When the report was placed in this category.
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
    /// True while the issue has duplicate suggestions nobody dismissed; cleared by dismissing
    /// them or by marking the issue a duplicate.
    pub has_possible_duplicates: bool,
    /// Of a duplicate: the issue it duplicates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<Uuid>,
}

impl From<&AdminIssue> for AdminIssueItem {
    fn from(item: &AdminIssue) -> Self {
        Self {
            issue_id: item.issue.id,
            category_id: item.issue.category_id,
            category_name: item.category_name.clone(),
            status: item.issue.status,
            inserted_at: item.issue.inserted_at,
            has_possible_duplicates: item.issue.has_possible_duplicates,
            parent_id: item.issue.parent_id,
        }
    }
}

impl AdminIssueItem {
    /// `item` after a workflow step that answered its issue as `issue`.
    pub fn changed(item: AdminIssue, issue: store::Issue) -> Self {
        Self::from(&AdminIssue { issue, ..item })
    }
}

/// A row of the admin list (spec 2.1): one report with the issues the officer may see, every
/// attachment (also while `explicit`), `status` derived from the issues shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminReport {
    #[serde(flatten)]
    pub report: super::super::dto::Report,
    /// The issues the officer may see, none moved, oldest first.
    pub issues: Vec<AdminIssueItem>,
}

impl AdminReport {
    /// A stored report with the issues the officer may see: every attachment, and the status
    /// derived from those issues (`near`: the list's location, for `distance`).
    pub fn new(
        report: store::Report,
        issues: &[AdminIssue],
        media: &MediaStore,
        near: Option<&LocationParam>,
    ) -> Self {
        let mut report = Report::from_store(report, media, View::Trusted, near);
        report.status = domain::issues::report_status(issues.iter().map(|i| i.issue.status));
        Self {
            report,
            issues: issues.iter().map(AdminIssueItem::from).collect(),
        }
    }
}

/// `GET /admin/reports`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminReportList {
    pub reports: Vec<AdminReport>,
    pub has_next_offset: bool,
    pub offset: u32,
    pub limit: u32,
}

/// An officer's statement (with its author).
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminStatement {
    pub statement_id: Uuid,
    pub text: String,
    #[serde(rename = "final")]
    pub final_: bool,
    /// The officer who made it.
    pub author: String,
    pub media: Vec<StatementMedia>,
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
}

impl AdminStatement {
    pub fn from_store(s: &store::Statement, media: &MediaStore) -> Self {
        let public = super::super::dto::Statement::from_store(s, media);
        Self {
            statement_id: s.id,
            text: s.text.clone(),
            final_: s.final_,
            author: s.author.clone(),
            media: public.media,
            inserted_at: s.inserted_at,
        }
    }
}

/// An issue with its statements (`GET /admin/reports/{reportId}/issues`).
#[derive(Debug, Serialize, ToSchema)]
pub struct IssueDetail {
    #[serde(flatten)]
    pub issue: AdminIssueItem,
    /// Newest first.
    pub statements: Vec<AdminStatement>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct IssueDetails {
    pub issues: Vec<IssueDetail>,
}

/// A possible duplicate.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestionItem {
    /// The other issue.
    pub issue: AdminIssueItem,
    pub report_id: Uuid,
    pub report_title: String,
    /// Metres between the two reports.
    pub distance_m: f64,
    /// Share of common words (0..1).
    pub similarity: f64,
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
}

impl From<&Suggestion> for SuggestionItem {
    fn from(s: &Suggestion) -> Self {
        Self {
            issue: AdminIssueItem::from(&s.candidate),
            report_id: s.candidate.issue.report_id,
            report_title: s.report_title.clone(),
            distance_m: (s.distance_m * 100.0).round() / 100.0,
            similarity: (s.similarity * 1000.0).round() / 1000.0,
            inserted_at: s.inserted_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Suggestions {
    pub suggestions: Vec<SuggestionItem>,
}

/// One recorded change.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditItem {
    #[serde(serialize_with = "instant::serialize")]
    pub at: DateTime<Utc>,
    /// Who made it (the filer's subject for the opening of a signed-in filing, null when
    /// anonymous).
    pub actor: Option<String>,
    /// `status:open|moved|accepted|duplicate|resolved`, `statement`, `duplicates_dismissed` or
    /// `media_deleted`.
    pub action: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_id: Option<Uuid>,
    /// What changed.
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
}

impl From<AuditEntry> for AuditItem {
    fn from(e: AuditEntry) -> Self {
        Self {
            at: e.at,
            actor: e.actor,
            action: e.action,
            issue_id: e.issue_id,
            detail: e.detail,
        }
    }
}

/// `GET /admin/reports/{reportId}/audit`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditTrail {
    /// Oldest first.
    pub entries: Vec<AuditItem>,
}

/// A report category as administrators see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminCategory {
    pub category_id: Uuid,
    pub name: String,
    pub is_default: bool,
    /// Days officers have before an unresolved issue counts as overdue; null: no deadline.
    pub statement_deadline_days: Option<u32>,
}

impl From<Category> for AdminCategory {
    fn from(c: Category) -> Self {
        Self {
            category_id: c.id,
            name: c.name,
            is_default: c.is_default,
            statement_deadline_days: c.statement_deadline_days,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminCategories {
    /// By name, the default last.
    pub categories: Vec<AdminCategory>,
}

/// The officers of a category.
#[derive(Debug, Serialize, ToSchema)]
pub struct Officers {
    /// Token subjects, sorted.
    pub officers: Vec<String>,
}
