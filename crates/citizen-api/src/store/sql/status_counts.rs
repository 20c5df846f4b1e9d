//! The admin list's counts by status (`AdminStore::status_counts`, `GET
//! /admin/reports/status-counts`), the same statement on both backends: one walk of the reports
//! the list without a status filter would list (the list's own conditions,
//! `Dialect::push_admin_conditions`), counting them all and, per state, those with an
//! accessible issue in that state that matches the rest of the filter (the list's own issue
//! match, `list_filter::push_issue_exists`). So each count is what the list with that `status`
//! would page through, and nothing of the filter is written twice.

use domain::issues::IssueStatus;
use sqlx::QueryBuilder;

use super::list_filter::push_issue_exists;
use crate::store::admin::{AdminFilter, StatusCounts};
use crate::store::StoreResult;

/// The states counted (a moved issue is never listed).
const COUNTED: [IssueStatus; 4] = [
    IssueStatus::Open,
    IssueStatus::Accepted,
    IssueStatus::Resolved,
    IssueStatus::Duplicate,
];

#[derive(sqlx::FromRow)]
struct CountsRecord {
    total: i64,
    open: i64,
    accepted: i64,
    resolved: i64,
    duplicate: i64,
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

both_backends! {
    impl Backend {
        /// The counts of [`StatusCounts`] in one statement.
        pub(in crate::store) async fn status_counts_of(
            &self,
            filter: &AdminFilter,
        ) -> StoreResult<StatusCounts> {
            let mut all = filter.clone();
            all.list.statuses.clear();
            let mut q = QueryBuilder::<Db>::new("SELECT count(*) AS total");
            for status in COUNTED {
                let mut one = all.clone();
                one.list.statuses = vec![status];
                q.push(", count(CASE WHEN ");
                push_issue_exists::<Backend>(&mut q, &one);
                q.push(format!(" THEN 1 END) AS {}", status.as_str()));
            }
            q.push(" FROM reports r WHERE TRUE");
            Backend::push_admin_conditions(&mut q, &all);
            let row: CountsRecord = q.build_query_as().fetch_one(&self.pool).await?;
            Ok(StatusCounts {
                open: count(row.open),
                accepted: count(row.accepted),
                resolved: count(row.resolved),
                duplicate: count(row.duplicate),
                total: count(row.total),
            })
        }
    }
}
