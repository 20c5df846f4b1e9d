//! The officers' side (SQLite): the admin list, issues, statements, media and the audit trail.
//! Duplicate suggestions and category management are in `admin/`.

mod categories;
mod duplicates;
mod general;
mod one_category;

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::sqlite::SqliteRow;
use sqlx::types::Json;
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use uuid::Uuid;

use super::rows::{issue, media_of, push_in, report, REPORT_COLUMNS};
use super::{get_instant, get_uuid, micros, SqliteStore};
use crate::store::admin::{
    Access, AdminEvent, AdminFilter, AdminIssue, AdminReport, AdminStore, AuditEntry,
    CategoryChange, CategoryError, DuplicateSubject, MediaPlace, NewSuggestion, Opened, Suggestion,
};
use crate::store::{Category, Instant, Issue, ListPage, Media, Statement, StoreResult};

/// The issue columns with the category's name and deadline (`c`).
pub(super) const ADMIN_ISSUE_COLUMNS: &str =
    "i.id, i.report_id, i.category_id, i.status, i.parent_id, i.has_possible_duplicates, \
     i.inserted_at, c.name AS category_name, c.statement_deadline_days";

/// A deadline day (`domain::issues::is_overdue`).
pub(super) const DAY_MICROS: i64 = domain::issues::DEADLINE_DAY_MICROS;

pub(super) fn admin_issue(row: &SqliteRow) -> StoreResult<AdminIssue> {
    let days: Option<i64> = row.try_get("statement_deadline_days")?;
    Ok(AdminIssue {
        issue: issue(row)?,
        category_name: row.try_get("category_name")?,
        statement_deadline_days: days.and_then(|d| u32::try_from(d).ok()),
    })
}

pub(super) fn push_access(q: &mut QueryBuilder<'_, Sqlite>, access: &Access) {
    if let Some(ids) = access.categories() {
        q.push(" AND i.category_id");
        push_in(q, ids);
    }
}

/// The issues of each of `reports` that `access` shows (oldest first, moved ones left out), with
/// the report's media, which every issue carries a copy of (migration 0014): one statement for a
/// page of reports. The issues are found by their reports (`INDEXED BY issues_report`): with a
/// page of 100 ids SQLite otherwise took each category and walked its issues through a
/// category index whose statistics it lacked (all of them, 236 ms at 1 000 000 reports).
async fn admin_issues_of(
    pool: &SqlitePool,
    reports: &[Uuid],
    access: &Access,
) -> StoreResult<HashMap<Uuid, (Vec<AdminIssue>, Vec<Media>)>> {
    let mut q = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {ADMIN_ISSUE_COLUMNS}, i.media FROM issues i INDEXED BY issues_report \
         JOIN report_categories c ON c.id = i.category_id \
         WHERE i.status <> 'moved' AND i.report_id"
    ));
    push_in(&mut q, reports);
    push_access(&mut q, access);
    q.push(" ORDER BY i.report_id, i.inserted_at, i.id");
    let mut out: HashMap<Uuid, (Vec<AdminIssue>, Vec<Media>)> = HashMap::new();
    for row in &q.build().fetch_all(pool).await? {
        let item = admin_issue(row)?;
        let (issues, media) = out.entry(item.issue.report_id).or_default();
        if issues.is_empty() {
            let Json(copy): Json<Vec<Media>> = row.try_get("media")?;
            *media = copy;
        }
        issues.push(item);
    }
    Ok(out)
}

#[async_trait]
impl AdminStore for SqliteStore {
    async fn admin_reports(&self, filter: &AdminFilter) -> StoreResult<ListPage<AdminReport>> {
        let list = &filter.list;
        let mut q = QueryBuilder::<Sqlite>::new("");
        let confined = filter.confined_to_one_category();
        if let Some(category) = confined {
            one_category::push_page(&mut q, filter, category);
        }
        q.push(format!(
            "SELECT {REPORT_COLUMNS}, (SELECT count(*) FROM vote_tokens v \
             WHERE v.target_id = r.id AND v.revoked_at IS NULL \
             AND (v.expires_at IS NULL OR v.expires_at > "
        ));
        q.push_bind(micros(filter.now))
            .push(")) AS votes_count FROM ");
        if confined.is_some() {
            let dir = super::list_sql::direction(list.order.direction);
            q.push(format!(
                "page p JOIN reports r ON r.id = p.report_id \
                 ORDER BY r.inserted_at {dir}, r.id {dir}"
            ));
        } else {
            q.push("reports r WHERE 1");
            general::push_filters(&mut q, filter);
        }
        let rows = q.build().fetch_all(&self.pool).await?;
        let mut reports = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut r = report(row)?;
            r.votes_count = row.try_get("votes_count")?;
            reports.push(r);
        }
        let page = ListPage::from_overfetch(reports, list.page.limit);
        let ids: Vec<Uuid> = page.rows.iter().map(|r| r.id).collect();
        let mut issues = admin_issues_of(&self.pool, &ids, &filter.access).await?;
        let rows = page
            .rows
            .into_iter()
            .map(|mut report| {
                let (issues, media) = issues.remove(&report.id).unwrap_or_default();
                report.media = media;
                AdminReport { issues, report }
            })
            .collect();
        Ok(ListPage {
            rows,
            has_next: page.has_next,
        })
    }

    async fn report_issues(
        &self,
        report_id: Uuid,
        access: &Access,
    ) -> StoreResult<Option<Vec<AdminIssue>>> {
        if !self.report_exists(report_id).await? {
            return Ok(None);
        }
        let mut issues = admin_issues_of(&self.pool, &[report_id], access).await?;
        Ok(Some(issues.remove(&report_id).unwrap_or_default().0))
    }

    async fn issue(&self, issue_id: Uuid) -> StoreResult<Option<AdminIssue>> {
        let row = sqlx::query(&format!(
            "SELECT {ADMIN_ISSUE_COLUMNS} FROM issues i JOIN report_categories c \
             ON c.id = i.category_id WHERE i.id = ?1"
        ))
        .bind(issue_id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(admin_issue).transpose()
    }

    async fn statements(&self, issue_ids: &[Uuid]) -> StoreResult<Vec<Statement>> {
        let mut q = QueryBuilder::<Sqlite>::new(
            "SELECT s.id, s.issue_id, s.text, s.final, s.author, s.inserted_at FROM statements s \
             WHERE s.issue_id",
        );
        push_in(&mut q, issue_ids);
        q.push(" ORDER BY s.inserted_at DESC, s.id DESC");
        let rows = q.build().fetch_all(&self.pool).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            out.push(Statement {
                id: get_uuid(row, "id")?,
                issue_id: get_uuid(row, "issue_id")?,
                text: row.try_get("text")?,
                final_: row.try_get("final")?,
                author: row.try_get("author")?,
                inserted_at: get_instant(row, "inserted_at")?,
                media: Vec::new(),
            });
        }
        let ids: Vec<Uuid> = out.iter().map(|s| s.id).collect();
        let mut media = media_of(&self.pool, "statement_id", &ids).await?;
        for statement in &mut out {
            statement.media = media.remove(&statement.id).unwrap_or_default();
        }
        Ok(out)
    }

    async fn duplicate_subjects(&self, opened: Opened) -> StoreResult<Vec<DuplicateSubject>> {
        duplicates::subjects(&self.pool, opened).await
    }

    async fn duplicate_candidates(
        &self,
        subject: &DuplicateSubject,
        filed: (Instant, Instant),
        radius_m: f64,
        limit: u32,
    ) -> StoreResult<Vec<DuplicateSubject>> {
        duplicates::candidates(&self.pool, subject, filed, radius_m, limit).await
    }

    async fn record_suggestions(
        &self,
        issue_id: Uuid,
        suggestions: &[NewSuggestion],
        now: Instant,
    ) -> StoreResult<()> {
        duplicates::record(&self.pool, issue_id, suggestions, now).await
    }

    async fn suggestions(&self, issue_id: Uuid) -> StoreResult<Vec<Suggestion>> {
        duplicates::suggestions(&self.pool, issue_id).await
    }

    async fn dismiss_duplicates(
        &self,
        issue_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> StoreResult<Option<Issue>> {
        duplicates::dismiss(&self.pool, issue_id, actor, now).await
    }

    async fn media_place(
        &self,
        report_id: Uuid,
        media_id: Uuid,
    ) -> StoreResult<Option<MediaPlace>> {
        self.media_place_of(report_id, media_id).await
    }
    async fn delete_media(
        &self,
        report_id: Uuid,
        media_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> StoreResult<bool> {
        self.delete_media_of(report_id, media_id, actor, now).await
    }
    async fn audit(&self, report_id: Uuid) -> StoreResult<Option<Vec<AuditEntry>>> {
        self.audit_of(report_id).await
    }
    async fn record_event(&self, event: &AdminEvent) -> StoreResult<()> {
        SqliteStore::insert_event(&self.pool, event).await
    }

    async fn category(&self, id: Uuid) -> StoreResult<Option<Category>> {
        categories::category(&self.pool, id).await
    }

    async fn update_category(
        &self,
        id: Uuid,
        change: &CategoryChange,
    ) -> Result<Category, CategoryError> {
        categories::update(&self.pool, id, change).await
    }

    async fn delete_category(&self, id: Uuid) -> Result<(), CategoryError> {
        categories::delete(&self.pool, id).await
    }

    async fn category_officers(&self, id: Uuid) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT subject FROM category_officers WHERE category_id = ?1 ORDER BY subject",
        )
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?)
    }

    async fn remove_officer(&self, subject: &str, category_id: Uuid) -> StoreResult<bool> {
        let done =
            sqlx::query("DELETE FROM category_officers WHERE subject = ?1 AND category_id = ?2")
                .bind(subject)
                .bind(category_id.to_string())
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }
}
