//! Reading reports and marking their files: the statements both backends run as written. The
//! lists (`public_list_rows`, `own_report_rows`) and the one-statement detail (`detail`) are
//! each backend's: PostGIS or the R*Tree, and JSON aggregation.

use async_trait::async_trait;
use domain::issues::StatusChange;
use sqlx::QueryBuilder;
use uuid::Uuid;

use super::batches::STATEMENT_COLUMNS;
use super::{DbInstant, DbUuid};
use crate::store::records::{ReportRecord, REPORT_COLUMNS};
use crate::store::{
    status, IssueRow, ListPage, ReportFilter, ReportStore, ReportWithIssues, StoreResult,
    TimelineData,
};

/// A recorded change of one of the report's issues, with its category's name.
#[derive(sqlx::FromRow)]
struct TimelineChangeRecord {
    issue_id: DbUuid,
    status: String,
    parent_id: Option<DbUuid>,
    at: DbInstant,
    category_name: String,
}

both_backends! {
    #[async_trait]
    impl ReportStore for Backend {
        async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>> {
            let found: Option<ReportRecord> = sqlx::query_as(&format!(
                "SELECT {REPORT_COLUMNS} FROM reports r WHERE r.id = $1"
            ))
            .bind(DbUuid(id))
            .fetch_optional(&self.pool)
            .await?;
            let Some(found) = found else { return Ok(None) };
            Ok(self.with_issues(vec![found.into()]).await?.pop())
        }

        async fn report_detail(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>> {
            self.detail(id).await
        }

        async fn public_reports(&self, filter: &ReportFilter) -> StoreResult<ListPage<IssueRow>> {
            let rows = self.public_list_rows(filter).await?;
            Ok(ListPage::from_overfetch(rows, filter.page.limit))
        }

        async fn own_reports(
            &self,
            author: &str,
            filter: &ReportFilter,
        ) -> StoreResult<ListPage<ReportWithIssues>> {
            let reports = self.own_report_rows(author, filter).await?;
            let page = ListPage::from_overfetch(reports, filter.page.limit);
            Ok(ListPage {
                rows: self.with_issues(page.rows).await?,
                has_next: page.has_next,
            })
        }

        async fn timeline(&self, report_id: Uuid) -> StoreResult<Option<TimelineData>> {
            if !self.report_exists(report_id).await? {
                return Ok(None);
            }
            let changes: Vec<TimelineChangeRecord> = sqlx::query_as(
                "SELECT ch.issue_id, ch.status, ch.parent_id, ch.at, c.name AS category_name \
                 FROM issue_changes ch JOIN issues i ON i.id = ch.issue_id \
                 JOIN report_categories c ON c.id = i.category_id \
                 WHERE i.report_id = $1 ORDER BY ch.at, ch.id",
            )
            .bind(DbUuid(report_id))
            .fetch_all(&self.pool)
            .await?;
            let mut data = TimelineData::default();
            for change in changes {
                let issue_id = change.issue_id.0;
                data.category_names.insert(issue_id, change.category_name);
                data.changes.push(StatusChange {
                    issue_id,
                    status: status(&change.status)?,
                    at: change.at.0,
                    parent: change.parent_id.map(|p| p.0),
                });
            }
            // Statements: of the report's issues and of the parents of its duplicates.
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {STATEMENT_COLUMNS} FROM statements s WHERE s.issue_id IN \
                 (SELECT id FROM issues WHERE report_id = "
            ));
            q.push_bind(DbUuid(report_id))
                .push(" UNION SELECT parent_id FROM issues WHERE report_id = ")
                .push_bind(DbUuid(report_id))
                .push(" AND parent_id IS NOT NULL) ORDER BY s.inserted_at, s.id");
            data.statements = self.statements_of(q).await?;
            Ok(Some(data))
        }

        async fn set_explicit(&self, report_id: Uuid, explicit: bool) -> StoreResult<bool> {
            let done = sqlx::query("UPDATE reports SET explicit = $2 WHERE id = $1")
                .bind(DbUuid(report_id))
                .bind(explicit)
                .execute(&self.pool)
                .await?;
            Ok(done.rows_affected() == 1)
        }
    }
}
