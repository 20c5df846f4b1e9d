//! Rows as both backends store them, read with `#[derive(sqlx::FromRow)]` (ids as [`DbUuid`],
//! instants as [`DbInstant`]) and turned into the store's types.

use anyhow::Context as _;
use service_kit::codec::{DbInstant, DbUuid};

use super::news::NewsCategory;
use super::notifications::Notification;
use super::status_events::StatusEvent;
use super::{status, Category, Issue};

/// The columns of a [`CategoryRecord`] from `report_categories c`.
pub(crate) const CATEGORY_COLUMNS: &str = "c.id, c.name, c.is_default, c.statement_deadline_days";

#[derive(sqlx::FromRow)]
pub(crate) struct CategoryRecord {
    id: DbUuid,
    name: String,
    is_default: bool,
    statement_deadline_days: Option<i32>,
}

impl TryFrom<CategoryRecord> for Category {
    type Error = anyhow::Error;

    fn try_from(row: CategoryRecord) -> anyhow::Result<Self> {
        Ok(Category {
            id: row.id.0,
            name: row.name,
            is_default: row.is_default,
            statement_deadline_days: row
                .statement_deadline_days
                .map(u32::try_from)
                .transpose()
                .context("stored deadline is negative")?,
        })
    }
}

/// The columns of a [`StatusEventRecord`].
pub(crate) const STATUS_EVENT_COLUMNS: &str = "id, report_id, previous_status, status, occurred_at";

#[derive(sqlx::FromRow)]
pub(crate) struct StatusEventRecord {
    id: DbUuid,
    report_id: DbUuid,
    previous_status: Option<String>,
    status: Option<String>,
    occurred_at: DbInstant,
}

impl TryFrom<StatusEventRecord> for StatusEvent {
    type Error = anyhow::Error;

    fn try_from(row: StatusEventRecord) -> anyhow::Result<Self> {
        Ok(StatusEvent {
            id: row.id.0,
            report_id: row.report_id.0,
            previous: row.previous_status.as_deref().map(status).transpose()?,
            status: row.status.as_deref().map(status).transpose()?,
            occurred_at: row.occurred_at.0,
        })
    }
}

/// The columns of a [`NotificationRecord`] from `notifications`.
pub(crate) const NOTIFICATION_COLUMNS: &str =
    "tag, title, body, url, icon, sent_at, inserted_at, read_at";

#[derive(sqlx::FromRow)]
pub(crate) struct NotificationRecord {
    tag: String,
    title: String,
    body: Option<String>,
    url: Option<String>,
    icon: Option<String>,
    sent_at: DbInstant,
    inserted_at: DbInstant,
    read_at: Option<DbInstant>,
}

impl From<NotificationRecord> for Notification {
    fn from(r: NotificationRecord) -> Self {
        Self {
            tag: r.tag,
            title: r.title,
            body: r.body,
            url: r.url,
            icon: r.icon,
            sent_at: r.sent_at.0,
            inserted_at: r.inserted_at.0,
            read_at: r.read_at.map(|at| at.0),
        }
    }
}

/// The columns of a [`NewsCategoryRecord`] from `news_categories`.
pub(crate) const NEWS_CATEGORY_COLUMNS: &str = "id, name, description, parent_id";

#[derive(sqlx::FromRow)]
pub(crate) struct NewsCategoryRecord {
    id: DbUuid,
    name: String,
    description: Option<String>,
    parent_id: Option<DbUuid>,
}

impl From<NewsCategoryRecord> for NewsCategory {
    fn from(row: NewsCategoryRecord) -> Self {
        NewsCategory {
            id: row.id.0,
            name: row.name,
            description: row.description,
            parent_id: row.parent_id.map(|p| p.0),
        }
    }
}

/// The columns of an [`IssueRecord`] from `issues i`.
pub(crate) const ISSUE_COLUMNS: &str =
    "i.id, i.report_id, i.category_id, i.status, i.parent_id, i.has_possible_duplicates, \
     i.inserted_at";
/// The same after `RETURNING`, where SQLite takes no table name.
pub(crate) const ISSUE_RETURNING: &str =
    "id, report_id, category_id, status, parent_id, has_possible_duplicates, inserted_at";

#[derive(sqlx::FromRow)]
pub(crate) struct IssueRecord {
    id: DbUuid,
    report_id: DbUuid,
    category_id: DbUuid,
    status: String,
    parent_id: Option<DbUuid>,
    has_possible_duplicates: bool,
    inserted_at: DbInstant,
}

impl TryFrom<IssueRecord> for Issue {
    type Error = anyhow::Error;

    fn try_from(row: IssueRecord) -> anyhow::Result<Self> {
        Ok(Issue {
            id: row.id.0,
            report_id: row.report_id.0,
            category_id: row.category_id.0,
            status: status(&row.status)?,
            parent_id: row.parent_id.map(|p| p.0),
            has_possible_duplicates: row.has_possible_duplicates,
            inserted_at: row.inserted_at.0,
        })
    }
}
