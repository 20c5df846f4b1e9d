//! The officers' steps on issues (PostgreSQL): the primitives `app::workflow` runs in one
//! transaction.

use async_trait::async_trait;
use domain::issues::IssueStatus;
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::rows::{issue, ISSUE_COLUMNS};
use super::PgStore;
use crate::store::notifications::EventKind;
use crate::store::{
    search_text, Instant, Issue, IssueStore, IssueTx, NewReport, Statement, StoreResult,
};

/// Records a change of an issue's state (the timeline and the audit trail read these).
pub(super) async fn record_change(
    tx: &mut Transaction<'_, Postgres>,
    issue_id: Uuid,
    status: IssueStatus,
    parent: Option<Uuid>,
    actor: Option<&str>,
    at: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO issue_changes (id, issue_id, status, parent_id, actor, at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(Uuid::now_v7())
    .bind(issue_id)
    .bind(status.as_str())
    .bind(parent)
    .bind(actor)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

struct PgIssueTx(Transaction<'static, Postgres>);

#[async_trait]
impl IssueStore for PgStore {
    async fn begin_step(&self) -> StoreResult<Box<dyn IssueTx>> {
        Ok(Box::new(PgIssueTx(self.pool.begin().await?)))
    }
}

#[async_trait]
impl IssueTx for PgIssueTx {
    async fn lock_issue(&mut self, issue_id: Uuid) -> StoreResult<Option<Issue>> {
        // NO KEY UPDATE: steps on the report's issues wait for each other, while vote
        // placements (whose foreign key takes KEY SHARE on the report) do not wait for them.
        sqlx::query(
            "SELECT 1 FROM reports r JOIN issues i ON i.report_id = r.id WHERE i.id = $1 \
             FOR NO KEY UPDATE OF r",
        )
        .bind(issue_id)
        .execute(&mut *self.0)
        .await?;
        let row = sqlx::query(&format!(
            "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = $1 FOR UPDATE"
        ))
        .bind(issue_id)
        .fetch_optional(&mut *self.0)
        .await?;
        Ok(row.as_ref().map(issue).transpose()?)
    }

    async fn issue_statuses(&mut self, report_id: Uuid) -> StoreResult<Vec<IssueStatus>> {
        super::PgStore::issue_statuses(&mut self.0, report_id).await
    }

    async fn category_exists(&mut self, category_id: Uuid) -> StoreResult<bool> {
        Ok(
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM report_categories WHERE id = $1)")
                .bind(category_id)
                .fetch_one(&mut *self.0)
                .await?,
        )
    }

    async fn set_status(
        &mut self,
        issue_id: Uuid,
        status: IssueStatus,
        parent: Option<Uuid>,
        clear_possible_duplicates: bool,
        now: Instant,
    ) -> StoreResult<Issue> {
        let row = sqlx::query(&format!(
            "UPDATE issues i SET status = $2, parent_id = $3, status_changed_at = $4, \
             has_possible_duplicates = has_possible_duplicates AND NOT $5 \
             WHERE i.id = $1 RETURNING {ISSUE_COLUMNS}"
        ))
        .bind(issue_id)
        .bind(status.as_str())
        .bind(parent)
        .bind(now)
        .bind(clear_possible_duplicates)
        .fetch_one(&mut *self.0)
        .await?;
        Ok(issue(&row)?)
    }

    async fn record_change(
        &mut self,
        issue_id: Uuid,
        status: IssueStatus,
        parent: Option<Uuid>,
        actor: Option<&str>,
        at: Instant,
    ) -> StoreResult<()> {
        record_change(&mut self.0, issue_id, status, parent, actor, at).await
    }

    async fn lock_report(&mut self, report_id: Uuid) -> StoreResult<bool> {
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM reports WHERE id = $1 FOR NO KEY UPDATE")
                .bind(report_id)
                .fetch_optional(&mut *self.0)
                .await?;
        Ok(found.is_some())
    }

    async fn default_category(&mut self) -> StoreResult<Option<Uuid>> {
        Ok(
            sqlx::query_scalar("SELECT id FROM report_categories WHERE is_default")
                .fetch_optional(&mut *self.0)
                .await?,
        )
    }

    async fn issue_in_category(
        &mut self,
        report_id: Uuid,
        category_id: Uuid,
    ) -> StoreResult<Option<Uuid>> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM issues WHERE report_id = $1 AND category_id = $2 \
             AND status <> 'moved'",
        )
        .bind(report_id)
        .bind(category_id)
        .fetch_optional(&mut *self.0)
        .await?)
    }

    async fn insert_report(&mut self, new: &NewReport, now: Instant) -> StoreResult<()> {
        let (lon, lat, radius) = match &new.location {
            Some(l) => (Some(l.point.lon), Some(l.point.lat), l.radius_m),
            None => (None, None, None),
        };
        let geography = "CASE WHEN $5::float8 IS NULL THEN NULL ELSE \
             public.ST_SetSRID(public.ST_MakePoint($5, $6), 4326)::public.geography END";
        sqlx::query(&format!(
            "INSERT INTO reports (id, author, title, description, longitude, latitude, \
             location_radius_m, location, search, inserted_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, {geography}, $8, $9)"
        ))
        .bind(new.id)
        .bind(&new.author)
        .bind(&new.title)
        .bind(&new.description)
        .bind(lon)
        .bind(lat)
        .bind(radius)
        .bind(search_text(new.id, &new.title, &new.description))
        .bind(now)
        .execute(&mut *self.0)
        .await?;
        super::rows::insert_media(&mut self.0, "report_id", new.id, &new.media, now).await
    }

    async fn open_issue(
        &mut self,
        issue_id: Uuid,
        report_id: Uuid,
        category_id: Uuid,
        now: Instant,
    ) -> StoreResult<Issue> {
        let row = sqlx::query(&format!(
            "INSERT INTO issues AS i (id, report_id, category_id, status, inserted_at, \
             status_changed_at, report_inserted_at, location) \
             SELECT $1, r.id, $2, 'open', $3, $3, r.inserted_at, r.location FROM reports r \
             WHERE r.id = $4 RETURNING {ISSUE_COLUMNS}"
        ))
        .bind(issue_id)
        .bind(category_id)
        .bind(now)
        .bind(report_id)
        .fetch_one(&mut *self.0)
        .await?;
        Ok(issue(&row)?)
    }

    async fn mark_processed(&mut self, report_id: Uuid, now: Instant) -> StoreResult<()> {
        sqlx::query("UPDATE reports SET processed_at = $2 WHERE id = $1 AND processed_at IS NULL")
            .bind(report_id)
            .bind(now)
            .execute(&mut *self.0)
            .await?;
        Ok(())
    }

    async fn insert_statement(&mut self, statement: &Statement) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO statements (id, issue_id, text, final, author, inserted_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(statement.id)
        .bind(statement.issue_id)
        .bind(&statement.text)
        .bind(statement.final_)
        .bind(&statement.author)
        .bind(statement.inserted_at)
        .execute(&mut *self.0)
        .await?;
        super::rows::insert_media(
            &mut self.0,
            "statement_id",
            statement.id,
            &statement.media,
            statement.inserted_at,
        )
        .await
    }

    async fn record_notification(&mut self, event: EventKind, now: Instant) -> StoreResult<()> {
        super::PgStore::record_event(&mut self.0, event, now).await
    }

    async fn record_status_event(
        &mut self,
        report_id: Uuid,
        before: Option<IssueStatus>,
        after: Option<IssueStatus>,
        now: Instant,
    ) -> StoreResult<()> {
        super::PgStore::insert_status_event(&mut self.0, report_id, before, after, now).await
    }

    async fn commit(self: Box<Self>) -> StoreResult<()> {
        Ok(self.0.commit().await?)
    }
}
