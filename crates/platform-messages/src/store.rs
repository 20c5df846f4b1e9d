//! Storage of messages and per-client revisions, behind one trait with a PostgreSQL and a SQLite
//! backend (chosen by the database URL scheme).

mod cache;
mod postgres;
mod sql;
mod sqlite;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use domain::messages::{Audience, Kind, Targeting, Version, Window};
use service_kit::codec::{DbInstant, DbUuid};
use service_kit::db::{Database, Migrations};
pub use service_kit::store_error::{StoreError, StoreResult};
use uuid::Uuid;

pub use cache::{CacheSettings, CacheStats, ClientCache};
pub use postgres::PgStore;
pub use sqlite::SqliteStore;

/// PostgreSQL schema owned by this service.
pub const SCHEMA: &str = "platform_messages";

/// The embedded migrations of both dialects.
pub fn migrations() -> Migrations<'static> {
    service_kit::embedded_migrations! {
        schema: SCHEMA,
        postgres: "../../migrations/platform-messages/postgres",
        sqlite: "../../migrations/platform-messages/sqlite",
        extensions: &[],
    }
}

/// An instant as the service handles it.
pub type Instant = DateTime<Utc>;

/// The fields of a message an operator writes (already validated).
#[derive(Debug, Clone, PartialEq)]
pub struct MessageFields {
    pub title: Option<String>,
    pub text: String,
    pub kind: Kind,
    pub dismissible: bool,
    pub targeting: Targeting<Instant>,
}

/// A stored message.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    pub id: Uuid,
    pub client_id: String,
    pub fields: MessageFields,
    pub created_at: Instant,
    pub updated_at: Instant,
}

/// Everything the version of a client depends on: its revision and all its stored messages
/// (newest first), including those outside their window.
#[derive(Debug, Clone, Default)]
pub struct ClientState {
    pub revision: i64,
    pub messages: Vec<StoredMessage>,
}

impl ClientState {
    /// The client's version fingerprint at `t`.
    pub fn version_at(&self, t: Instant) -> Version {
        Version::at(self.revision, self.windows(), t)
    }

    /// The next window start or end strictly after `t`.
    pub fn next_change_after(&self, t: Instant) -> Option<Instant> {
        domain::messages::next_change_at(self.windows(), t)
    }

    fn windows(&self) -> impl Iterator<Item = &Window<Instant>> {
        self.messages.iter().map(|m| &m.fields.targeting.window)
    }
}

/// Message storage in domain terms. Every write increments the client's revision in the same
/// transaction and returns the new revision. Failures are [`StoreError`]s: an unreachable or
/// restarting database is `Unavailable` (503 in the API, a retry in the background workers).
#[async_trait]
pub trait MessageStore: Send + Sync + 'static {
    /// Stores a new message; `now` becomes its `created_at` and `updated_at`.
    async fn create_message(
        &self,
        client_id: &str,
        id: Uuid,
        fields: &MessageFields,
        now: Instant,
    ) -> StoreResult<StoredMessage>;

    /// Replaces the fields of a message; `None` when the client has no such message.
    async fn update_message(
        &self,
        client_id: &str,
        id: Uuid,
        fields: &MessageFields,
        now: Instant,
    ) -> StoreResult<Option<StoredMessage>>;

    /// Deletes a message; `false` when the client has no such message.
    async fn delete_message(&self, client_id: &str, id: Uuid, now: Instant) -> StoreResult<bool>;

    /// One message of a client.
    async fn get_message(&self, client_id: &str, id: Uuid) -> StoreResult<Option<StoredMessage>>;

    /// The revision and all messages of a client, read in one consistent snapshot. A client that
    /// never had a message has revision 0 and no messages.
    async fn client_state(&self, client_id: &str) -> StoreResult<ClientState>;

    /// The client's revision alone (0 for a client that never had a message): the cheap check
    /// whether a cached [`ClientState`] is still current.
    async fn client_revision(&self, client_id: &str) -> StoreResult<i64>;

    /// Every client that ever had a message (for the republish after a broker reconnect).
    async fn all_client_ids(&self) -> StoreResult<Vec<String>>;

    /// Clients with a window start or end in `(after, upto]`.
    async fn clients_with_change_in(
        &self,
        after: Instant,
        upto: Instant,
    ) -> StoreResult<Vec<String>>;

    /// The earliest window start or end of any client strictly after `t`.
    async fn next_change_after(&self, t: Instant) -> StoreResult<Option<Instant>>;
}

/// The store for an opened database.
pub fn for_database(db: &Database) -> std::sync::Arc<dyn MessageStore> {
    match db {
        Database::Postgres(pool) => std::sync::Arc::new(PgStore::new(pool.clone())),
        Database::Sqlite(pool) => std::sync::Arc::new(SqliteStore::new(pool.clone())),
    }
}

/// A message row as both backends read it (`service_kit::codec` decodes each one's stored
/// forms), before conversion into a [`StoredMessage`].
#[derive(sqlx::FromRow)]
struct Row {
    id: DbUuid,
    client_id: String,
    title: Option<String>,
    text: String,
    kind: String,
    audience: String,
    roles: String,
    dismissible: bool,
    valid_from: Option<DbInstant>,
    valid_to: Option<DbInstant>,
    created_at: DbInstant,
    updated_at: DbInstant,
}

impl Row {
    fn into_message(self) -> anyhow::Result<StoredMessage> {
        use anyhow::Context as _;
        let roles: Vec<String> =
            serde_json::from_str(&self.roles).context("stored roles are not a JSON array")?;
        let audience =
            Audience::from_parts(&self.audience, roles).context("stored audience is invalid")?;
        let window = Window::new(self.valid_from.map(|at| at.0), self.valid_to.map(|at| at.0))
            .context("stored window is invalid")?;
        Ok(StoredMessage {
            id: self.id.0,
            client_id: self.client_id,
            fields: MessageFields {
                title: self.title,
                text: self.text,
                kind: self.kind.parse().context("stored kind is invalid")?,
                dismissible: self.dismissible,
                targeting: Targeting { audience, window },
            },
            created_at: self.created_at.0,
            updated_at: self.updated_at.0,
        })
    }
}

/// The roles of a message as stored (a JSON array).
fn roles_json(fields: &MessageFields) -> String {
    serde_json::Value::from(fields.targeting.audience.roles().to_vec()).to_string()
}
