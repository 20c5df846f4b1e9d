//! SQLite backend (the embedded default). Instants are stored as INTEGER microseconds since the
//! Unix epoch so that SQL comparisons order them; UUIDs as hyphenated text.

use anyhow::Context as _;
use async_trait::async_trait;
use chrono::DateTime;
use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Sqlite, SqlitePool, Transaction};
use uuid::Uuid;

use super::{
    roles_json, ClientState, Instant, MessageFields, MessageStore, Row, StoreResult, StoredMessage,
};

const COLUMNS: &str =
    "m.id, m.client_id, m.title, m.text, m.kind, m.audience, m.roles, m.dismissible, \
                       m.valid_from, m.valid_to, m.created_at, m.updated_at";

pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

fn micros(t: Instant) -> i64 {
    t.timestamp_micros()
}

fn instant(micros: i64) -> anyhow::Result<Instant> {
    DateTime::from_timestamp_micros(micros).context("stored instant is out of range")
}

fn opt_instant(micros: Option<i64>) -> anyhow::Result<Option<Instant>> {
    micros.map(instant).transpose()
}

/// A message row as SQLite stores it: the id as text, instants as microseconds.
#[derive(FromRow)]
struct SqliteMessage {
    id: String,
    client_id: String,
    title: Option<String>,
    text: String,
    kind: String,
    audience: String,
    roles: String,
    dismissible: bool,
    valid_from: Option<i64>,
    valid_to: Option<i64>,
    created_at: i64,
    updated_at: i64,
}

impl SqliteMessage {
    fn into_row(self) -> anyhow::Result<Row> {
        Ok(Row {
            id: Uuid::parse_str(&self.id).context("stored id is not a UUID")?,
            client_id: self.client_id,
            title: self.title,
            text: self.text,
            kind: self.kind,
            audience: self.audience,
            roles: self.roles,
            dismissible: self.dismissible,
            valid_from: opt_instant(self.valid_from)?,
            valid_to: opt_instant(self.valid_to)?,
            created_at: instant(self.created_at)?,
            updated_at: instant(self.updated_at)?,
        })
    }
}

fn read_row(row: &SqliteRow) -> StoreResult<StoredMessage> {
    Ok(SqliteMessage::from_row(row)?.into_row()?.into_message()?)
}

/// The client's revision beside a message row of `client_state` (no message: `id` is NULL).
#[derive(FromRow)]
struct RevisionRow {
    revision: i64,
    id: Option<String>,
}

/// Increments the client's revision (creating the client row on its first write). The statement
/// writes first, so the transaction holds SQLite's write lock from its start.
async fn bump_revision(
    tx: &mut Transaction<'_, Sqlite>,
    client_id: &str,
    now: Instant,
) -> StoreResult<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO clients (client_id, revision, updated_at) VALUES (?1, 1, ?2) \
         ON CONFLICT (client_id) DO UPDATE SET revision = clients.revision + 1, updated_at = ?2 \
         RETURNING revision",
    )
    .bind(client_id)
    .bind(micros(now))
    .fetch_one(&mut **tx)
    .await
    .context("cannot increment the client revision")?)
}

#[async_trait]
impl MessageStore for SqliteStore {
    async fn create_message(
        &self,
        client_id: &str,
        id: Uuid,
        fields: &MessageFields,
        now: Instant,
    ) -> StoreResult<StoredMessage> {
        let mut tx = self.pool.begin().await?;
        bump_revision(&mut tx, client_id, now).await?;
        let window = &fields.targeting.window;
        sqlx::query(
            "INSERT INTO messages (id, client_id, title, text, kind, audience, roles, dismissible, \
             valid_from, valid_to, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
        )
        .bind(id.to_string())
        .bind(client_id)
        .bind(&fields.title)
        .bind(&fields.text)
        .bind(fields.kind.as_str())
        .bind(fields.targeting.audience.name())
        .bind(roles_json(fields))
        .bind(fields.dismissible)
        .bind(window.from().map(micros))
        .bind(window.to().map(micros))
        .bind(micros(now))
        .execute(&mut *tx)
        .await
        .context("cannot insert the message")?;
        tx.commit().await?;
        Ok(StoredMessage {
            id,
            client_id: client_id.to_owned(),
            fields: fields.clone(),
            created_at: now,
            updated_at: now,
        })
    }

    async fn update_message(
        &self,
        client_id: &str,
        id: Uuid,
        fields: &MessageFields,
        now: Instant,
    ) -> StoreResult<Option<StoredMessage>> {
        let mut tx = self.pool.begin().await?;
        bump_revision(&mut tx, client_id, now).await?;
        let window = &fields.targeting.window;
        let row = sqlx::query(&format!(
            "UPDATE messages AS m SET title = ?3, text = ?4, kind = ?5, audience = ?6, roles = ?7, \
             dismissible = ?8, valid_from = ?9, valid_to = ?10, updated_at = ?11 \
             WHERE m.client_id = ?1 AND m.id = ?2 RETURNING {}",
            COLUMNS.replace("m.", "")
        ))
        .bind(client_id)
        .bind(id.to_string())
        .bind(&fields.title)
        .bind(&fields.text)
        .bind(fields.kind.as_str())
        .bind(fields.targeting.audience.name())
        .bind(roles_json(fields))
        .bind(fields.dismissible)
        .bind(window.from().map(micros))
        .bind(window.to().map(micros))
        .bind(micros(now))
        .fetch_optional(&mut *tx)
        .await
        .context("cannot update the message")?;
        let Some(row) = row else {
            // Nothing changed: roll the revision increment back with the transaction.
            return Ok(None);
        };
        let message = read_row(&row)?;
        tx.commit().await?;
        Ok(Some(message))
    }

    async fn delete_message(&self, client_id: &str, id: Uuid, now: Instant) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        bump_revision(&mut tx, client_id, now).await?;
        let deleted = sqlx::query("DELETE FROM messages WHERE client_id = ?1 AND id = ?2")
            .bind(client_id)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await
            .context("cannot delete the message")?
            .rows_affected();
        if deleted == 0 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn get_message(&self, client_id: &str, id: Uuid) -> StoreResult<Option<StoredMessage>> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM messages m WHERE m.client_id = ?1 AND m.id = ?2"
        ))
        .bind(client_id)
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await
        .context("cannot read the message")?;
        row.as_ref().map(read_row).transpose()
    }

    async fn client_state(&self, client_id: &str) -> StoreResult<ClientState> {
        // One statement, so the revision and the messages come from the same snapshot.
        let rows = sqlx::query(&format!(
            "SELECT c.revision, {COLUMNS} FROM clients c LEFT JOIN messages m ON m.client_id = c.client_id \
             WHERE c.client_id = ?1 ORDER BY m.created_at DESC, m.id"
        ))
        .bind(client_id)
        .fetch_all(&self.pool)
        .await
        .context("cannot read the client's messages")?;
        let mut state = ClientState::default();
        for row in &rows {
            let revision = RevisionRow::from_row(row)?;
            state.revision = revision.revision;
            if revision.id.is_some() {
                state.messages.push(read_row(row)?);
            }
        }
        Ok(state)
    }

    async fn client_revision(&self, client_id: &str) -> StoreResult<i64> {
        let revision: Option<i64> =
            sqlx::query_scalar("SELECT revision FROM clients WHERE client_id = ?1")
                .bind(client_id)
                .fetch_optional(&self.pool)
                .await
                .context("cannot read the client's revision")?;
        Ok(revision.unwrap_or(0))
    }

    async fn all_client_ids(&self) -> StoreResult<Vec<String>> {
        Ok(
            sqlx::query_scalar("SELECT client_id FROM clients ORDER BY client_id")
                .fetch_all(&self.pool)
                .await
                .context("cannot list the clients")?,
        )
    }

    async fn clients_with_change_in(
        &self,
        after: Instant,
        upto: Instant,
    ) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT DISTINCT client_id FROM messages \
             WHERE (valid_from > ?1 AND valid_from <= ?2) OR (valid_to > ?1 AND valid_to <= ?2)",
        )
        .bind(micros(after))
        .bind(micros(upto))
        .fetch_all(&self.pool)
        .await
        .context("cannot find the clients with a window change")?)
    }

    async fn next_change_after(&self, t: Instant) -> StoreResult<Option<Instant>> {
        let next: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(b) FROM (SELECT MIN(valid_from) AS b FROM messages WHERE valid_from > ?1 \
             UNION ALL SELECT MIN(valid_to) FROM messages WHERE valid_to > ?1)",
        )
        .bind(micros(t))
        .fetch_one(&self.pool)
        .await
        .context("cannot find the next window change")?;
        Ok(opt_instant(next)?)
    }
}
