//! The message store, written once for both backends: its statements are plain SQL both
//! databases run, ids and instants go through `service_kit::codec` (SQLite keeps its hyphenated
//! text and INTEGER microseconds), and [`service_kit::both_backends!`] compiles the body for
//! [`PgStore`] and [`SqliteStore`]. A write takes SQLite's write lock with its first statement
//! (`bump_revision` writes) and PostgreSQL's row lock on the client.

use anyhow::Context as _;
use async_trait::async_trait;
use service_kit::codec::{DbInstant, DbUuid};
use sqlx::FromRow;
use uuid::Uuid;

use super::{
    roles_json, ClientState, Instant, MessageFields, MessageStore, PgStore, Row, SqliteStore,
    StoreResult, StoredMessage,
};

/// The message columns of a [`Row`]; `UPDATE … RETURNING` takes them without the table's name
/// (SQLite does not qualify them).
const COLUMNS: &str =
    "m.id, m.client_id, m.title, m.text, m.kind, m.audience, m.roles, m.dismissible, \
     m.valid_from, m.valid_to, m.created_at, m.updated_at";

fn read_row<'r, R: sqlx::Row>(row: &'r R) -> StoreResult<StoredMessage>
where
    Row: FromRow<'r, R>,
{
    Ok(Row::from_row(row)?.into_message()?)
}

/// The client's revision beside a message row of `client_state` (no message: `id` is NULL).
#[derive(FromRow)]
struct RevisionRow {
    revision: i64,
    id: Option<DbUuid>,
}

service_kit::both_backends! {
    PgStore, SqliteStore;
    impl Backend {
        /// Increments the client's revision (creating the client row on its first write); the
        /// statement writes, so it takes SQLite's write lock, and on PostgreSQL the client row's
        /// lock serialises concurrent writers of one client until the transaction ends.
        async fn bump_revision(tx: &mut Tx<'_>, client_id: &str, now: Instant) -> StoreResult<i64> {
            Ok(sqlx::query_scalar(
                "INSERT INTO clients (client_id, revision, updated_at) VALUES ($1, 1, $2) \
                 ON CONFLICT (client_id) DO UPDATE SET revision = clients.revision + 1, \
                 updated_at = $2 RETURNING revision",
            )
            .bind(client_id)
            .bind(DbInstant(now))
            .fetch_one(&mut **tx)
            .await
            .context("cannot increment the client revision")?)
        }

        /// `sql` with a message bound to its placeholders: `$1` the id, `$2` the client, `$3` to
        /// `$10` the fields in the order of the table's columns and `$11` the write's instant,
        /// so that the `INSERT` and the `UPDATE` of a message share their values.
        fn bind_message<'q>(
            sql: &'q str,
            id: Uuid,
            client_id: &'q str,
            fields: &'q MessageFields,
            now: Instant,
        ) -> sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>> {
            let window = &fields.targeting.window;
            sqlx::query(sql)
                .bind(DbUuid(id))
                .bind(client_id)
                .bind(&fields.title)
                .bind(&fields.text)
                .bind(fields.kind.as_str())
                .bind(fields.targeting.audience.name())
                .bind(roles_json(fields))
                .bind(fields.dismissible)
                .bind(window.from().map(DbInstant))
                .bind(window.to().map(DbInstant))
                .bind(DbInstant(now))
        }
    }

    #[async_trait]
    impl MessageStore for Backend {
        async fn create_message(
            &self,
            client_id: &str,
            id: Uuid,
            fields: &MessageFields,
            now: Instant,
        ) -> StoreResult<StoredMessage> {
            let mut tx = self.pool.begin().await?;
            Backend::bump_revision(&mut tx, client_id, now).await?;
            Backend::bind_message(
                "INSERT INTO messages (id, client_id, title, text, kind, audience, roles, dismissible, \
                 valid_from, valid_to, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)",
                id,
                client_id,
                fields,
                now,
            )
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
            Backend::bump_revision(&mut tx, client_id, now).await?;
            let sql = format!(
                "UPDATE messages SET title = $3, text = $4, kind = $5, audience = $6, roles = $7, \
                 dismissible = $8, valid_from = $9, valid_to = $10, updated_at = $11 \
                 WHERE id = $1 AND client_id = $2 RETURNING {}",
                COLUMNS.replace("m.", "")
            );
            let row = Backend::bind_message(&sql, id, client_id, fields, now)
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

        async fn delete_message(
            &self,
            client_id: &str,
            id: Uuid,
            now: Instant,
        ) -> StoreResult<bool> {
            let mut tx = self.pool.begin().await?;
            Backend::bump_revision(&mut tx, client_id, now).await?;
            let deleted = sqlx::query("DELETE FROM messages WHERE client_id = $1 AND id = $2")
                .bind(client_id)
                .bind(DbUuid(id))
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

        async fn get_message(
            &self,
            client_id: &str,
            id: Uuid,
        ) -> StoreResult<Option<StoredMessage>> {
            let row = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM messages m WHERE m.client_id = $1 AND m.id = $2"
            ))
            .bind(client_id)
            .bind(DbUuid(id))
            .fetch_optional(&self.pool)
            .await
            .context("cannot read the message")?;
            row.as_ref().map(read_row).transpose()
        }

        async fn client_state(&self, client_id: &str) -> StoreResult<ClientState> {
            // One statement, so the revision and the messages come from the same snapshot.
            let rows = sqlx::query(&format!(
                "SELECT c.revision, {COLUMNS} FROM clients c LEFT JOIN messages m ON m.client_id = c.client_id \
                 WHERE c.client_id = $1 ORDER BY m.created_at DESC, m.id"
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
                sqlx::query_scalar("SELECT revision FROM clients WHERE client_id = $1")
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
                 WHERE (valid_from > $1 AND valid_from <= $2) OR (valid_to > $1 AND valid_to <= $2)",
            )
            .bind(DbInstant(after))
            .bind(DbInstant(upto))
            .fetch_all(&self.pool)
            .await
            .context("cannot find the clients with a window change")?)
        }

        async fn next_change_after(&self, t: Instant) -> StoreResult<Option<Instant>> {
            let next: Option<DbInstant> = sqlx::query_scalar(
                "SELECT MIN(b) FROM (SELECT MIN(valid_from) AS b FROM messages WHERE valid_from > $1 \
                 UNION ALL SELECT MIN(valid_to) FROM messages WHERE valid_to > $1) AS boundaries",
            )
            .bind(DbInstant(t))
            .fetch_one(&self.pool)
            .await
            .context("cannot find the next window change")?;
            Ok(next.map(|at| at.0))
        }
    }
}
