//! What a page of reports or statements carries, read in batches on both backends: the issues
//! and files of reports, the files of statements, statements with their files. The id list is
//! the one dialect part (`Backend::push_ids`: PostgreSQL binds one array, SQLite lists `IN (…)`).

use std::collections::HashMap;

use sqlx::{FromRow, QueryBuilder, Row};
use uuid::Uuid;

use super::DbUuid;
use crate::store::records::{issue, ISSUE_COLUMNS};
use crate::store::{Issue, Media, Report, ReportWithIssues, Statement, StoreResult};

/// The columns of a [`Statement`] from `statements s`.
pub(in crate::store) const STATEMENT_COLUMNS: &str =
    "s.id, s.issue_id, s.text, s.final, s.author, s.inserted_at";

both_backends! {
    impl Backend {
        /// The files of each owner (`owner`: `report_id` or `statement_id`), in upload order.
        pub(in crate::store) async fn media_of(
            &self,
            owner: &'static str,
            ids: &[Uuid],
        ) -> StoreResult<HashMap<Uuid, Vec<Media>>> {
            let mut out: HashMap<Uuid, Vec<Media>> = HashMap::new();
            if ids.is_empty() {
                return Ok(out);
            }
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT id, {owner} AS owner, filename, media_type, size_bytes FROM media \
                 WHERE {owner}"
            ));
            Backend::push_ids(&mut q, ids);
            q.push(format!(" ORDER BY {owner}, position"));
            for row in &q.build().fetch_all(&self.pool).await? {
                let owner: DbUuid = row.try_get("owner")?;
                out.entry(owner.0).or_default().push(Media::from_row(row)?);
            }
            Ok(out)
        }

        /// The reports with their issues (oldest first) and files.
        pub(in crate::store) async fn with_issues(
            &self,
            reports: Vec<Report>,
        ) -> StoreResult<Vec<ReportWithIssues>> {
            let ids: Vec<Uuid> = reports.iter().map(|r| r.id).collect();
            let mut issues: HashMap<Uuid, Vec<Issue>> = HashMap::new();
            if !ids.is_empty() {
                let mut q = QueryBuilder::<Db>::new(format!(
                    "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.report_id"
                ));
                Backend::push_ids(&mut q, &ids);
                q.push(" ORDER BY i.report_id, i.inserted_at, i.id");
                for row in &q.build().fetch_all(&self.pool).await? {
                    let issue = issue(row)?;
                    issues.entry(issue.report_id).or_default().push(issue);
                }
            }
            let mut media = self.media_of("report_id", &ids).await?;
            Ok(reports
                .into_iter()
                .map(|mut report| {
                    report.media = media.remove(&report.id).unwrap_or_default();
                    ReportWithIssues {
                        issues: issues.remove(&report.id).unwrap_or_default(),
                        report,
                    }
                })
                .collect())
        }

        /// The statements `q` selects (its columns: [`STATEMENT_COLUMNS`]), each with its files.
        pub(in crate::store) async fn statements_of(
            &self,
            mut q: QueryBuilder<'_, Db>,
        ) -> StoreResult<Vec<Statement>> {
            let mut out: Vec<Statement> = q.build_query_as().fetch_all(&self.pool).await?;
            let ids: Vec<Uuid> = out.iter().map(|s| s.id).collect();
            let mut media = self.media_of("statement_id", &ids).await?;
            for statement in &mut out {
                statement.media = media.remove(&statement.id).unwrap_or_default();
            }
            Ok(out)
        }
    }
}
