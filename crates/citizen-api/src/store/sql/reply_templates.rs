//! Reply templates, the same statements on both backends: the list through the categories'
//! names, and a change of templates as the primitives `app::reply_templates` runs in one
//! transaction (`Backend::FOR_UPDATE`: PostgreSQL's row locks; SQLite holds its write lock from
//! `BEGIN IMMEDIATE` on).

use anyhow::Context as _;
use async_trait::async_trait;
use domain::reply_templates::{AppliesOn, Texts};
use sqlx::QueryBuilder;
use uuid::Uuid;

use super::{DbInstant, DbUuid, Writing};
use crate::store::reply_templates::{ReplyTemplate, ReplyTemplateStore, ReplyTemplateTx};
use crate::store::{StoreError, StoreResult};

const COLUMNS: &str = "t.id, t.category_id, t.title, t.text_cs, t.text_en, t.text_uk, \
     t.applies_on, t.inserted_at, t.updated_at";

#[derive(sqlx::FromRow)]
struct TemplateRecord {
    id: DbUuid,
    category_id: DbUuid,
    title: String,
    text_cs: Option<String>,
    text_en: Option<String>,
    text_uk: Option<String>,
    applies_on: Option<String>,
    inserted_at: DbInstant,
    updated_at: DbInstant,
}

impl TryFrom<TemplateRecord> for ReplyTemplate {
    type Error = StoreError;

    fn try_from(row: TemplateRecord) -> Result<Self, StoreError> {
        let applies_on = row
            .applies_on
            .as_deref()
            .map(AppliesOn::parse)
            .transpose()
            .context("reply_templates.applies_on")
            .map_err(StoreError::other)?;
        Ok(ReplyTemplate {
            id: row.id.0,
            category_id: row.category_id.0,
            title: row.title,
            texts: Texts {
                cs: row.text_cs,
                en: row.text_en,
                uk: row.text_uk,
            },
            applies_on,
            inserted_at: row.inserted_at.0,
            updated_at: row.updated_at.0,
        })
    }
}

fn templates(rows: Vec<TemplateRecord>) -> StoreResult<Vec<ReplyTemplate>> {
    rows.into_iter().map(ReplyTemplate::try_from).collect()
}

both_backends! {
    #[async_trait]
    impl ReplyTemplateStore for Backend {
        async fn reply_templates(
            &self,
            categories: Option<&[Uuid]>,
        ) -> StoreResult<Vec<ReplyTemplate>> {
            let mut q = QueryBuilder::<Db>::new(format!(
                "SELECT {COLUMNS} FROM reply_templates t \
                 JOIN report_categories c ON c.id = t.category_id WHERE TRUE"
            ));
            if let Some(ids) = categories {
                q.push(" AND t.category_id");
                Backend::push_ids(&mut q, ids);
            }
            q.push(" ORDER BY c.name, c.id, t.title, t.id");
            templates(q.build_query_as().fetch_all(&self.pool).await?)
        }

        async fn begin_template_change(&self) -> StoreResult<Box<dyn ReplyTemplateTx>> {
            Ok(Box::new(Writing(self.begin_write().await?)))
        }
    }

    #[async_trait]
    impl ReplyTemplateTx for Writing<Db> {
        async fn lock_template_category(&mut self, category_id: Uuid) -> StoreResult<bool> {
            let found: Option<DbUuid> = sqlx::query_scalar(&format!(
                "SELECT id FROM report_categories WHERE id = $1{}",
                Backend::FOR_UPDATE
            ))
            .bind(DbUuid(category_id))
            .fetch_optional(&mut *self.0)
            .await?;
            Ok(found.is_some())
        }

        async fn count_templates(&mut self, category_id: Uuid) -> StoreResult<u64> {
            let n: i64 =
                sqlx::query_scalar("SELECT count(*) FROM reply_templates WHERE category_id = $1")
                    .bind(DbUuid(category_id))
                    .fetch_one(&mut *self.0)
                    .await?;
            Ok(u64::try_from(n).unwrap_or(0))
        }

        async fn lock_template(&mut self, id: Uuid) -> StoreResult<Option<ReplyTemplate>> {
            let row: Option<TemplateRecord> = sqlx::query_as(&format!(
                "SELECT {COLUMNS} FROM reply_templates t WHERE t.id = $1{}",
                Backend::FOR_UPDATE
            ))
            .bind(DbUuid(id))
            .fetch_optional(&mut *self.0)
            .await?;
            row.map(ReplyTemplate::try_from).transpose()
        }

        async fn insert_template(&mut self, template: &ReplyTemplate) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO reply_templates (id, category_id, title, text_cs, text_en, \
                 text_uk, applies_on, inserted_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(DbUuid(template.id))
            .bind(DbUuid(template.category_id))
            .bind(&template.title)
            .bind(template.texts.cs.as_deref())
            .bind(template.texts.en.as_deref())
            .bind(template.texts.uk.as_deref())
            .bind(template.applies_on.map(AppliesOn::as_str))
            .bind(DbInstant(template.inserted_at))
            .bind(DbInstant(template.updated_at))
            .execute(&mut *self.0)
            .await?;
            Ok(())
        }

        async fn update_template(&mut self, template: &ReplyTemplate) -> StoreResult<()> {
            sqlx::query(
                "UPDATE reply_templates SET title = $2, text_cs = $3, text_en = $4, \
                 text_uk = $5, applies_on = $6, updated_at = $7 WHERE id = $1",
            )
            .bind(DbUuid(template.id))
            .bind(&template.title)
            .bind(template.texts.cs.as_deref())
            .bind(template.texts.en.as_deref())
            .bind(template.texts.uk.as_deref())
            .bind(template.applies_on.map(AppliesOn::as_str))
            .bind(DbInstant(template.updated_at))
            .execute(&mut *self.0)
            .await?;
            Ok(())
        }

        async fn delete_template(&mut self, id: Uuid) -> StoreResult<()> {
            sqlx::query("DELETE FROM reply_templates WHERE id = $1")
                .bind(DbUuid(id))
                .execute(&mut *self.0)
                .await?;
            Ok(())
        }
    }
}
