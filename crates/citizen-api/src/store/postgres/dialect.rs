//! PostgreSQL's side of the contract with the shared bodies ([`Dialect`]): row locks, the
//! transactions (an advisory lock for the writers that fan out to subjects), PostGIS's
//! `geography` in the inserts, `json_agg` in the detail, and the reads through the GiST
//! indexes, each in its module.

use std::future::Future;

use domain::geo::LonLat;
use sqlx::{Postgres, QueryBuilder, Transaction};
use uuid::Uuid;

use super::{admin, digests, news, reports, PgStore, SUBJECTS_LOCK};
use crate::store::admin::{AdminFilter, CandidateSearch, DuplicateSubject};
use crate::store::digests::{DigestCandidate, DigestPeriod};
use crate::store::news::{NewsItem, NewsQuery};
use crate::store::records::{IssueRecord, ISSUE_COLUMNS};
use crate::store::sql::{Dialect, DialectTx};
use crate::store::{Instant, IssueRow, Report, ReportFilter, StoreResult};

/// The point `($6, $7)` as a geography, or NULL without one.
macro_rules! geography {
    () => {
        "CASE WHEN $6::float8 IS NULL THEN NULL ELSE \
         public.ST_SetSRID(public.ST_MakePoint($6, $7), 4326)::public.geography END"
    };
}

impl PgStore {
    /// A writing transaction whose first statement takes [`SUBJECTS_LOCK`] with `function`
    /// (a transaction-level advisory lock: released at commit or rollback, never left behind).
    async fn begin_holding(&self, function: &str) -> sqlx::Result<DialectTx<Self>> {
        let mut tx = self.begin_write().await?;
        sqlx::query(&format!("SELECT {function}($1, $2)"))
            .bind(SUBJECTS_LOCK.0)
            .bind(SUBJECTS_LOCK.1)
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }
}

impl Dialect for PgStore {
    type Db = Postgres;

    const FOR_UPDATE: &'static str = " FOR UPDATE";

    const SKIP_LOCKED: &'static str = " FOR UPDATE SKIP LOCKED";

    /// A subscription's category check keeps the category from being deleted meanwhile.
    const KEY_SHARE: &'static str = " FOR KEY SHARE";

    /// PostgreSQL picks the `issues_report` index itself.
    const ISSUES_BY_REPORT: &'static str = "issues i";

    /// `json_agg`, instants as text (`store/sql/detail.rs` reads the row).
    const DETAIL: &'static str = "SELECT {REPORT_COLUMNS}, \
     r.votes_count, \
     (SELECT coalesce(json_agg(json_build_object('id', m.id, 'filename', m.filename, \
        'media_type', m.media_type, 'size_bytes', m.size_bytes) ORDER BY m.position), '[]') \
        FROM media m WHERE m.report_id = r.id) AS media, \
     (SELECT coalesce(json_agg(json_build_object('id', i.id, 'category_id', i.category_id, \
        'status', i.status, 'parent_id', i.parent_id, \
        'has_possible_duplicates', i.has_possible_duplicates, 'inserted_at', i.inserted_at) \
        ORDER BY i.inserted_at, i.id), '[]') FROM issues i WHERE i.report_id = r.id) AS issues \
     FROM reports r WHERE r.id = $1";

    /// The location as a `geography` beside the coordinates.
    const REPORT_LOCATION: (&'static str, &'static str) = (
        ", location",
        ", CASE WHEN $5::float8 IS NULL THEN NULL ELSE \
         public.ST_SetSRID(public.ST_MakePoint($5, $6), 4326)::public.geography END",
    );

    const INSERT_ISSUE: &'static str =
        "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
         status_changed_at, report_inserted_at, location) \
         SELECT $1, r.id, $2, 'open', $3, $3, r.inserted_at, r.location FROM reports r \
         WHERE r.id = $4";

    /// The PostGIS `location` follows the coordinates.
    const INSERT_NEWS: &'static str = concat!(
        "INSERT INTO news_items (id, title, description, image, date, longitude, latitude, \
         location, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, ",
        geography!(),
        ", $8, $8)"
    );

    const UPDATE_NEWS: &'static str = concat!(
        "UPDATE news_items SET title = $2, description = $3, image = $4, date = $5, \
         longitude = $6, latitude = $7, location = ",
        geography!(),
        ", updated_at = $8 WHERE id = $1"
    );

    const NEWS_UNLOCATED: &'static str = "n.location IS NULL";

    const NEXT_FEED_INSTANT: &'static str = "GREATEST($9, ( \
         SELECT max(inserted_at) + interval '1 microsecond' FROM notifications \
         WHERE subject = $2))";

    /// `BEGIN`: rows are locked as statements reach them.
    async fn begin_write(&self) -> sqlx::Result<DialectTx<Self>> {
        self.pool.begin().await
    }

    /// Holds [`SUBJECTS_LOCK`] shared until it ends, taken before anything else. Fan-out
    /// writers do not wait for one another.
    async fn begin_fan_out(&self) -> sqlx::Result<DialectTx<Self>> {
        self.begin_holding("pg_advisory_xact_lock_shared").await
    }

    /// Holds [`SUBJECTS_LOCK`] exclusive until it ends, taken before anything else (before the
    /// vote account's row): it waits for the fan-out writers running, and those starting wait
    /// for it.
    async fn begin_erasing(&self) -> sqlx::Result<DialectTx<Self>> {
        self.begin_holding("pg_advisory_xact_lock").await
    }

    /// A read-only REPEATABLE READ transaction.
    async fn begin_snapshot(&self) -> sqlx::Result<DialectTx<Self>> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }

    /// The news generation's row is taken first (the lock the write's trigger takes, migration
    /// 0018): an item write holds that row from its first statement on while its category checks
    /// wait for this table lock, so taking the table first would deadlock with it. Then the
    /// table's EXCLUSIVE lock (reads go on).
    async fn begin_category_write(&self) -> sqlx::Result<DialectTx<Self>> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT generation FROM news_generation WHERE id = 1 FOR NO KEY UPDATE")
            .execute(&mut *tx)
            .await?;
        sqlx::query("LOCK TABLE news_categories IN EXCLUSIVE MODE")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }

    /// `ids` as one bound array (one statement whatever their number).
    fn push_ids(q: &mut QueryBuilder<'_, Postgres>, ids: &[Uuid]) {
        q.push(" = ANY(").push_bind(ids.to_vec()).push(")");
    }

    fn push_uuid(q: &mut QueryBuilder<'_, Postgres>, id: Uuid) {
        q.push_bind(id);
    }

    fn push_text(q: &mut QueryBuilder<'_, Postgres>, text: String) {
        q.push_bind(text);
    }

    fn push_instant(q: &mut QueryBuilder<'_, Postgres>, at: Instant) {
        q.push_bind(at);
    }

    /// One bound array.
    fn push_names(q: &mut QueryBuilder<'_, Postgres>, names: &[&'static str]) {
        q.push(" = ANY(").push_bind(names.to_vec()).push(")");
    }

    /// A day is 24 hours, as on SQLite, not a calendar day of the session's zone.
    fn push_overdue(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
        q.push(
            "(i.status IN ('open', 'accepted') AND c.statement_deadline_days IS NOT NULL \
             AND i.inserted_at + make_interval(hours => 24 * c.statement_deadline_days) <= ",
        )
        .push_bind(now)
        .push(")");
    }

    fn push_admin_conditions(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter) {
        admin::push_conditions(q, filter);
    }

    async fn lock_issue_row(
        tx: &mut Transaction<'_, Postgres>,
        issue_id: Uuid,
    ) -> StoreResult<Option<IssueRecord>> {
        // NO KEY UPDATE: steps on the report's issues wait for each other, while vote
        // placements (whose foreign key takes KEY SHARE on the report) do not wait for them.
        sqlx::query(
            "SELECT 1 FROM reports r JOIN issues i ON i.report_id = r.id WHERE i.id = $1 \
             FOR NO KEY UPDATE OF r",
        )
        .bind(issue_id)
        .execute(&mut **tx)
        .await?;
        Ok(sqlx::query_as(&format!(
            "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = $1 FOR UPDATE"
        ))
        .bind(issue_id)
        .fetch_optional(&mut **tx)
        .await?)
    }

    /// `FOR NO KEY UPDATE`.
    async fn lock_report_row(
        tx: &mut Transaction<'_, Postgres>,
        report_id: Uuid,
    ) -> StoreResult<bool> {
        let found: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM reports WHERE id = $1 FOR NO KEY UPDATE")
                .bind(report_id)
                .fetch_optional(&mut **tx)
                .await?;
        Ok(found.is_some())
    }

    fn public_list_rows(
        &self,
        filter: &ReportFilter,
    ) -> impl Future<Output = StoreResult<Vec<IssueRow>>> + Send {
        reports::public_list_rows(&self.pool, filter)
    }

    fn own_report_rows(
        &self,
        author: &str,
        filter: &ReportFilter,
    ) -> impl Future<Output = StoreResult<Vec<Report>>> + Send {
        reports::own_report_rows(&self.pool, author, filter)
    }

    fn admin_report_rows(
        &self,
        filter: &AdminFilter,
    ) -> impl Future<Output = StoreResult<Vec<Report>>> + Send {
        admin::admin_report_rows(&self.pool, filter)
    }

    fn duplicate_candidates_near(
        &self,
        search: CandidateSearch<'_>,
    ) -> impl Future<Output = StoreResult<Vec<DuplicateSubject>>> + Send {
        admin::duplicates::duplicate_candidates_near(&self.pool, search)
    }

    fn digest_candidates_of(
        &self,
        period: &DigestPeriod,
        limit: u32,
    ) -> impl Future<Output = StoreResult<Vec<DigestCandidate>>> + Send {
        digests::digest_candidates_of(&self.pool, period, limit)
    }

    fn located_news(
        &self,
        query: &NewsQuery,
        point: LonLat,
    ) -> impl Future<Output = StoreResult<Vec<NewsItem>>> + Send {
        news::located_news(&self.pool, query, point)
    }
}
