//! The contract between the shared bodies (`store/sql/`) and each backend: every statement
//! fragment, transaction start, row lock and read that differs between PostgreSQL and SQLite.
//! `store/postgres/dialect.rs` and `store/sqlite/dialect.rs` implement it, each in one place;
//! a backend missing an item is a compile error at its `impl`. The shared bodies call these
//! items as `Backend::ITEM` or `self.item()` and nothing else of a backend.

use std::future::Future;

use domain::geo::LonLat;
use sqlx::{QueryBuilder, Transaction};
use uuid::Uuid;

use crate::store::admin::{AdminFilter, CandidateSearch, DuplicateSubject};
use crate::store::digests::{DigestCandidate, DigestPeriod};
use crate::store::news::{NewsItem, NewsQuery};
use crate::store::records::IssueRecord;
use crate::store::{Instant, IssueRow, Report, ReportFilter, StoreResult};

/// A transaction of the backend's database, not tied to a connection borrowed from outside.
pub(in crate::store) type DialectTx<D> = Transaction<'static, <D as Dialect>::Db>;

/// What each backend supplies to the statements both run (see the module's text).
pub(in crate::store) trait Dialect: Sized + Send + Sync + 'static {
    /// The backend's sqlx database.
    type Db: sqlx::Database;

    // Row locks (SQLite: none, a writing transaction holds the database's write lock).

    /// Locks the rows a writing transaction reads, until it ends.
    const FOR_UPDATE: &'static str;
    /// Locks the rows a batch takes, passing over those another transaction holds.
    const SKIP_LOCKED: &'static str;
    /// Keeps a referenced row (a news category) from being deleted while the transaction runs.
    const KEY_SHARE: &'static str;

    // Statements whose text differs.

    /// Issues found by their reports (`issues i`, with SQLite's index named).
    const ISSUES_BY_REPORT: &'static str;
    /// The public detail: the report with its active vote count, its media and its issues as
    /// JSON arrays; `$1` the report, `$2` now; `{REPORT_COLUMNS}` is written in once.
    const DETAIL: &'static str;
    /// What a backend writes into a new report row beside the shared columns (`insert_report_row`
    /// in `sql/issues.rs`): a column list and its values, each starting with `, `, reading the
    /// longitude as `$5` and the latitude as `$6` (PostgreSQL: its `geography`; SQLite: none).
    const REPORT_LOCATION: (&'static str, &'static str);
    /// An open issue of report `$4` in category `$2` at `$3`, id `$1`, with the report's
    /// location.
    const INSERT_ISSUE: &'static str;
    /// Writes a news item: `$1` id, `$2` title, `$3` description, `$4` image, `$5` date, `$6`
    /// longitude, `$7` latitude, `$8` now.
    const INSERT_NEWS: &'static str;
    /// Rewrites news item `$1` with the values of [`Dialect::INSERT_NEWS`].
    const UPDATE_NEWS: &'static str;
    /// The news items (`n`) without a location.
    const NEWS_UNLOCATED: &'static str;
    /// `$9` (now), or the newest feed entry of account `$2` plus a microsecond when later.
    const NEXT_FEED_INSTANT: &'static str;

    // Transactions.

    /// A transaction that writes (SQLite: `BEGIN IMMEDIATE`, the write lock up front).
    fn begin_write(&self) -> impl Future<Output = sqlx::Result<DialectTx<Self>>> + Send;

    /// A writing transaction that fans out to subjects: an erasure never commits between its
    /// read of whom to tell and its commit (docs/privacy.md).
    fn begin_fan_out(&self) -> impl Future<Output = sqlx::Result<DialectTx<Self>>> + Send;

    /// An erasure's transaction, exclusive with the fan-out writers.
    fn begin_erasing(&self) -> impl Future<Output = sqlx::Result<DialectTx<Self>>> + Send;

    /// A read transaction whose statements all see the snapshot of the first.
    fn begin_snapshot(&self) -> impl Future<Output = sqlx::Result<DialectTx<Self>>> + Send;

    /// Starts a news category write (the category table locked for writing).
    fn begin_category_write(&self) -> impl Future<Output = sqlx::Result<DialectTx<Self>>> + Send;

    // Fragments.

    /// A match of the column just pushed against `ids` (` = ANY($n)`, or ` IN (…)`).
    fn push_ids(q: &mut QueryBuilder<'_, Self::Db>, ids: &[Uuid]);

    /// Binds an id.
    fn push_uuid(q: &mut QueryBuilder<'_, Self::Db>, id: Uuid);

    /// Binds a text.
    fn push_text(q: &mut QueryBuilder<'_, Self::Db>, text: String);

    /// Binds an instant (its stored form: `service_kit::codec`).
    fn push_instant(q: &mut QueryBuilder<'_, Self::Db>, at: Instant);

    /// A match of the column just pushed against `names` (` = ANY($n)`, or ` IN (…)`).
    fn push_names(q: &mut QueryBuilder<'_, Self::Db>, names: &[&'static str]);

    /// Whether issue `i` of category `c` is past its statement deadline at `now`: open or
    /// accepted, and placed into its category at least the deadline ago (a day is 24 hours,
    /// `domain::issues::is_overdue`).
    fn push_overdue(q: &mut QueryBuilder<'_, Self::Db>, now: Instant);

    /// The admin list's conditions on `reports r` after a `WHERE TRUE`: an accessible issue
    /// matching the filter (when it can leave a report out), the report's own columns and the
    /// radius; no order, no page. The list's general walk and the status counts
    /// (`sql/status_counts.rs`) both read them.
    fn push_admin_conditions(q: &mut QueryBuilder<'_, Self::Db>, filter: &AdminFilter);

    // Locks of an officer's step.

    /// The issue, locked until the transaction ends, after its report's row.
    fn lock_issue_row(
        tx: &mut Transaction<'_, Self::Db>,
        issue_id: Uuid,
    ) -> impl Future<Output = StoreResult<Option<IssueRecord>>> + Send;

    /// Locks the report's row until the transaction ends; whether it exists.
    fn lock_report_row(
        tx: &mut Transaction<'_, Self::Db>,
        report_id: Uuid,
    ) -> impl Future<Output = StoreResult<bool>> + Send;

    // Reads through each backend's own index (PostGIS, or the R*Tree) or functions.

    /// The public list's rows: one page and one more.
    fn public_list_rows(
        &self,
        filter: &ReportFilter,
    ) -> impl Future<Output = StoreResult<Vec<IssueRow>>> + Send;

    /// A citizen's own reports with their votes: one page and one more.
    fn own_report_rows(
        &self,
        author: &str,
        filter: &ReportFilter,
    ) -> impl Future<Output = StoreResult<Vec<Report>>> + Send;

    /// The admin list's reports with their votes: one page and one more.
    fn admin_report_rows(
        &self,
        filter: &AdminFilter,
    ) -> impl Future<Output = StoreResult<Vec<Report>>> + Send;

    /// Open or accepted issues of the subject's category near it, of reports filed within
    /// `filed`, not yet suggested for it.
    fn duplicate_candidates_near(
        &self,
        search: CandidateSearch<'_>,
    ) -> impl Future<Output = StoreResult<Vec<DuplicateSubject>>> + Send;

    /// The accounts due a digest for the period, at most `limit`.
    fn digest_candidates_of(
        &self,
        period: &DigestPeriod,
        limit: u32,
    ) -> impl Future<Output = StoreResult<Vec<DigestCandidate>>> + Send;

    /// News items with a location, nearest first then by id, after the query's cursor.
    fn located_news(
        &self,
        query: &NewsQuery,
        point: LonLat,
    ) -> impl Future<Output = StoreResult<Vec<NewsItem>>> + Send;
}
