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
    pub notifications: Arc<dyn store::notifications::NotificationStore>,
    pub status_events: Arc<dyn store::status_events::StatusEventStore>,
    pub deliveries: Arc<dyn store::deliveries::DeliveryStore>,
    pub digests: Arc<dyn store::digests::DigestStore>,
}

/// The stores for an opened database, with the default [`StoreOptions`].
pub fn for_database(db: &Database) -> Stores {
    for_database_with(db, StoreOptions::default())
}

/// The stores for an opened database.
pub fn for_database_with(db: &Database, options: StoreOptions) -> Stores {
    match db {
        Database::Postgres(pool) => {
            let store = Arc::new(store::postgres::PgStore::new(pool.clone(), options));
            Stores {
                categories: store.clone(),
                reports: store.clone(),
                issues: store.clone(),
                votes: store.clone(),
                news: store.clone(),
                admin: store.clone(),
                projects: store.clone(),
                deliveries: store.clone(),
                digests: store.clone(),
                notifications: store.clone(),
                status_events: store,
            }
        }
        Database::Sqlite(pool) => {
            let store = Arc::new(store::sqlite::SqliteStore::new(pool.clone()));
            Stores {
                categories: store.clone(),
                reports: store.clone(),
                issues: store.clone(),
                votes: store.clone(),
                news: store.clone(),
                admin: store.clone(),
                projects: store.clone(),
                deliveries: store.clone(),
                digests: store.clone(),
                notifications: store.clone(),
                status_events: store,
            }
        }
    }
}
