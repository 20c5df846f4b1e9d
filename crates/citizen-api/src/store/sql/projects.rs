//! Projects.

use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::projects::{Project, ProjectDraft, ProjectStore};
use crate::store::{Instant, StoreError, StoreResult};

const COLUMNS: &str = "id, title, description, open_from, inserted_at, updated_at";

/// The page of projects after the cursor: the cursor is the index scan's start (a separate
/// statement, see `notifications`), the page size a literal (`page_sql`).
fn page_statement(after: bool, limit: u32) -> String {
    let after_cursor = if after {
        "WHERE (open_from, id) < ($1, $2) "
    } else {
        ""
    };
    format!("SELECT {COLUMNS} FROM projects {after_cursor}ORDER BY open_from DESC, id DESC LIMIT {limit}")
}

both_backends! {
    impl Backend {
        /// Writes the project `id` with `statement` (an insert or an update binding the id, the
        /// draft's title, description and opening, and `now`) and replaces its media: the project
        /// as written, `None` when the statement touched no row.
        async fn write_project(
            &self,
            statement: &str,
            id: Uuid,
            draft: &ProjectDraft,
            now: Instant,
        ) -> StoreResult<Option<Project>> {
            let mut tx = self.begin_write().await?;
            let done = sqlx::query(statement)
                .bind(DbUuid(id))
                .bind(&draft.title)
                .bind(&draft.description)
                .bind(DbInstant(draft.open_from))
                .bind(DbInstant(now))
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            Self::replace_media(&mut tx, id, draft).await?;
            tx.commit().await?;
            self.project(id).await
        }

        /// Replaces the project's media with the draft's, in the draft's order.
        async fn replace_media(tx: &mut Tx<'_>, id: Uuid, draft: &ProjectDraft) -> StoreResult<()> {
            sqlx::query("DELETE FROM project_media WHERE project_id = $1")
                .bind(DbUuid(id))
                .execute(&mut **tx)
                .await?;
            for (position, m) in draft.media.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO project_media (id, project_id, public_url, original_filename, \
                     media_type, position) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(DbUuid(Uuid::now_v7()))
                .bind(DbUuid(id))
                .bind(&m.public_url)
                .bind(&m.original_filename)
                .bind(&m.media_type)
                .bind(i32::try_from(position).unwrap_or(i32::MAX))
                .execute(&mut **tx)
                .await?;
            }
            Ok(())
        }
    }

    #[async_trait]
    impl ProjectStore for Backend {
        async fn projects(
            &self,
            after: Option<(Instant, Uuid)>,
            limit: u32,
        ) -> StoreResult<Vec<Project>> {
            let sql = page_statement(after.is_some(), limit);
            let mut query = sqlx::query_as::<_, Project>(&sql);
            if let Some((open_from, id)) = after {
                query = query.bind(DbInstant(open_from)).bind(DbUuid(id));
            }
            Ok(query.fetch_all(&self.pool).await?)
        }

        async fn project(&self, id: Uuid) -> StoreResult<Option<Project>> {
            let found: Option<Project> =
                sqlx::query_as(&format!("SELECT {COLUMNS} FROM projects WHERE id = $1"))
                    .bind(DbUuid(id))
                    .fetch_optional(&self.pool)
                    .await?;
            let Some(mut found) = found else {
                return Ok(None);
            };
            found.media = sqlx::query_as(
                "SELECT id, public_url, original_filename, media_type FROM project_media \
                 WHERE project_id = $1 ORDER BY position",
            )
            .bind(DbUuid(id))
            .fetch_all(&self.pool)
            .await?;
            Ok(Some(found))
        }

        async fn create_project(&self, draft: &ProjectDraft, now: Instant) -> StoreResult<Project> {
            let insert = "INSERT INTO projects (id, title, description, open_from, inserted_at) \
                          VALUES ($1, $2, $3, $4, $5)";
            let created = self.write_project(insert, Uuid::now_v7(), draft, now);
            created.await?.ok_or(StoreError::NotFound)
        }

        async fn update_project(
            &self,
            id: Uuid,
            draft: &ProjectDraft,
            now: Instant,
        ) -> StoreResult<Option<Project>> {
            let update = "UPDATE projects SET title = $2, description = $3, open_from = $4, \
                          updated_at = $5 WHERE id = $1";
            self.write_project(update, id, draft, now).await
        }

        async fn delete_project(&self, id: Uuid, now: Instant) -> StoreResult<bool> {
            let mut tx = self.begin_write().await?;
            let done = sqlx::query("DELETE FROM projects WHERE id = $1")
                .bind(DbUuid(id))
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(false);
            }
            sqlx::query(
                "UPDATE vote_tokens SET revoked_at = $2 WHERE target_id = $1 AND revoked_at IS NULL",
            )
            .bind(DbUuid(id))
            .bind(DbInstant(now))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        }
    }
}
