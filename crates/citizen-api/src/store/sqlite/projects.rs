//! Projects (SQLite).

use async_trait::async_trait;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, Sqlite, Transaction};
use uuid::Uuid;

use super::{get_instant, get_opt_instant, get_uuid, micros, SqliteStore};
use crate::store::projects::{Project, ProjectDraft, ProjectMedia, ProjectStore};
use crate::store::{Instant, StoreResult};

const COLUMNS: &str = "id, title, description, open_from, inserted_at, updated_at";

fn project(row: &SqliteRow) -> StoreResult<Project> {
    Ok(Project {
        id: get_uuid(row, "id")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        open_from: get_instant(row, "open_from")?,
        inserted_at: get_instant(row, "inserted_at")?,
        updated_at: get_opt_instant(row, "updated_at")?,
        media: Vec::new(),
    })
}

async fn insert_media(
    tx: &mut Transaction<'_, Sqlite>,
    id: Uuid,
    draft: &ProjectDraft,
) -> StoreResult<()> {
    sqlx::query("DELETE FROM project_media WHERE project_id = ?1")
        .bind(id.to_string())
        .execute(&mut **tx)
        .await?;
    for (position, m) in draft.media.iter().enumerate() {
        sqlx::query(
            "INSERT INTO project_media (id, project_id, public_url, original_filename, \
             media_type, position) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(Uuid::now_v7().to_string())
        .bind(id.to_string())
        .bind(&m.public_url)
        .bind(&m.original_filename)
        .bind(&m.media_type)
        .bind(i32::try_from(position).unwrap_or(i32::MAX))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

#[async_trait]
impl ProjectStore for SqliteStore {
    async fn projects(
        &self,
        after: Option<(Instant, Uuid)>,
        limit: u32,
    ) -> StoreResult<Vec<Project>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM projects \
             WHERE ?1 IS NULL OR open_from < ?1 OR (open_from = ?1 AND id < ?2) \
             ORDER BY open_from DESC, id DESC LIMIT ?3"
        ))
        .bind(after.map(|a| micros(a.0)))
        .bind(after.map(|a| a.1.to_string()))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(project).collect()
    }

    async fn project(&self, id: Uuid) -> StoreResult<Option<Project>> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM projects WHERE id = ?1"))
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let mut found = project(&row)?;
        let rows = sqlx::query(
            "SELECT id, public_url, original_filename, media_type FROM project_media \
             WHERE project_id = ?1 ORDER BY position",
        )
        .bind(id.to_string())
        .fetch_all(&self.pool)
        .await?;
        for row in &rows {
            found.media.push(ProjectMedia {
                id: get_uuid(row, "id")?,
                public_url: row.try_get("public_url")?,
                original_filename: row.try_get("original_filename")?,
                media_type: row.try_get("media_type")?,
            });
        }
        Ok(Some(found))
    }

    async fn create_project(&self, draft: &ProjectDraft, now: Instant) -> StoreResult<Project> {
        let id = Uuid::now_v7();
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "INSERT INTO projects (id, title, description, open_from, inserted_at) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .bind(id.to_string())
        .bind(&draft.title)
        .bind(&draft.description)
        .bind(micros(draft.open_from))
        .bind(micros(now))
        .execute(&mut *tx)
        .await?;
        insert_media(&mut tx, id, draft).await?;
        tx.commit().await?;
        self.project(id)
            .await?
            .ok_or(crate::store::StoreError::NotFound)
    }

    async fn update_project(
        &self,
        id: Uuid,
        draft: &ProjectDraft,
        now: Instant,
    ) -> StoreResult<Option<Project>> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let done = sqlx::query(
            "UPDATE projects SET title = ?2, description = ?3, open_from = ?4, updated_at = ?5 \
             WHERE id = ?1",
        )
        .bind(id.to_string())
        .bind(&draft.title)
        .bind(&draft.description)
        .bind(micros(draft.open_from))
        .bind(micros(now))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(None);
        }
        insert_media(&mut tx, id, draft).await?;
        tx.commit().await?;
        self.project(id).await
    }

    async fn delete_project(&self, id: Uuid, now: Instant) -> StoreResult<bool> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let done = sqlx::query("DELETE FROM projects WHERE id = ?1")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query(
            "UPDATE vote_tokens SET revoked_at = ?2 WHERE target_id = ?1 AND revoked_at IS NULL",
        )
        .bind(id.to_string())
        .bind(micros(now))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}
