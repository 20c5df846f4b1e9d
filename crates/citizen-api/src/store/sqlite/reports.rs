//! Filing and reading reports (SQLite).
//!
//! Without a spatial index, distances in SQL are the local plane around the search point (metres
//! per degree of the WGS84 ellipsoid at its latitude): within a city this differs from the
//! geodesic distance by well under 0.1 %, enough to order and to cut at a radius. The distance a
//! row carries is computed exactly by the service.

use async_trait::async_trait;
use domain::issues::StatusChange;
use domain::reports::{Direction, OrderBy};
use sqlx::{QueryBuilder, Row, Sqlite};
use uuid::Uuid;

use super::list_sql::{push_list_filters, push_near, push_order, push_select, push_votes};
use super::nearest::nearest_rows;
use super::rows::{list_row, media_of, report, with_issues, REPORT_COLUMNS};
use super::{get_instant, get_opt_uuid, get_uuid, SqliteStore};
use crate::store::{
    status, Instant, IssueRow, ListPage, ReportFilter, ReportStore, ReportWithIssues, Statement,
    StoreResult, TimelineData,
};

#[async_trait]
impl ReportStore for SqliteStore {
    async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>> {
        let row = sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM reports r WHERE r.id = ?1"
        ))
        .bind(id.to_string())
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
                nearest_rows(&self.pool, filter, near.point, now).await?
            }
            _ => {
                let mut q = QueryBuilder::<Sqlite>::new("");
                push_select(&mut q, now, "FROM issues i");
                push_list_filters(&mut q, filter);
                push_near(&mut q, filter, "i");
                push_order(&mut q, filter, "i", "i.report_inserted_at", "i.id");
                let rows = q.build().fetch_all(&self.pool).await?;
                rows.iter().map(list_row).collect::<StoreResult<Vec<_>>>()?
            }
        };
        Ok(ListPage::from_overfetch(rows, filter.page.limit))
    }

    async fn own_reports(
        &self,
        author: &str,
        filter: &ReportFilter,
        now: Instant,
    ) -> StoreResult<ListPage<ReportWithIssues>> {
        let mut q = QueryBuilder::<Sqlite>::new(format!("SELECT {REPORT_COLUMNS}, "));
        push_votes(&mut q, now);
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
        let id = report_id.to_string();
        let exists: Option<String> = sqlx::query_scalar("SELECT id FROM reports WHERE id = ?1")
            .bind(&id)
            .fetch_optional(&self.pool)
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        // Statements: of the report's issues and of the parents of its duplicates.
        let issues = "SELECT id FROM issues WHERE report_id = ?1 \
             UNION SELECT parent_id FROM issues WHERE report_id = ?1 AND parent_id IS NOT NULL";
        let rows = sqlx::query(
            "SELECT ch.issue_id, ch.status, ch.parent_id, ch.at, c.name AS category_name \
             FROM issue_changes ch JOIN issues i ON i.id = ch.issue_id \
             JOIN report_categories c ON c.id = i.category_id \
             WHERE i.report_id = ?1 ORDER BY ch.at, ch.id",
        )
        .bind(&id)
        .fetch_all(&self.pool)
        .await?;
        let mut data = TimelineData::default();
        for row in &rows {
            let issue_id = get_uuid(row, "issue_id")?;
            data.category_names
                .insert(issue_id, row.try_get("category_name")?);
            data.changes.push(StatusChange {
                issue_id,
                status: status(row.try_get("status")?)?,
                at: get_instant(row, "at")?,
                parent: get_opt_uuid(row, "parent_id")?,
            });
        }
        let rows = sqlx::query(&format!(
            "SELECT s.id, s.issue_id, s.text, s.final, s.author, s.inserted_at FROM statements s \
             WHERE s.issue_id IN ({issues}) ORDER BY s.inserted_at, s.id"
        ))
        .bind(&id)
        .fetch_all(&self.pool)
        .await?;
        for row in &rows {
            data.statements.push(Statement {
                id: get_uuid(row, "id")?,
                issue_id: get_uuid(row, "issue_id")?,
                text: row.try_get("text")?,
                final_: row.try_get("final")?,
                author: row.try_get("author")?,
                inserted_at: get_instant(row, "inserted_at")?,
                media: Vec::new(),
            });
        }
        let ids: Vec<Uuid> = data.statements.iter().map(|s| s.id).collect();
        let mut media = media_of(&self.pool, "statement_id", &ids).await?;
        for statement in &mut data.statements {
            statement.media = media.remove(&statement.id).unwrap_or_default();
        }
        Ok(Some(data))
    }

    async fn set_explicit(&self, report_id: Uuid, explicit: bool) -> StoreResult<bool> {
        let done = sqlx::query("UPDATE reports SET explicit = ?2 WHERE id = ?1")
            .bind(report_id.to_string())
            .bind(explicit)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
