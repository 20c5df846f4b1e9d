//! Reading statements with their media (PostgreSQL).

use std::collections::HashMap;

use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::rows::media;
use crate::store::{Media, Statement, StoreResult};

/// Statements matching `condition` (with `$1` bound to `arg`), each with its media.
pub(super) async fn statements(
    pool: &PgPool,
    condition: &str,
    arg: Uuid,
) -> StoreResult<Vec<Statement>> {
    let rows = sqlx::query(&format!(
        "SELECT s.id, s.issue_id, s.text, s.final, s.author, s.inserted_at FROM statements s \
         WHERE {condition} ORDER BY s.inserted_at, s.id"
    ))
    .bind(arg)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(Statement {
            id: row.try_get("id")?,
            issue_id: row.try_get("issue_id")?,
            text: row.try_get("text")?,
            final_: row.try_get("final")?,
            author: row.try_get("author")?,
            inserted_at: row.try_get("inserted_at")?,
            media: Vec::new(),
        });
    }
    let ids: Vec<Uuid> = out.iter().map(|s| s.id).collect();
    let media_rows = sqlx::query(
        "SELECT id, statement_id, filename, media_type, size_bytes FROM media \
         WHERE statement_id = ANY($1) ORDER BY statement_id, position",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    let mut by_statement: HashMap<Uuid, Vec<Media>> = HashMap::new();
    for row in &media_rows {
        by_statement
            .entry(row.try_get("statement_id")?)
            .or_default()
            .push(media(row)?);
    }
    for statement in &mut out {
        statement.media = by_statement.remove(&statement.id).unwrap_or_default();
    }
    Ok(out)
}
