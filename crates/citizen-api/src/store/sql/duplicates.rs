//! Duplicate suggestions on both backends: the issues a filing or a move opened, recording and
//! reading suggestions, dismissing them. Finding candidates near an issue is each backend's
//! (`duplicate_candidates_near`: the GiST index, or the bounding box on SQLite);
//! `app::duplicates` measures them with the domain rule.

use async_trait::async_trait;
use serde_json::json;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::admin::{
    AdminEvent, CandidateSearch, DuplicateStore, DuplicateSubject, NewSuggestion, Opened,
    Suggestion,
};
use crate::store::records::{
    AdminIssueRecord, DuplicateSubjectRecord, IssueRecord, ADMIN_ISSUE_COLUMNS,
    DUPLICATE_SUBJECT_COLUMNS, ISSUE_RETURNING,
};
use crate::store::{Instant, Issue, StoreResult};

#[derive(sqlx::FromRow)]
struct SuggestionRecord {
    #[sqlx(flatten)]
    candidate: AdminIssueRecord,
    report_title: String,
    distance_m: f64,
    similarity: f64,
    suggested_at: DbInstant,
}

both_backends! {
    #[async_trait]
    impl DuplicateStore for Backend {
        /// The open, located issues that `opened` names.
        async fn duplicate_subjects(&self, opened: Opened) -> StoreResult<Vec<DuplicateSubject>> {
            let (condition, id) = match opened {
                Opened::Report(id) => ("i.report_id = $1", id),
                Opened::Issue(id) => ("i.id = $1", id),
            };
            let rows: Vec<DuplicateSubjectRecord> = sqlx::query_as(&format!(
                "SELECT {DUPLICATE_SUBJECT_COLUMNS} FROM issues i \
                 JOIN reports r ON r.id = i.report_id \
                 WHERE {condition} AND i.status = 'open' AND r.longitude IS NOT NULL"
            ))
            .bind(DbUuid(id))
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.into_iter().map(DuplicateSubject::from).collect())
        }

        async fn duplicate_candidates(
            &self,
            search: CandidateSearch<'_>,
        ) -> StoreResult<Vec<DuplicateSubject>> {
            self.duplicate_candidates_near(search).await
        }

        /// Records the suggestions for the issue and flags it, in one transaction.
        async fn record_suggestions(
            &self,
            issue_id: Uuid,
            suggestions: &[NewSuggestion],
            now: Instant,
        ) -> StoreResult<()> {
            let mut tx = self.begin_write().await?;
            for s in suggestions {
                sqlx::query(
                    "INSERT INTO duplicate_suggestions (issue_id, candidate_id, distance_m, \
                     similarity, inserted_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                )
                .bind(DbUuid(issue_id))
                .bind(DbUuid(s.candidate_id))
                .bind(s.distance_m)
                .bind(s.similarity)
                .bind(DbInstant(now))
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("UPDATE issues SET has_possible_duplicates = TRUE WHERE id = $1")
                .bind(DbUuid(issue_id))
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        }

        /// The issue's suggestions not dismissed, the most similar first.
        async fn suggestions(&self, issue_id: Uuid) -> StoreResult<Vec<Suggestion>> {
            let rows: Vec<SuggestionRecord> = sqlx::query_as(&format!(
                "SELECT {ADMIN_ISSUE_COLUMNS}, r.title AS report_title, d.distance_m, \
                 d.similarity, d.inserted_at AS suggested_at FROM duplicate_suggestions d \
                 JOIN issues i ON i.id = d.candidate_id \
                 JOIN report_categories c ON c.id = i.category_id \
                 JOIN reports r ON r.id = i.report_id \
                 WHERE d.issue_id = $1 AND d.dismissed_at IS NULL \
                 ORDER BY d.similarity DESC, d.distance_m, i.id"
            ))
            .bind(DbUuid(issue_id))
            .fetch_all(&self.pool)
            .await?;
            rows.into_iter()
                .map(|row| {
                    Ok(Suggestion {
                        candidate: row.candidate.try_into()?,
                        report_title: row.report_title,
                        distance_m: row.distance_m,
                        similarity: row.similarity,
                        inserted_at: row.suggested_at.0,
                    })
                })
                .collect()
        }

        /// Dismisses the issue's suggestions and records who did: the issue afterwards, or
        /// `None` when there is no such issue.
        async fn dismiss_duplicates(
            &self,
            issue_id: Uuid,
            actor: &str,
            now: Instant,
        ) -> StoreResult<Option<Issue>> {
            let mut tx = self.begin_write().await?;
            let row: Option<IssueRecord> = sqlx::query_as(&format!(
                "UPDATE issues SET has_possible_duplicates = FALSE WHERE id = $1 \
                 RETURNING {ISSUE_RETURNING}"
            ))
            .bind(DbUuid(issue_id))
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let updated = Issue::try_from(row)?;
            let dismissed = sqlx::query(
                "UPDATE duplicate_suggestions SET dismissed_at = $2 \
                 WHERE issue_id = $1 AND dismissed_at IS NULL",
            )
            .bind(DbUuid(issue_id))
            .bind(DbInstant(now))
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let event = AdminEvent {
                report_id: Some(updated.report_id),
                issue_id: Some(issue_id),
                action: "duplicates_dismissed",
                actor: actor.to_owned(),
                detail: json!({ "dismissed": dismissed }),
                at: now,
            };
            Backend::insert_event(&mut *tx, &event).await?;
            tx.commit().await?;
            Ok(Some(updated))
        }
    }
}
