//! Filing and reading reports (PostgreSQL).

use async_trait::async_trait;
use domain::issues::StatusChange;
use domain::reports::{Direction, OrderBy};
use sqlx::{Postgres, QueryBuilder, Row};
use uuid::Uuid;

use super::list_sql::{push_list_filters, push_near, push_order, push_select, push_votes};
use super::nearest::nearest_rows;
use super::rows::{list_row, report, with_issues, REPORT_COLUMNS};
use super::PgStore;
use crate::store::{
    status, Instant, IssueRow, ListPage, ReportFilter, ReportStore, ReportWithIssues, StoreResult,
    TimelineData,
};

#[async_trait]
impl ReportStore for PgStore {
    async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>> {
        let row = sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM reports r WHERE r.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(with_issues(&self.pool, vec![report(&row)?]).await?.pop())
    }

    async fn report_detail(&self, id: Uuid, now: Instant) -> StoreResult<Option<ReportWithIssues>> {
        self.detail(id, now).await
    }

    async fn public_reports(
        &self,
        filter: &ReportFilter,
        now: Instant,
    ) -> StoreResult<ListPage<IssueRow>> {
        let rows = match (filter.order.by, &filter.near, filter.order.direction) {
            (OrderBy::Location, Some(near), Direction::Asc) => {
                nearest_rows(&self.pool, filter, near, now).await?
            }
            _ => {
                let mut q = QueryBuilder::<Postgres>::new("");
                push_select(&mut q, now);
                push_list_filters(&mut q, filter);
                push_order(&mut q, filter, "i", "i.report_inserted_at", "i.id");
                q.build().fetch_all(&self.pool).await?
            }
        };
        let rows = rows.iter().map(list_row).collect::<StoreResult<Vec<_>>>()?;
        Ok(ListPage::from_overfetch(rows, filter.page.limit))
    }

    async fn own_reports(
        &self,
        author: &str,
        filter: &ReportFilter,
        now: Instant,
    ) -> StoreResult<ListPage<ReportWithIssues>> {
        let mut q = QueryBuilder::<Postgres>::new(format!("SELECT {REPORT_COLUMNS}, "));
        push_votes(&mut q, "r.id", now);
        q.push(" AS votes_count FROM reports r WHERE r.author = ")
            .push_bind(author.to_owned());
        push_near(&mut q, filter, "r");
        push_order(&mut q, filter, "r", "r.inserted_at", "r.id");
        let rows = q.build().fetch_all(&self.pool).await?;
        let mut reports = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut one = report(row)?;
            one.votes_count = row.try_get("votes_count")?;
            reports.push(one);
        }
        let page = ListPage::from_overfetch(reports, filter.page.limit);
        Ok(ListPage {
            rows: with_issues(&self.pool, page.rows).await?,
            has_next: page.has_next,
        })
    }

    async fn timeline(&self, report_id: Uuid) -> StoreResult<Option<TimelineData>> {
        let exists: Option<Uuid> = sqlx::query_scalar("SELECT id FROM reports WHERE id = $1")
            .bind(report_id)
            .fetch_optional(&self.pool)
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        // Statements: of the report's issues and of the parents of its duplicates.
        let issues = "SELECT id FROM issues WHERE report_id = $1 \
             UNION SELECT parent_id FROM issues WHERE report_id = $1 AND parent_id IS NOT NULL";
        let rows = sqlx::query(
            "SELECT ch.issue_id, ch.status, ch.parent_id, ch.at, c.name AS category_name \
             FROM issue_changes ch JOIN issues i ON i.id = ch.issue_id \
             JOIN report_categories c ON c.id = i.category_id \
             WHERE i.report_id = $1 ORDER BY ch.at, ch.id",
        )
        .bind(report_id)
        .fetch_all(&self.pool)
        .await?;
        let mut data = TimelineData::default();
        for row in &rows {
            let issue_id: Uuid = row.try_get("issue_id")?;
            data.category_names
                .insert(issue_id, row.try_get("category_name")?);
            data.changes.push(StatusChange {
                issue_id,
                status: status(row.try_get("status")?)?,
                at: row.try_get("at")?,
                parent: row.try_get("parent_id")?,
            });
        }
        data.statements = super::statements::statements(
            &self.pool,
            &format!("s.issue_id IN ({issues})"),
            report_id,
        )
        .await?;
        Ok(Some(data))
    }

    async fn set_explicit(&self, report_id: Uuid, explicit: bool) -> StoreResult<bool> {
        let done = sqlx::query("UPDATE reports SET explicit = $2 WHERE id = $1")
            .bind(report_id)
            .bind(explicit)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
