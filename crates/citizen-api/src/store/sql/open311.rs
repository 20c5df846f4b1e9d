//! The Open311 facade's reads (`store::open311`), the same statements on both backends: the
//! requests (reports with an issue that is not moved) and the history `servicerequestupdates`
//! replays. The id lists are the dialect's (`Backend::push_ids`).

use std::collections::HashMap;

use async_trait::async_trait;
use domain::open311::RequestStatus;
use sqlx::QueryBuilder;
use uuid::Uuid;

use super::batches::STATEMENT_COLUMNS;
use super::{DbInstant, DbUuid};
use crate::store::open311::{History, RecordedChange, Request, RequestQuery, RequestStore};
use crate::store::records::{ReportRecord, REPORT_COLUMNS};
use crate::store::{status, Instant, ListPage, Report, StoreResult};

/// A report as a request: its row, the integrator's photo link, and when its issues last changed
/// and its last statement was made.
#[derive(sqlx::FromRow)]
struct RequestRecord {
    #[sqlx(flatten)]
    report: ReportRecord,
    media_link: Option<String>,
    updated_at: DbInstant,
    closed_at: Option<DbInstant>,
}

#[derive(sqlx::FromRow)]
struct ChangeRecord {
    id: DbUuid,
    issue_id: DbUuid,
    report_id: DbUuid,
    status: String,
    at: DbInstant,
}

/// The last public change of report `r`: its issues' newest change or newest statement.
const UPDATED_AT: &str = "(SELECT max(t.at) FROM (\
     SELECT ch.at AS at FROM issue_changes ch JOIN issues ci ON ci.id = ch.issue_id \
     WHERE ci.report_id = r.id \
     UNION ALL SELECT s.inserted_at AS at FROM statements s JOIN issues si ON si.id = s.issue_id \
     WHERE si.report_id = r.id) t) AS updated_at";

/// When report `r`'s issues that are not moved were last resolved or made duplicates.
const CLOSED_AT: &str = "(SELECT max(ch.at) FROM issue_changes ch JOIN issues ci \
     ON ci.id = ch.issue_id WHERE ci.report_id = r.id AND ci.status <> 'moved' \
     AND ch.status IN ('resolved', 'duplicate')) AS closed_at";

/// The reports with a change or a statement after (`>`) the instant bound twice, as the rows a
/// sync starts from (`… changed JOIN reports r`): a walk of `issue_changes_at` and
/// `statements_at` (migration 0033), then one primary-key probe an issue and a report. Measured
/// at 100 000 reports (docs/benchmarks.md, "Open311"): a filter on `r` instead (`r.id IN …`)
/// walked every report (85-120 ms a sync on PostgreSQL, 10-14 ms this way), and joins written
/// `statements s JOIN issues si` let SQLite scan every issue for the statements (4.5 s, 36 ms
/// with `IN`).
const CHANGED_AFTER: [&str; 3] = [
    "(SELECT ci.report_id FROM issues ci WHERE ci.id IN \
     (SELECT ch.issue_id FROM issue_changes ch WHERE ch.at > ",
    ") UNION SELECT si.report_id FROM issues si WHERE si.id IN \
     (SELECT s.issue_id FROM statements s WHERE s.inserted_at > ",
    ")) changed JOIN reports r ON r.id = changed.report_id",
];

both_backends! {
    impl Backend {
        /// `query`'s conditions on report `r` (after ` WHERE TRUE`).
        fn push_request_filters(q: &mut QueryBuilder<'_, Db>, query: &RequestQuery) {
            if !query.ids.is_empty() {
                q.push(" AND r.id");
                Backend::push_ids(q, &query.ids);
                return;
            }
            if !query.categories.is_empty() {
                q.push(
                    " AND (SELECT fi.category_id FROM issues fi WHERE fi.report_id = r.id \
                     AND fi.status <> 'moved' ORDER BY fi.inserted_at, fi.id LIMIT 1)",
                );
                Backend::push_ids(q, &query.categories);
            }
            if let [one] = query.statuses.as_slice() {
                q.push(match one {
                    RequestStatus::Open => " AND EXISTS",
                    RequestStatus::Closed => " AND NOT EXISTS",
                });
                q.push(
                    " (SELECT 1 FROM issues oi WHERE oi.report_id = r.id \
                     AND oi.status IN ('open', 'accepted'))",
                );
            }
            if let Some(from) = query.filed_from {
                q.push(" AND r.inserted_at >= ");
                Backend::push_instant(q, from);
            }
            if let Some(to) = query.filed_to {
                q.push(" AND r.inserted_at <= ");
                Backend::push_instant(q, to);
            }
        }
    }

    #[async_trait]
    impl RequestStore for Backend {
        async fn requests(&self, query: &RequestQuery) -> StoreResult<ListPage<Request>> {
            // Every report is a request: a report's issues are never all moved (a move opens
            // the next issue in the same step); one that were would have no status and be
            // left out of the answer (`routes::open311::requests`).
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT * FROM (SELECT {REPORT_COLUMNS}, r.media_link, {UPDATED_AT}, {CLOSED_AT} \
                 FROM "
            ));
            match query.updated_after {
                Some(after) if query.ids.is_empty() => {
                    q.push(CHANGED_AFTER[0]);
                    Backend::push_instant(&mut q, after);
                    q.push(CHANGED_AFTER[1]);
                    Backend::push_instant(&mut q, after);
                    q.push(CHANGED_AFTER[2]);
                }
                _ => {
                    q.push("reports r");
                }
            }
            q.push(" WHERE TRUE");
            Backend::push_request_filters(&mut q, query);
            q.push(") x WHERE TRUE");
            if query.ids.is_empty() {
                if let Some(after) = query.updated_after {
                    q.push(" AND x.updated_at > ");
                    Backend::push_instant(&mut q, after);
                }
                if let Some(before) = query.updated_before {
                    q.push(" AND x.updated_at <= ");
                    Backend::push_instant(&mut q, before);
                }
            }
            q.push(" ORDER BY x.inserted_at DESC, x.id DESC LIMIT ");
            q.push_bind(i64::from(query.limit) + 1);
            q.push(" OFFSET ");
            q.push_bind(i64::try_from(query.offset).unwrap_or(i64::MAX));
            let records: Vec<RequestRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            let page = ListPage::from_overfetch(records, query.limit);
            let mut links = HashMap::new();
            let mut updated = HashMap::new();
            let mut closed = HashMap::new();
            let reports: Vec<Report> = page
                .rows
                .into_iter()
                .map(|record| {
                    let report = Report::from(record.report);
                    links.insert(report.id, record.media_link);
                    updated.insert(report.id, record.updated_at.0);
                    closed.insert(report.id, record.closed_at.map(|at| at.0));
                    report
                })
                .collect();
            let ids: Vec<Uuid> = reports.iter().map(|r| r.id).collect();
            let mut newest = HashMap::new();
            if !ids.is_empty() {
                let mut q = QueryBuilder::<Db>::new(format!(
                    "SELECT {STATEMENT_COLUMNS} FROM statements s JOIN issues i \
                     ON i.id = s.issue_id WHERE i.report_id"
                ));
                Backend::push_ids(&mut q, &ids);
                q.push(" ORDER BY s.inserted_at, s.id");
                // Oldest first: each issue keeps its newest.
                for statement in self.statements_of(q).await? {
                    newest.insert(statement.issue_id, statement);
                }
            }
            let rows = self
                .with_issues(reports)
                .await?
                .into_iter()
                .map(|report| {
                    let id = report.report.id;
                    let newest_statement = report
                        .issues
                        .iter()
                        .filter_map(|i| newest.get(&i.id))
                        .max_by_key(|s| (s.inserted_at, s.id))
                        .cloned();
                    Request {
                        media_link: links.remove(&id).flatten(),
                        updated_at: updated.remove(&id).unwrap_or(report.report.inserted_at),
                        closed_at: closed.remove(&id).flatten(),
                        newest_statement,
                        report,
                    }
                })
                .collect();
            Ok(ListPage {
                rows,
                has_next: page.has_next,
            })
        }

        async fn history(&self, from: Instant, to: Instant) -> StoreResult<History> {
            let changes: Vec<ChangeRecord> = sqlx::query_as(
                "SELECT ch.id, ch.issue_id, ci.report_id, ch.status, ch.at \
                 FROM issue_changes ch JOIN issues ci ON ci.id = ch.issue_id \
                 WHERE ci.report_id IN (\
                   SELECT i.report_id FROM issues i WHERE i.id IN (SELECT c2.issue_id \
                   FROM issue_changes c2 WHERE c2.at >= $1 AND c2.at <= $2) \
                   UNION SELECT i.report_id FROM issues i WHERE i.id IN (SELECT s.issue_id \
                   FROM statements s WHERE s.inserted_at >= $1 AND s.inserted_at <= $2)) \
                 ORDER BY ci.report_id, ch.at, ch.id",
            )
            .bind(DbInstant(from))
            .bind(DbInstant(to))
            .fetch_all(&self.pool)
            .await?;
            let mut history = History::default();
            let mut report_of = HashMap::new();
            for change in changes {
                report_of.insert(change.issue_id.0, change.report_id.0);
                history.changes.push(RecordedChange {
                    id: change.id.0,
                    issue_id: change.issue_id.0,
                    report_id: change.report_id.0,
                    status: status(&change.status)?,
                    at: change.at.0,
                });
            }
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {STATEMENT_COLUMNS} FROM statements s WHERE s.inserted_at >= "
            ));
            Backend::push_instant(&mut q, from);
            q.push(" AND s.inserted_at <= ");
            Backend::push_instant(&mut q, to);
            q.push(" ORDER BY s.inserted_at, s.id");
            for statement in self.statements_of(q).await? {
                // Every issue has its opening recorded, so its report is known.
                if let Some(report) = report_of.get(&statement.issue_id) {
                    history.statements.push((*report, statement));
                }
            }
            Ok(history)
        }
    }
}
