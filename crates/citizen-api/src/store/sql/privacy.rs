//! A subject's data on both backends: the reads an export adds to the other stores', the export's
//! link, the retention sweep's batches, and erasure's primitives in one writing transaction
//! (`Backend::FOR_UPDATE` locks rows on PostgreSQL; SQLite holds its write lock from
//! `BEGIN IMMEDIATE` on). An erasure starts with `begin_erasing`: the writers that fan out to
//! subjects (`begin_fan_out`) are kept out until it ends, and it waits for those running.

use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid, Writing};
use crate::store::privacy::{
    DataExport, EmailSubscription, ErasureTx, PrivacyStore, PushSubscription,
};
use crate::store::{Instant, StoreResult};

const EXPORT_COLUMNS: &str = "subject, token, requested_at, expires_at";

both_backends! {
    impl Backend {
        /// Runs one batch of the retention sweep: `sql` with the instant `$1` and the batch's
        /// size `$2`; the rows it changed.
        async fn sweep(&self, sql: &str, at: Instant, limit: u32) -> StoreResult<u64> {
            let changed = sqlx::query(sql)
                .bind(DbInstant(at))
                .bind(i64::from(limit))
                .execute(&self.pool)
                .await?;
            Ok(changed.rows_affected())
        }

        /// The export whose `column` is `value`, unless expired at `now`.
        async fn unexpired_export(
            &self,
            column: &str,
            value: &str,
            now: Instant,
        ) -> StoreResult<Option<DataExport>> {
            Ok(sqlx::query_as(&format!(
                "SELECT {EXPORT_COLUMNS} FROM data_exports WHERE {column} = $1 AND expires_at > $2"
            ))
            .bind(value)
            .bind(DbInstant(now))
            .fetch_optional(&self.pool)
            .await?)
        }
    }

    impl Writing<Db> {
        /// Runs each of `statements` with `binds` (`$1`, `$2`, …): the rows they changed.
        async fn changed(&mut self, statements: &[&str], binds: &[&str]) -> StoreResult<u64> {
            let mut n = 0;
            for sql in statements {
                let mut q = sqlx::query(sql);
                for value in binds {
                    q = q.bind(*value);
                }
                n += q.execute(&mut *self.0).await?.rows_affected();
            }
            Ok(n)
        }

        /// Locks the rows `select` (a `SELECT` of `$1`) reads, on PostgreSQL; SQLite's
        /// transaction holds the database's write lock already.
        async fn lock_rows(&mut self, select: &str, subject: &str) -> StoreResult<()> {
            sqlx::query(&format!("{select}{}", Backend::FOR_UPDATE))
                .bind(subject)
                .fetch_all(&mut *self.0)
                .await?;
            Ok(())
        }
    }

    #[async_trait]
    impl PrivacyStore for Backend {
        async fn reports_of(&self, subject: &str) -> StoreResult<Vec<Uuid>> {
            let ids: Vec<(DbUuid,)> =
                sqlx::query_as("SELECT id FROM reports WHERE author = $1 ORDER BY inserted_at, id")
                    .bind(subject)
                    .fetch_all(&self.pool)
                    .await?;
            Ok(ids.into_iter().map(|(id,)| id.into()).collect())
        }

        async fn email_subscription(
            &self,
            subject: &str,
        ) -> StoreResult<Option<EmailSubscription>> {
            Ok(sqlx::query_as(
                "SELECT email, locale, created_at FROM email_subscriptions WHERE subject = $1",
            )
            .bind(subject)
            .fetch_optional(&self.pool)
            .await?)
        }

        async fn push_subscriptions(&self, subject: &str) -> StoreResult<Vec<PushSubscription>> {
            Ok(sqlx::query_as(
                "SELECT endpoint, locale, created_at FROM webpush_subscriptions \
                 WHERE subject = $1 ORDER BY created_at, endpoint",
            )
            .bind(subject)
            .fetch_all(&self.pool)
            .await?)
        }

        async fn audit_mentions(&self, subject: &str) -> StoreResult<u64> {
            let n: i64 = sqlx::query_scalar(
                "SELECT (SELECT count(*) FROM issue_changes WHERE actor = $1) \
                 + (SELECT count(*) FROM statements WHERE author = $1) \
                 + (SELECT count(*) FROM admin_events \
                    WHERE actor = $1 OR REPLACE(detail, $2, '') <> detail)",
            )
            .bind(subject)
            .bind(serde_json::Value::from(subject).to_string())
            .fetch_one(&self.pool)
            .await?;
            Ok(u64::try_from(n).unwrap_or(0))
        }

        async fn put_export(&self, export: &DataExport) -> StoreResult<()> {
            sqlx::query(
                "INSERT INTO data_exports (subject, token, requested_at, expires_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (subject) DO UPDATE SET \
                 token = excluded.token, requested_at = excluded.requested_at, \
                 expires_at = excluded.expires_at",
            )
            .bind(&export.subject)
            .bind(&export.token)
            .bind(DbInstant(export.requested_at))
            .bind(DbInstant(export.expires_at))
            .execute(&self.pool)
            .await?;
            Ok(())
        }

        async fn export_of(&self, subject: &str, now: Instant) -> StoreResult<Option<DataExport>> {
            self.unexpired_export("subject", subject, now).await
        }

        async fn export_by_token(
            &self,
            token: &str,
            now: Instant,
        ) -> StoreResult<Option<DataExport>> {
            self.unexpired_export("token", token, now).await
        }

        async fn delete_feed_before(&self, before: Instant, limit: u32) -> StoreResult<u64> {
            self.sweep(
                "DELETE FROM notifications WHERE tag IN \
                 (SELECT tag FROM notifications WHERE sent_at < $1 LIMIT $2)",
                before,
                limit,
            )
            .await
        }

        async fn delete_digests_before(&self, before: Instant, limit: u32) -> StoreResult<u64> {
            self.sweep(
                "DELETE FROM notification_digests WHERE (subject, period_end) IN \
                 (SELECT subject, period_end FROM notification_digests \
                  WHERE created_at < $1 LIMIT $2)",
                before,
                limit,
            )
            .await
        }

        async fn clear_event_details_before(
            &self,
            before: Instant,
            limit: u32,
        ) -> StoreResult<u64> {
            self.sweep(
                "UPDATE admin_events SET detail = '{}' WHERE id IN \
                 (SELECT id FROM admin_events WHERE at < $1 AND detail <> '{}' LIMIT $2)",
                before,
                limit,
            )
            .await
        }

        async fn delete_expired_exports(&self, now: Instant, limit: u32) -> StoreResult<u64> {
            self.sweep(
                "DELETE FROM data_exports WHERE subject IN \
                 (SELECT subject FROM data_exports WHERE expires_at <= $1 LIMIT $2)",
                now,
                limit,
            )
            .await
        }

        async fn begin_erasure(&self) -> StoreResult<Box<dyn ErasureTx>> {
            Ok(Box::new(Writing(self.begin_erasing().await?)))
        }
    }

    #[async_trait]
    impl ErasureTx for Writing<Db> {
        async fn delete_votes(&mut self, subject: &str) -> StoreResult<u64> {
            self.lock_rows(
                "SELECT subject FROM vote_accounts WHERE subject = $1",
                subject,
            )
            .await?;
            let tokens = self
                .changed(&["DELETE FROM vote_tokens WHERE subject = $1"], &[subject])
                .await?;
            self.changed(
                &["DELETE FROM vote_accounts WHERE subject = $1"],
                &[subject],
            )
            .await?;
            Ok(tokens)
        }

        async fn delete_channels(&mut self, subject: &str) -> StoreResult<u64> {
            let subscriptions = [
                "DELETE FROM webpush_subscriptions WHERE subject = $1",
                "DELETE FROM email_subscriptions WHERE subject = $1",
            ];
            self.changed(&subscriptions, &[subject]).await
        }

        async fn delete_feed(&mut self, subject: &str) -> StoreResult<u64> {
            let feed = [
                "DELETE FROM notifications WHERE subject = $1",
                "DELETE FROM notification_digests WHERE subject = $1",
                "DELETE FROM notification_settings WHERE subject = $1",
                "DELETE FROM news_subscriptions WHERE subject = $1",
                "DELETE FROM data_exports WHERE subject = $1",
            ];
            self.changed(&feed, &[subject]).await
        }

        async fn delete_report_media(
            &mut self,
            subject: &str,
            only: Option<&[Uuid]>,
        ) -> StoreResult<Vec<Uuid>> {
            // The reports' rows before the issues' rows the media trigger rewrites (the lock
            // order of the officers' steps).
            self.lock_rows("SELECT id FROM reports WHERE author = $1", subject)
                .await?;
            let mut q = sqlx::QueryBuilder::<Db>::new(
                "DELETE FROM media WHERE report_id IN (SELECT id FROM reports WHERE author = ",
            );
            q.push_bind(subject).push(")");
            if let Some(ids) = only {
                q.push(" AND id");
                Backend::push_ids(&mut q, ids);
            }
            q.push(" RETURNING id");
            let ids: Vec<(DbUuid,)> = q.build_query_as().fetch_all(&mut *self.0).await?;
            Ok(ids.into_iter().map(|(id,)| id.into()).collect())
        }

        async fn disown_reports(&mut self, subject: &str) -> StoreResult<u64> {
            let reports = self
                .changed(
                    &["UPDATE reports SET author = NULL WHERE author = $1"],
                    &[subject],
                )
                .await?;
            self.changed(
                &["UPDATE issues SET author = NULL WHERE author = $1"],
                &[subject],
            )
            .await?;
            Ok(reports)
        }

        async fn pseudonymise_audit(&mut self, subject: &str, pseudonym: &str) -> StoreResult<u64> {
            let authors = [
                "UPDATE issue_changes SET actor = $2 WHERE actor = $1",
                "UPDATE statements SET author = $2 WHERE author = $1",
            ];
            let rows = self.changed(&authors, &[subject, pseudonym]).await?;
            // A detail is compact JSON: a subject stands there as a JSON string.
            let events = "UPDATE admin_events \
                SET actor = CASE WHEN actor = $1 THEN $2 ELSE actor END, \
                detail = REPLACE(detail, $3, $4) \
                WHERE actor = $1 OR REPLACE(detail, $3, $4) <> detail";
            let (quoted_subject, quoted_pseudonym) = (
                serde_json::Value::from(subject).to_string(),
                serde_json::Value::from(pseudonym).to_string(),
            );
            let binds = [subject, pseudonym, &quoted_subject, &quoted_pseudonym];
            Ok(rows + self.changed(&[events], &binds).await?)
        }

        async fn delete_assignments(&mut self, subject: &str) -> StoreResult<u64> {
            self.changed(
                &["DELETE FROM category_officers WHERE subject = $1"],
                &[subject],
            )
            .await
        }

        async fn delete_idempotency_keys(&mut self, scope: &str) -> StoreResult<u64> {
            self.changed(&["DELETE FROM idempotency_keys WHERE scope = $1"], &[scope])
                .await
        }
    }
}
