//! The officers' figures' facts (`store::stats`), the same statements on both backends: the
//! issues placed in a period through `issues_placed` (migration 0035) with a probe of their
//! statements and changes each, the period's changes through `issue_changes_at` (0033), and the
//! overdue issues per category through `issues_open_by_category` (0037).

use async_trait::async_trait;
use domain::issues::overdue_cutoff;
use domain::stats::{Received, Step};
use sqlx::QueryBuilder;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::stats::{StatsQuery, StatsStore};
use crate::store::{Instant, StoreResult};

#[derive(sqlx::FromRow)]
struct ReceivedRecord {
    category_id: DbUuid,
    inserted_at: DbInstant,
    first_statement_at: Option<DbInstant>,
    resolved_at: Option<DbInstant>,
}

#[derive(sqlx::FromRow)]
struct StepRecord {
    category_id: DbUuid,
    status: String,
}

#[derive(sqlx::FromRow)]
struct DeadlineRecord {
    id: DbUuid,
    statement_deadline_days: i32,
}

#[derive(sqlx::FromRow)]
struct OverdueRecord {
    overdue: i64,
}

fn micros(at: DbInstant) -> i64 {
    at.0.timestamp_micros()
}

both_backends! {
    impl Backend {
        /// ` AND {column} IN (…)` when the query names its categories.
        fn push_categories(
            q: &mut QueryBuilder<'_, Db>,
            column: &str,
            categories: Option<&[Uuid]>,
        ) {
            if let Some(ids) = categories {
                q.push(format!(" AND {column}"));
                Backend::push_ids(q, ids);
            }
        }
    }

    #[async_trait]
    impl StatsStore for Backend {
        async fn received(&self, query: StatsQuery<'_>) -> StoreResult<Vec<Received<Uuid>>> {
            let mut q = QueryBuilder::<Db>::new(
                "SELECT i.category_id, i.inserted_at, \
                 (SELECT min(s.inserted_at) FROM statements s WHERE s.issue_id = i.id) \
                 AS first_statement_at, \
                 (SELECT min(ch.at) FROM issue_changes ch WHERE ch.issue_id = i.id \
                 AND ch.status = 'resolved') AS resolved_at \
                 FROM issues i WHERE i.inserted_at >= ",
            );
            Backend::push_instant(&mut q, query.from);
            q.push(" AND i.inserted_at < ");
            Backend::push_instant(&mut q, query.to);
            Backend::push_categories(&mut q, "i.category_id", query.categories);
            let rows: Vec<ReceivedRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            Ok(rows
                .into_iter()
                .map(|row| Received {
                    category: row.category_id.0,
                    placed_at: micros(row.inserted_at),
                    first_statement_at: row.first_statement_at.map(micros),
                    resolved_at: row.resolved_at.map(micros),
                })
                .collect())
        }

        async fn steps(&self, query: StatsQuery<'_>) -> StoreResult<Vec<(Uuid, Step)>> {
            // The changes of the period first (`issue_changes_at`), then their issues.
            let mut q = QueryBuilder::<Db>::new(
                "SELECT i.category_id, ch.status FROM issue_changes ch \
                 JOIN issues i ON i.id = ch.issue_id \
                 WHERE ch.status IN ('accepted', 'resolved', 'duplicate') AND ch.at >= ",
            );
            Backend::push_instant(&mut q, query.from);
            q.push(" AND ch.at < ");
            Backend::push_instant(&mut q, query.to);
            Backend::push_categories(&mut q, "i.category_id", query.categories);
            let rows: Vec<StepRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            Ok(rows
                .into_iter()
                .filter_map(|row| {
                    let step = match row.status.as_str() {
                        "accepted" => Step::Accepted,
                        "resolved" => Step::Resolved,
                        "duplicate" => Step::Duplicate,
                        _ => return None,
                    };
                    Some((row.category_id.0, step))
                })
                .collect())
        }

        async fn overdue(
            &self,
            categories: Option<&[Uuid]>,
            now: Instant,
        ) -> StoreResult<Vec<(Uuid, u64)>> {
            // Each category's cutoff is computed here (`overdue_cutoff`), so its count compares
            // the placing instant alone and walks `issues_open_by_category` (migration 0037)
            // over that category's overdue issues, instead of every open issue with its deadline.
            let mut q = QueryBuilder::<Db>::new(
                "SELECT id, statement_deadline_days FROM report_categories \
                 WHERE statement_deadline_days IS NOT NULL",
            );
            Backend::push_categories(&mut q, "id", categories);
            let deadlines: Vec<DeadlineRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            if deadlines.is_empty() {
                return Ok(Vec::new());
            }
            let now = now.timestamp_micros();
            let mut q = QueryBuilder::<Db>::new("");
            for (n, category) in deadlines.iter().enumerate() {
                let days = u32::try_from(category.statement_deadline_days).unwrap_or(0);
                let cutoff = Instant::from_timestamp_micros(overdue_cutoff(days, now))
                    .unwrap_or(Instant::MIN_UTC);
                if n > 0 {
                    q.push(" UNION ALL ");
                }
                q.push("SELECT count(*) AS overdue FROM issues i WHERE i.category_id = ");
                Backend::push_uuid(&mut q, category.id.0);
                q.push(" AND i.status IN ('open', 'accepted') AND i.inserted_at <= ");
                Backend::push_instant(&mut q, cutoff);
            }
            let counts: Vec<OverdueRecord> = q.build_query_as().fetch_all(&self.pool).await?;
            Ok(deadlines
                .iter()
                .zip(counts)
                .map(|(category, row)| (category.id.0, u64::try_from(row.overdue).unwrap_or(0)))
                .collect())
        }
    }
}
