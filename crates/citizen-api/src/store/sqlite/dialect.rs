//! SQLite's side of the contract with the shared bodies ([`Dialect`]): no row locks (a writing
//! transaction takes the database's write lock up front with `BEGIN IMMEDIATE`), coordinates
//! without a geometry, `json_group_array` in the detail, instants as INTEGER microseconds, and
//! the reads through the R*Trees, each in its module.

use std::future::Future;

use domain::geo::LonLat;
use sqlx::{QueryBuilder, Sqlite, Transaction};
use uuid::Uuid;

use super::admin::DAY_MICROS;
use super::list_sql::push_in;
use super::{admin, digests, micros, news, reports, SqliteStore};
use crate::store::admin::{AdminFilter, CandidateSearch, DuplicateSubject};
use crate::store::digests::{DigestCandidate, DigestPeriod};
use crate::store::news::{NewsItem, NewsQuery};
use crate::store::records::{IssueRecord, ISSUE_COLUMNS};
use crate::store::sql::{Dialect, DialectTx};
use crate::store::{Instant, IssueRow, Report, ReportFilter, StoreResult};

impl Dialect for SqliteStore {
    type Db = Sqlite;

    /// No row locks: a writing transaction holds the database's write lock (`begin_write`).
    const FOR_UPDATE: &'static str = "";

    /// Nothing to pass over: the write lock admits one writer (`begin_write`).
    const SKIP_LOCKED: &'static str = "";

    /// The transaction's write lock keeps the category in place.
    const KEY_SHARE: &'static str = "";

    /// `INDEXED BY issues_report`: with a page of 100 ids SQLite otherwise took each category
    /// and walked its issues through a category index whose statistics it lacked (all of them,
    /// 236 ms at 1 000 000 reports).
    const ISSUES_BY_REPORT: &'static str = "issues i INDEXED BY issues_report";

    /// `json_group_array`, instants as microseconds (`store/sql/detail.rs` reads the row).
    const DETAIL: &'static str = "SELECT {REPORT_COLUMNS}, \
     r.votes_count, \
     (SELECT json_group_array(json_object('id', m.id, 'filename', m.filename, \
        'media_type', m.media_type, 'size_bytes', m.size_bytes) ORDER BY m.position) \
        FROM media m WHERE m.report_id = r.id) AS media, \
     (SELECT json_group_array(json_object('id', i.id, 'category_id', i.category_id, \
        'status', i.status, 'parent_id', i.parent_id, \
        'has_possible_duplicates', i.has_possible_duplicates, 'inserted_at', i.inserted_at) \
        ORDER BY i.inserted_at, i.id) FROM issues i WHERE i.report_id = r.id) AS issues \
     FROM reports r WHERE r.id = $1";

    const REPORT_LOCATION: (&'static str, &'static str) = ("", "");

    /// The report's coordinates.
    const INSERT_ISSUE: &'static str =
        "INSERT INTO issues (id, report_id, category_id, status, inserted_at, \
         status_changed_at, report_inserted_at, longitude, latitude) \
         SELECT $1, r.id, $2, 'open', $3, $3, r.inserted_at, r.longitude, r.latitude \
         FROM reports r WHERE r.id = $4";

    /// Triggers keep `news_locations` in step.
    const INSERT_NEWS: &'static str =
        "INSERT INTO news_items (id, title, description, image, date, longitude, latitude, \
         inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)";

    const UPDATE_NEWS: &'static str =
        "UPDATE news_items SET title = $2, description = $3, image = $4, date = $5, \
         longitude = $6, latitude = $7, updated_at = $8 WHERE id = $1";

    const NEWS_UNLOCATED: &'static str = "n.longitude IS NULL";

    const NEXT_FEED_INSTANT: &'static str = "max($9, coalesce(( \
         SELECT max(inserted_at) + 1 FROM notifications WHERE subject = $2), $9))";

    /// `BEGIN IMMEDIATE` takes the database's write lock up front, so a transaction that reads
    /// before it writes waits for another writer instead of failing when it tries to upgrade
    /// its lock.
    async fn begin_write(&self) -> sqlx::Result<DialectTx<Self>> {
        self.pool.begin_with("BEGIN IMMEDIATE").await
    }

    /// The write lock of `begin_write` already keeps an erasure out until it ends (PostgreSQL
    /// takes an advisory lock).
    async fn begin_fan_out(&self) -> sqlx::Result<DialectTx<Self>> {
        self.begin_write().await
    }

    /// The write lock of `begin_write` waits for a fan-out writer and keeps the next out until
    /// it ends.
    async fn begin_erasing(&self) -> sqlx::Result<DialectTx<Self>> {
        self.begin_write().await
    }

    /// In WAL mode a read transaction reads one snapshot from its first SELECT on.
    async fn begin_snapshot(&self) -> sqlx::Result<DialectTx<Self>> {
        self.pool.begin().await
    }

    /// The database's write lock up front.
    async fn begin_category_write(&self) -> sqlx::Result<DialectTx<Self>> {
        self.begin_write().await
    }

    /// ` IN (?, ?, …)` over `ids`.
    fn push_ids(q: &mut QueryBuilder<'_, Sqlite>, ids: &[Uuid]) {
        push_in(q, ids);
    }

    /// The hyphenated text.
    fn push_uuid(q: &mut QueryBuilder<'_, Sqlite>, id: Uuid) {
        q.push_bind(id.to_string());
    }

    fn push_text(q: &mut QueryBuilder<'_, Sqlite>, text: String) {
        q.push_bind(text);
    }

    /// INTEGER microseconds.
    fn push_instant(q: &mut QueryBuilder<'_, Sqlite>, at: Instant) {
        q.push_bind(micros(at));
    }

    /// ` IN (?, ?, …)`.
    fn push_names(q: &mut QueryBuilder<'_, Sqlite>, names: &[&'static str]) {
        q.push(" IN (");
        let mut list = q.separated(", ");
        for name in names {
            list.push_bind(*name);
        }
        q.push(")");
    }

    /// A day is [`DAY_MICROS`].
    fn push_overdue(q: &mut QueryBuilder<'_, Sqlite>, now: Instant) {
        q.push(
            "(i.status IN ('open', 'accepted') AND c.statement_deadline_days IS NOT NULL \
             AND i.inserted_at + c.statement_deadline_days * ",
        )
        .push_bind(DAY_MICROS)
        .push(" <= ")
        .push_bind(micros(now))
        .push(")");
    }

    fn push_admin_conditions(q: &mut QueryBuilder<'_, Sqlite>, filter: &AdminFilter) {
        admin::push_conditions(q, filter);
    }

    /// The transaction's write lock already excludes every other step.
    async fn lock_issue_row(
        tx: &mut Transaction<'_, Sqlite>,
        issue_id: Uuid,
    ) -> StoreResult<Option<IssueRecord>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.id = ?1"
        ))
        .bind(issue_id.to_string())
        .fetch_optional(&mut **tx)
        .await?)
    }

    /// Whether the report exists (the transaction holds the write lock).
    async fn lock_report_row(
        tx: &mut Transaction<'_, Sqlite>,
        report_id: Uuid,
    ) -> StoreResult<bool> {
        Ok(
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM reports WHERE id = ?1)")
                .bind(report_id.to_string())
                .fetch_one(&mut **tx)
                .await?,
        )
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
