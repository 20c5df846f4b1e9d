//! Filing and reading reports (PostgreSQL).

use async_trait::async_trait;
use domain::issues::{IssueStatus, StatusChange};
use domain::reports::{Direction, OrderBy};
use sqlx::{Postgres, QueryBuilder, Row};
use uuid::Uuid;

use super::list_sql::{push_list_filters, push_near, push_order, push_select, push_votes};
use super::nearest::nearest_rows;
use super::rows::{list_row, report, with_issues, REPORT_COLUMNS};
use super::PgStore;
use crate::store::{
    search_text, status, Instant, IssueRow, ListPage, NewReport, Report, ReportFilter, ReportStore,
    ReportWithIssues, StoreResult, TimelineData,
};

#[async_trait]
impl ReportStore for PgStore {
    async fn file_report(&self, new: &NewReport, now: Instant) -> StoreResult<Option<Report>> {
        let mut tx = self.pool.begin().await?;
        let Some(category_id): Option<Uuid> =
            sqlx::query_scalar("SELECT id FROM report_categories WHERE is_default")
                .fetch_optional(&mut *tx)
                .await?
        else {
            return Ok(None);
        };
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
        .execute(&mut *tx)
        .await?;
        super::rows::insert_media(&mut tx, "report_id", new.id, &new.media, now).await?;
        let issue_id = Uuid::now_v7();
        sqlx::query(
            "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
             status_changed_at, report_inserted_at, location) \
             SELECT $1, r.id, $2, 'open', $3, $3, r.inserted_at, r.location FROM reports r \
             WHERE r.id = $4",
        )
        .bind(issue_id)
        .bind(category_id)
        .bind(now)
        .bind(new.id)
        .execute(&mut *tx)
        .await?;
        super::issues::record_change(
            &mut tx,
            issue_id,
            IssueStatus::Open,
            None,
            new.author.as_deref(),
            now,
        )
        .await?;
        super::status_events::record_if_changed(&mut tx, new.id, None, now).await?;
        tx.commit().await?;
        Ok(self.report(new.id).await?.map(|r| r.report))
    }

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
