//! Filing and reading reports (PostgreSQL).

use async_trait::async_trait;
use domain::issues::{IssueStatus, StatusChange};
use domain::reports::{Direction, OrderBy};
use sqlx::{Postgres, QueryBuilder, Row};
use uuid::Uuid;

use super::nearest::nearest_rows;
use super::rows::{list_row, report, with_issues, LIST_COLUMNS, REPORT_COLUMNS};
use super::{page_sql, PgStore};
use crate::store::{
    search_text, status, Instant, IssueRow, ListPage, NewReport, Report, ReportFilter, ReportStore,
    ReportWithIssues, StoreResult, TimelineData,
};

pub(super) fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Asc => "ASC",
        Direction::Desc => "DESC",
    }
}

/// `ST_MakePoint(lon, lat)` in WGS84 (a planar geometry) with bound values.
pub(super) fn push_planar_point(q: &mut QueryBuilder<'_, Postgres>, lon: f64, lat: f64) {
    q.push("public.ST_SetSRID(public.ST_MakePoint(")
        .push_bind(lon)
        .push(", ")
        .push_bind(lat)
        .push("), 4326)");
}

/// `ST_MakePoint(lon, lat)::geography` with bound values.
pub(super) fn push_point(q: &mut QueryBuilder<'_, Postgres>, lon: f64, lat: f64) {
    push_planar_point(q, lon, lat);
    q.push("::public.geography");
}

/// The WHERE conditions on the report's location shared by both lists (`alias.location`).
fn push_near(q: &mut QueryBuilder<'_, Postgres>, filter: &ReportFilter, alias: &str) {
    if let Some(near) = &filter.near {
        if let Some(radius) = near.radius_m {
            q.push(format!(" AND public.ST_DWithin({alias}.location, "));
            push_point(q, near.point.lon, near.point.lat);
            q.push(", ").push_bind(radius).push(")");
        }
    }
}

/// The active vote tokens on report `r.id` at `now` (rule 5: neither revoked nor expired; expiry
/// is compared with the request's instant, so no batch job is needed). Served by the partial
/// index `vote_tokens_target`.
pub(super) fn push_votes(q: &mut QueryBuilder<'_, Postgres>, id: &str, now: Instant) {
    q.push(format!(
        "(SELECT count(*) FROM vote_tokens v WHERE v.target_id = {id} \
         AND v.revoked_at IS NULL AND (v.expires_at IS NULL OR v.expires_at > "
    ))
    .push_bind(now)
    .push("))");
}

/// ORDER BY, LIMIT and OFFSET; `date` is the filing-time column, `id` the row's id column, and
/// the query selects `votes_count`.
pub(super) fn push_order(
    q: &mut QueryBuilder<'_, Postgres>,
    filter: &ReportFilter,
    alias: &str,
    date: &str,
    id: &str,
) {
    let dir = direction(filter.order.direction);
    match (filter.order.by, &filter.near) {
        (OrderBy::Location, Some(near)) => {
            q.push(format!(
                " ORDER BY ({alias}.location IS NULL), {alias}.location <-> "
            ));
            push_point(q, near.point.lon, near.point.lat);
            q.push(format!(" {dir}, {id} {dir}"));
        }
        // Equal counts: the filing time, then the id, in the same direction.
        (OrderBy::Votes, _) => {
            q.push(format!(
                " ORDER BY votes_count {dir}, {date} {dir}, {id} {dir}"
            ));
        }
        _ => {
            q.push(format!(" ORDER BY {date} {dir}, {id} {dir}"));
        }
    }
    q.push(page_sql(
        i64::from(filter.page.limit) + 1,
        i64::from(filter.page.offset),
    ));
}

/// `SELECT <list row>, votes_count FROM issues i WHERE i.status <> 'moved'`: the issue with the
/// copies of its report's columns and media (migration 0014) and the report's active vote
/// tokens at `now`.
pub(super) fn push_select(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
    push_select_with(q, now, |_| {});
}

/// [`push_select`] with more columns, pushed by `extra` (`<expression> AS <name>, `).
pub(super) fn push_select_with<'a>(
    q: &mut QueryBuilder<'a, Postgres>,
    now: Instant,
    extra: impl FnOnce(&mut QueryBuilder<'a, Postgres>),
) {
    q.push(format!("SELECT {LIST_COLUMNS}, "));
    extra(q);
    push_votes(q, "i.report_id", now);
    q.push(" AS votes_count FROM issues i WHERE i.status <> 'moved'");
}

/// The public list's filters (after `WHERE i.status <> 'moved'`).
pub(super) fn push_list_filters(q: &mut QueryBuilder<'_, Postgres>, filter: &ReportFilter) {
    // One value is an equality: the planner can then walk an index in date order.
    match filter.categories.as_slice() {
        [] => {}
        [one] => {
            q.push(" AND i.category_id = ").push_bind(*one);
        }
        many => {
            q.push(" AND i.category_id = ANY(")
                .push_bind(many.to_vec())
                .push(")");
        }
    }
    match filter.statuses.as_slice() {
        [] => {}
        [one] => {
            q.push(" AND i.status = ").push_bind(one.as_str());
        }
        many => {
            let names: Vec<&str> = many.iter().map(|s| s.as_str()).collect();
            q.push(" AND i.status = ANY(").push_bind(names).push(")");
        }
    }
    push_report_filters(q, filter, "i", "i.report_inserted_at");
}

/// The filters on the report's own columns (`q`, dates, radius) on `alias`, whose filing time
/// is the column `date`: the report row itself or an issue's copy of it.
pub(super) fn push_report_filters(
    q: &mut QueryBuilder<'_, Postgres>,
    filter: &ReportFilter,
    alias: &str,
    date: &str,
) {
    if let Some(text) = &filter.q {
        // Folded text holds letters, digits and single spaces only: no LIKE wildcards.
        q.push(format!(" AND {alias}.search LIKE "))
            .push_bind(format!("%{text}%"));
    }
    if let Some(from) = filter.date_from {
        q.push(format!(" AND {date} >= ")).push_bind(from);
    }
    if let Some(to) = filter.date_to {
        q.push(format!(" AND {date} <= ")).push_bind(to);
    }
    push_near(q, filter, alias);
}

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
