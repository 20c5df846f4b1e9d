//! The officers' steps on issues: the primitives `app::workflow` runs in one transaction
//! (`begin_write`: SQLite holds the database's write lock from the start). What each backend
//! writes its own way: how an issue and its report are locked (PostgreSQL's row locks), a
//! report's location (PostGIS) and the media rows.

use async_trait::async_trait;
use domain::issues::IssueStatus;
use uuid::Uuid;

use super::{DbInstant, DbUuid, Writing};
use crate::store::notifications::EventKind;
use crate::store::records::{IssueRecord, ISSUE_RETURNING};
use crate::store::{
    search_text, Instant, Issue, IssueChange, IssueStore, IssueTx, Media, NewIssue, NewReport,
    Statement, StoreResult,
};

/// The columns of a new report row, bound in this order by `insert_report_row` (`$1`, `$2`, …;
/// the backend's `REPORT_LOCATION` reads the longitude as `$5` and the latitude as `$6`).
const NEW_REPORT_COLUMNS: &str =
    "id, author, title, description, longitude, latitude, location_radius_m, search, inserted_at, \
     address, media_link";

both_backends! {
    impl Backend {
        /// The media rows of a report or statement (`owner`: its id's column), in their order; their
        /// pending-upload rows go (`Backend::claim_pending`).
        pub(in crate::store) async fn insert_media(
            tx: &mut Tx<'_>,
            owner: &'static str,
            owner_id: Uuid,
            media: &[Media],
            now: Instant,
        ) -> StoreResult<()> {
            Backend::claim_pending(tx, media).await?;
            for (position, m) in media.iter().enumerate() {
                sqlx::query(&format!(
                    "INSERT INTO media (id, {owner}, filename, media_type, size_bytes, position, \
                     inserted_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                ))
                .bind(DbUuid(m.id))
                .bind(DbUuid(owner_id))
                .bind(&m.filename)
                .bind(&m.media_type)
                .bind(i64::try_from(m.size_bytes).unwrap_or(i64::MAX))
                .bind(i32::try_from(position).unwrap_or(i32::MAX))
                .bind(DbInstant(now))
                .execute(&mut **tx)
                .await?;
            }
            Ok(())
        }

        /// The report's row: [`NEW_REPORT_COLUMNS`] bound in their order, and what the backend
        /// adds (`Backend::REPORT_LOCATION`: PostgreSQL's `geography`).
        pub(in crate::store) async fn insert_report_row(
            tx: &mut Tx<'_>,
            new: &NewReport,
            now: Instant,
        ) -> StoreResult<()> {
            let (lon, lat, radius) = match &new.location {
                Some(l) => (Some(l.point.lon), Some(l.point.lat), l.radius_m),
                None => (None, None, None),
            };
            static INSERT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
                let (columns, values) = Backend::REPORT_LOCATION;
                let placeholders = (1..=NEW_REPORT_COLUMNS.split(',').count())
                    .map(|n| format!("${n}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "INSERT INTO reports ({NEW_REPORT_COLUMNS}{columns}) \
                     VALUES ({placeholders}{values})"
                )
            });
            sqlx::query(&INSERT)
                .bind(DbUuid(new.id))
                .bind(&new.author)
                .bind(&new.title)
                .bind(&new.description)
                .bind(lon)
                .bind(lat)
                .bind(radius)
                .bind(search_text(new.id, &new.title, &new.description))
                .bind(DbInstant(now))
                .bind(&new.address)
                .bind(&new.media_link)
                .execute(&mut **tx)
                .await?;
            Ok(())
        }
    }

    #[async_trait]
    impl IssueStore for Backend {
        async fn begin_step(&self) -> StoreResult<Box<dyn IssueTx>> {
            Ok(Box::new(Writing(self.begin_write().await?)))
        }
    }

    #[async_trait]
    impl IssueTx for Writing<Db> {
        async fn lock_issue(&mut self, issue_id: Uuid) -> StoreResult<Option<Issue>> {
            let row = Backend::lock_issue_row(&mut self.0, issue_id).await?;
            Ok(row.map(Issue::try_from).transpose()?)
        }

        async fn issue_statuses(&mut self, report_id: Uuid) -> StoreResult<Vec<IssueStatus>> {
            Backend::issue_statuses(&mut self.0, report_id).await
        }

        async fn category_exists(&mut self, category_id: Uuid) -> StoreResult<bool> {
            Ok(
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM report_categories WHERE id = $1)")
                    .bind(DbUuid(category_id))
                    .fetch_one(&mut *self.0)
                    .await?,
            )
        }

        async fn set_status(
            &mut self,
            change: &IssueChange,
            clear_possible_duplicates: bool,
        ) -> StoreResult<Issue> {
            let row: IssueRecord = sqlx::query_as(&format!(
                "UPDATE issues SET status = $2, parent_id = $3, status_changed_at = $4, \
                 has_possible_duplicates = has_possible_duplicates AND NOT $5 \
                 WHERE id = $1 RETURNING {ISSUE_RETURNING}"
            ))
            .bind(DbUuid(change.issue_id))
            .bind(change.status.as_str())
            .bind(change.parent.map(DbUuid))
            .bind(DbInstant(change.at))
            .bind(clear_possible_duplicates)
            .fetch_one(&mut *self.0)
            .await?;
            Ok(row.try_into()?)
        }

        async fn record_change(
            &mut self,
            change: &IssueChange,
            actor: Option<&str>,
        ) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO issue_changes (id, issue_id, status, parent_id, actor, at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(DbUuid(Uuid::now_v7()))
            .bind(DbUuid(change.issue_id))
            .bind(change.status.as_str())
            .bind(change.parent.map(DbUuid))
            .bind(actor)
            .bind(DbInstant(change.at))
            .execute(&mut *self.0)
            .await?;
            Ok(())
        }

        async fn lock_report(&mut self, report_id: Uuid) -> StoreResult<bool> {
            Backend::lock_report_row(&mut self.0, report_id).await
        }

        async fn default_category(&mut self) -> StoreResult<Option<Uuid>> {
            let id: Option<DbUuid> =
                sqlx::query_scalar("SELECT id FROM report_categories WHERE is_default")
                    .fetch_optional(&mut *self.0)
                    .await?;
            Ok(id.map(Uuid::from))
        }

        async fn issue_in_category(
            &mut self,
            report_id: Uuid,
            category_id: Uuid,
        ) -> StoreResult<Option<Uuid>> {
            let id: Option<DbUuid> = sqlx::query_scalar(
                "SELECT id FROM issues WHERE report_id = $1 AND category_id = $2 \
                 AND status <> 'moved'",
            )
            .bind(DbUuid(report_id))
            .bind(DbUuid(category_id))
            .fetch_optional(&mut *self.0)
            .await?;
            Ok(id.map(Uuid::from))
        }

        async fn insert_report(&mut self, new: &NewReport, now: Instant) -> StoreResult<()> {
            Backend::insert_report_row(&mut self.0, new, now).await?;
            Backend::insert_media(&mut self.0, "report_id", new.id, &new.media, now).await
        }

        async fn complete_idempotency(
            &mut self,
            scope: &str,
            key: &str,
            answer: &crate::store::idempotency::StoredAnswer,
        ) -> StoreResult<()> {
            Backend::complete_key(&mut self.0, scope, key, answer).await
        }

        async fn open_issue(&mut self, issue: NewIssue, now: Instant) -> StoreResult<Issue> {
            // `Backend::INSERT_ISSUE` copies the report's columns (the location as PostgreSQL's
            // `geography` or SQLite's coordinates).
            let insert = format!("{} RETURNING {ISSUE_RETURNING}", Backend::INSERT_ISSUE);
            let row: IssueRecord = sqlx::query_as(&insert)
                .bind(DbUuid(issue.id))
                .bind(DbUuid(issue.category_id))
                .bind(DbInstant(now))
                .bind(DbUuid(issue.report_id))
                .fetch_one(&mut *self.0)
                .await?;
            Ok(row.try_into()?)
        }

        async fn mark_processed(&mut self, report_id: Uuid, now: Instant) -> StoreResult<()> {
            sqlx::query(
                "UPDATE reports SET processed_at = $2 WHERE id = $1 AND processed_at IS NULL",
            )
            .bind(DbUuid(report_id))
            .bind(DbInstant(now))
            .execute(&mut *self.0)
            .await?;
            Ok(())
        }

        async fn insert_statement(&mut self, statement: &Statement) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO statements (id, issue_id, text, final, author, inserted_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(DbUuid(statement.id))
            .bind(DbUuid(statement.issue_id))
            .bind(&statement.text)
            .bind(statement.final_)
            .bind(&statement.author)
            .bind(DbInstant(statement.inserted_at))
            .execute(&mut *self.0)
            .await?;
            Backend::insert_media(
                &mut self.0,
                "statement_id",
                statement.id,
                &statement.media,
                statement.inserted_at,
            )
            .await
        }

        async fn record_notification(&mut self, event: EventKind, now: Instant) -> StoreResult<()> {
            Backend::record_event(&mut self.0, event, now).await
        }

        async fn record_status_event(
            &mut self,
            report_id: Uuid,
            before: Option<IssueStatus>,
            after: Option<IssueStatus>,
            now: Instant,
        ) -> StoreResult<()> {
            Backend::insert_status_event(&mut self.0, report_id, before, after, now).await
        }
    }
}
