//! Projects (PostgreSQL).

use async_trait::async_trait;
use sqlx::postgres::PgRow;
use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use super::{page_sql, PgStore};
use crate::store::projects::{Project, ProjectDraft, ProjectMedia, ProjectStore};
use crate::store::{Instant, StoreResult};

const COLUMNS: &str = "id, title, description, open_from, inserted_at, updated_at";

fn project(row: &PgRow) -> StoreResult<Project> {
    Ok(Project {
        id: row.try_get("id")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        open_from: row.try_get("open_from")?,
        inserted_at: row.try_get("inserted_at")?,
        updated_at: row.try_get("updated_at")?,
        media: Vec::new(),
    })
}

async fn insert_media(
    tx: &mut Transaction<'_, Postgres>,
    id: Uuid,
    draft: &ProjectDraft,
) -> StoreResult<()> {
    sqlx::query("DELETE FROM project_media WHERE project_id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    for (position, m) in draft.media.iter().enumerate() {
        sqlx::query(
            "INSERT INTO project_media (id, project_id, public_url, original_filename, \
             media_type, position) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(Uuid::now_v7())
        .bind(id)
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
impl ProjectStore for PgStore {
    async fn projects(
        &self,
        after: Option<(Instant, Uuid)>,
        limit: u32,
    ) -> StoreResult<Vec<Project>> {
        // The cursor as the index scan's start (a separate statement, see `notifications`);
        // the page size a literal (`page_sql`).
        let after_cursor = if after.is_some() {
            "WHERE (open_from, id) < ($1, $2) "
        } else {
            ""
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM projects {after_cursor}ORDER BY open_from DESC, id DESC{}",
            page_sql(i64::from(limit), 0)
        );
        let mut query = sqlx::query(&sql);
        if let Some((open_from, id)) = after {
            query = query.bind(open_from).bind(id);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(project).collect()
    }

    async fn project(&self, id: Uuid) -> StoreResult<Option<Project>> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM projects WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let mut found = project(&row)?;
        let rows = sqlx::query(
            "SELECT id, public_url, original_filename, media_type FROM project_media \
             WHERE project_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        for row in &rows {
            found.media.push(ProjectMedia {
                id: row.try_get("id")?,
                public_url: row.try_get("public_url")?,
                original_filename: row.try_get("original_filename")?,
                media_type: row.try_get("media_type")?,
            });
        }
        Ok(Some(found))
    }

    async fn create_project(&self, draft: &ProjectDraft, now: Instant) -> StoreResult<Project> {
        let id = Uuid::now_v7();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO projects (id, title, description, open_from, inserted_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(&draft.title)
        .bind(&draft.description)
        .bind(draft.open_from)
        .bind(now)
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
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE projects SET title = $2, description = $3, open_from = $4, updated_at = $5 \
             WHERE id = $1",
        )
        .bind(id)
        .bind(&draft.title)
        .bind(&draft.description)
        .bind(draft.open_from)
        .bind(now)
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
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query("DELETE FROM projects WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query(
            "UPDATE vote_tokens SET revoked_at = $2 WHERE target_id = $1 AND revoked_at IS NULL",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}
