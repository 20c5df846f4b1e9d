//! The officers' side (SQLite): the admin list's statement, candidates near an issue and
//! category changes (`admin/`). `store::sql::admin` serves the rest of `AdminStore`.

mod duplicates;
mod general;
mod one_category;

use sqlx::{QueryBuilder, Sqlite};

use super::rows::{push_in, REPORT_COLUMNS};
use super::{micros, SqliteStore};
use crate::store::admin::{Access, AdminFilter};
use crate::store::records::reports_with_votes;
use crate::store::{Report, StoreResult};

/// A deadline day (`domain::issues::is_overdue`).
pub(super) const DAY_MICROS: i64 = domain::issues::DEADLINE_DAY_MICROS;

pub(super) fn push_access(q: &mut QueryBuilder<'_, Sqlite>, access: &Access) {
    if let Some(ids) = access.categories() {
        q.push(" AND i.category_id");
        push_in(q, ids);
    }
}

impl SqliteStore {
    /// Issues found by their reports (`INDEXED BY issues_report`): with a page of 100 ids
    /// SQLite otherwise took each category and walked its issues through a category index whose
    /// statistics it lacked (all of them, 236 ms at 1 000 000 reports).
    pub(in crate::store) const ISSUES_BY_REPORT: &'static str = "issues i INDEXED BY issues_report";

    /// The admin list's reports with their votes: one page and one more (their issues are
    /// read by `store::sql::admin`).
    pub(in crate::store) async fn admin_report_rows(
        &self,
        filter: &AdminFilter,
    ) -> StoreResult<Vec<Report>> {
        let list = &filter.list;
        let mut q = QueryBuilder::<Sqlite>::new("");
        let confined = filter.confined_to_one_category();
        if let Some(category) = confined {
            one_category::push_page(&mut q, filter, category);
        }
        q.push(format!(
            "SELECT {REPORT_COLUMNS}, (SELECT count(*) FROM vote_tokens v \
             WHERE v.target_id = r.id AND v.revoked_at IS NULL \
             AND (v.expires_at IS NULL OR v.expires_at > "
        ));
        q.push_bind(micros(filter.now))
            .push(")) AS votes_count FROM ");
        if confined.is_some() {
            let dir = super::list_sql::direction(list.order.direction);
            q.push(format!(
                "page p JOIN reports r ON r.id = p.report_id \
                 ORDER BY r.inserted_at {dir}, r.id {dir}"
            ));
        } else {
            q.push("reports r WHERE 1");
            general::push_filters(&mut q, filter);
        }
        reports_with_votes(&q.build().fetch_all(&self.pool).await?)
    }
}
