//! The composition of the stores: every table group's trait served by the backend of the
//! database the service opened (PostgreSQL or SQLite, by the URL's scheme).

use std::sync::Arc;

use service_kit::db::Database;

use crate::store::{self, CategoryStore, IssueStore, ReportStore, StoreOptions};

/// Every store of the service over one database.
#[derive(Clone)]
pub struct Stores {
    pub categories: Arc<dyn CategoryStore>,
    pub reports: Arc<dyn ReportStore>,
    pub issues: Arc<dyn IssueStore>,
    pub votes: Arc<dyn store::votes::VoteStore>,
    pub news: Arc<dyn store::news::NewsStore>,
    pub projects: Arc<dyn store::projects::ProjectStore>,
    pub admin: Arc<dyn store::admin::AdminStore>,
    pub duplicates: Arc<dyn store::admin::DuplicateStore>,
    pub notifications: Arc<dyn store::notifications::NotificationStore>,
    pub status_events: Arc<dyn store::status_events::StatusEventStore>,
    pub deliveries: Arc<dyn store::deliveries::DeliveryStore>,
    pub digests: Arc<dyn store::digests::DigestStore>,
    pub privacy: Arc<dyn store::privacy::PrivacyStore>,
    pub uploads: Arc<dyn store::uploads::UploadStore>,
    pub idempotency: Arc<dyn store::idempotency::IdempotencyStore>,
    pub requests: Arc<dyn store::open311::RequestStore>,
    pub stats: Arc<dyn store::stats::StatsStore>,
    pub reply_templates: Arc<dyn store::reply_templates::ReplyTemplateStore>,
}

/// The stores for an opened database, with the default [`StoreOptions`].
pub fn for_database(db: &Database) -> Stores {
    for_database_with(db, StoreOptions::default())
}

/// The stores for an opened database.
pub fn for_database_with(db: &Database, options: StoreOptions) -> Stores {
    match db {
        Database::Postgres(pool) => of_backend(Arc::new(store::backends::PgStore::new(
            pool.clone(),
            options,
        ))),
        Database::Sqlite(pool) => {
            of_backend(Arc::new(store::backends::SqliteStore::new(pool.clone())))
        }
    }
}

/// Every table group served by one backend.
fn of_backend<B>(backend: Arc<B>) -> Stores
where
    B: CategoryStore
        + ReportStore
        + IssueStore
        + store::votes::VoteStore
        + store::news::NewsStore
        + store::projects::ProjectStore
        + store::admin::AdminStore
        + store::admin::DuplicateStore
        + store::notifications::NotificationStore
        + store::status_events::StatusEventStore
        + store::deliveries::DeliveryStore
        + store::digests::DigestStore
        + store::privacy::PrivacyStore
        + store::uploads::UploadStore
        + store::idempotency::IdempotencyStore
        + store::open311::RequestStore
        + store::stats::StatsStore
        + store::reply_templates::ReplyTemplateStore,
{
    Stores {
        categories: backend.clone(),
        reports: backend.clone(),
        issues: backend.clone(),
        votes: backend.clone(),
        news: backend.clone(),
        admin: backend.clone(),
        duplicates: backend.clone(),
        projects: backend.clone(),
        deliveries: backend.clone(),
        digests: backend.clone(),
        notifications: backend.clone(),
        privacy: backend.clone(),
        uploads: backend.clone(),
        idempotency: backend.clone(),
        requests: backend.clone(),
        stats: backend.clone(),
        reply_templates: backend.clone(),
        status_events: backend,
    }
}
