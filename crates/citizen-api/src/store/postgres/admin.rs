//! The officers' side (PostgreSQL): the admin list, issues, statements, media and the audit
//! trail. Duplicate suggestions and category management are in `admin/`.

mod categories;
mod duplicates;
mod one_category;

use std::collections::HashMap;

use async_trait::async_trait;
use sqlx::postgres::PgRow;
use sqlx::types::Json;
use sqlx::{PgPool, Postgres, QueryBuilder, Row};
use uuid::Uuid;

use super::list_sql::{direction, push_order, push_report_filters, push_votes};
use super::rows::{issue, media, report, REPORT_COLUMNS};
use super::PgStore;
use crate::store::admin::{
    Access, AdminEvent, AdminFilter, AdminIssue, AdminReport, AdminStore, AuditEntry,
    CategoryChange, CategoryError, DuplicateSubject, MediaPlace, NewSuggestion, Opened, Suggestion,
};
use crate::store::{Category, Instant, Issue, ListPage, Media, Statement, StoreResult};

/// The issue columns with the category's name and deadline (`c`).
pub(super) const ADMIN_ISSUE_COLUMNS: &str =
    "i.id, i.report_id, i.category_id, i.status, i.parent_id, i.has_possible_duplicates, \
     i.inserted_at, c.name AS category_name, c.statement_deadline_days";

pub(super) fn admin_issue(row: &PgRow) -> StoreResult<AdminIssue> {
    let days: Option<i32> = row.try_get("statement_deadline_days")?;
    Ok(AdminIssue {
        issue: issue(row)?,
        category_name: row.try_get("category_name")?,
        statement_deadline_days: days.and_then(|d| u32::try_from(d).ok()),
    })
}

/// ` AND i.category_id = ANY(…)` unless the officer sees every category.
fn push_access(q: &mut QueryBuilder<'_, Postgres>, access: &Access) {
    if let Some(ids) = access.categories() {
        q.push(" AND i.category_id = ANY(")
            .push_bind(ids.to_vec())
            .push(")");
    }
}

/// Whether issue `i` of category `c` is past its statement deadline at `now`: open or accepted,
/// and placed into its category at least the deadline ago. A day is 24 hours, as on SQLite
/// (`domain::issues::is_overdue`), not a calendar day of the session's zone.
fn push_overdue(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
    q.push(
        "(i.status IN ('open', 'accepted') AND c.statement_deadline_days IS NOT NULL \
         AND i.inserted_at + make_interval(hours => 24 * c.statement_deadline_days) <= ",
    )
    .push_bind(now)
    .push(")");
}

fn push_issue_match(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter) {
    q.push(
        " AND EXISTS (SELECT 1 FROM issues i JOIN report_categories c ON c.id = i.category_id \
         WHERE i.report_id = r.id AND i.status <> 'moved'",
    );
    push_access(q, &filter.access);
    if !filter.list.categories.is_empty() {
        q.push(" AND i.category_id = ANY(")
            .push_bind(filter.list.categories.clone())
            .push(")");
    }
    if !filter.list.statuses.is_empty() {
        let names: Vec<&str> = filter.list.statuses.iter().map(|s| s.as_str()).collect();
        q.push(" AND i.status = ANY(").push_bind(names).push(")");
    }
    match filter.overdue {
        Some(true) => {
            q.push(" AND ");
            push_overdue(q, filter.now);
        }
        Some(false) => {
            q.push(" AND NOT ");
            push_overdue(q, filter.now);
        }
        None => {}
    }
    q.push(")");
}

/// The issues of each of `reports` that `access` shows (oldest first, moved ones left out), with
/// the report's media, which every issue carries a copy of (migration 0014): one statement for a
/// page of reports.
async fn admin_issues_of(
    pool: &PgPool,
    reports: &[Uuid],
    access: &Access,
) -> StoreResult<HashMap<Uuid, (Vec<AdminIssue>, Vec<Media>)>> {
    let mut q = QueryBuilder::<Postgres>::new(format!(
        "SELECT {ADMIN_ISSUE_COLUMNS}, i.media FROM issues i JOIN report_categories c \
         ON c.id = i.category_id WHERE i.status <> 'moved' AND i.report_id = ANY("
    ));
    q.push_bind(reports.to_vec()).push(")");
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

/// `SELECT` the report's columns and its votes at `now` `FROM ` (the caller names `r`).
fn push_select(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
    q.push(format!("SELECT {REPORT_COLUMNS}, "));
    push_votes(q, "r.id", now);
    q.push(" AS votes_count FROM ");
}

/// The general list's conditions, order and page, on `reports r`.
fn push_filters(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter) {
    let list = &filter.list;
    if filter.matches_issues() {
        push_issue_match(q, filter);
    }
    if filter.overdue == Some(true) {
        // An issue is placed no earlier than its report is filed, so an overdue report was
        // filed at least the shortest deadline ago: the walk by date starts there instead of
        // probing every newer report. No deadline anywhere: NULL, nothing is overdue.
        q.push(" AND r.inserted_at <= ").push_bind(filter.now).push(
            " - make_interval(hours => 24 * (SELECT min(statement_deadline_days) \
                 FROM report_categories))",
        );
    }
    push_report_filters(q, list, "r", "r.inserted_at");
    push_order(q, list, "r", "r.inserted_at", "r.id");
}

#[async_trait]
impl AdminStore for PgStore {
    async fn admin_reports(&self, filter: &AdminFilter) -> StoreResult<ListPage<AdminReport>> {
        let list = &filter.list;
        let mut q = QueryBuilder::<Postgres>::new("");
        if let Some(category) = filter.confined_to_one_category() {
            one_category::push_page(&mut q, filter, category);
            push_select(&mut q, filter.now);
            let dir = direction(list.order.direction);
            q.push(format!(
                "page p JOIN reports r ON r.id = p.report_id \
                 ORDER BY r.inserted_at {dir}, r.id {dir}"
            ));
        } else {
            push_select(&mut q, filter.now);
            q.push("reports r WHERE TRUE");
            push_filters(&mut q, filter);
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
        let exists: Option<Uuid> = sqlx::query_scalar("SELECT id FROM reports WHERE id = $1")
            .bind(report_id)
            .fetch_optional(&self.pool)
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        let mut issues = admin_issues_of(&self.pool, &[report_id], access).await?;
        Ok(Some(issues.remove(&report_id).unwrap_or_default().0))
    }

    async fn issue(&self, issue_id: Uuid) -> StoreResult<Option<AdminIssue>> {
        let row = sqlx::query(&format!(
            "SELECT {ADMIN_ISSUE_COLUMNS} FROM issues i JOIN report_categories c \
             ON c.id = i.category_id WHERE i.id = $1"
        ))
        .bind(issue_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(admin_issue).transpose()
    }

    async fn statements(&self, issue_ids: &[Uuid]) -> StoreResult<Vec<Statement>> {
        let rows = sqlx::query(
            "SELECT s.id, s.issue_id, s.text, s.final, s.author, s.inserted_at FROM statements s \
             WHERE s.issue_id = ANY($1) ORDER BY s.inserted_at DESC, s.id DESC",
        )
        .bind(issue_ids)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            out.push(Statement {
                id: row.try_get("id")?,
                issue_id: row.try_get("issue_id")?,
                text: row.try_get("text")?,
                final_: row.try_get("final")?,
                author: row.try_get("author")?,
                inserted_at: row.try_get("inserted_at")?,
                media: Vec::new(),
            });
        }
        let ids: Vec<Uuid> = out.iter().map(|s| s.id).collect();
        let media_rows = sqlx::query(
            "SELECT id, statement_id, filename, media_type, size_bytes FROM media \
             WHERE statement_id = ANY($1) ORDER BY statement_id, position",
        )
        .bind(&ids)
        .fetch_all(&self.pool)
        .await?;
        let mut by_statement: HashMap<Uuid, Vec<Media>> = HashMap::new();
        for row in &media_rows {
            by_statement
                .entry(row.try_get("statement_id")?)
                .or_default()
                .push(media(row)?);
        }
        for statement in &mut out {
            statement.media = by_statement.remove(&statement.id).unwrap_or_default();
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
        PgStore::insert_event(&self.pool, event).await
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
            "SELECT subject FROM category_officers WHERE category_id = $1 ORDER BY subject",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn remove_officer(&self, subject: &str, category_id: Uuid) -> StoreResult<bool> {
        let done =
            sqlx::query("DELETE FROM category_officers WHERE subject = $1 AND category_id = $2")
                .bind(subject)
                .bind(category_id)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }
}
