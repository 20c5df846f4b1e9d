//! The vote store's reads on both backends ([`VoteReads`]: the token list and the pool's
//! figures). Placing and revoking ([`VoteStore`](crate::store::votes::VoteStore)) are each
//! backend's own (`votes.rs`: one PL/pgSQL call on PostgreSQL, a `BEGIN IMMEDIATE` transaction on
//! SQLite; docs/decisions.md says why the pool's rule stays in the function).

use async_trait::async_trait;
use uuid::Uuid;

use super::{DbInstant, DbUuid};
use crate::store::votes::{figure, TokenQuery, VoteReads, VoteToken};
use crate::store::{Instant, StoreResult};

/// The tokens that count against the pool at `$2` (now).
pub(in crate::store) const ACTIVE: &str =
    "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)";

both_backends! {
    #[async_trait]
    impl VoteReads for Backend {
        async fn vote_tokens(&self, query: TokenQuery<'_>) -> StoreResult<Vec<VoteToken>> {
            let TokenQuery {
                subject,
                active,
                after,
                limit,
                now,
            } = query;
            let filter = match active {
                None => "1 = 1".to_owned(),
                Some(true) => format!("({ACTIVE})"),
                Some(false) => format!("NOT ({ACTIVE})"),
            };
            // The cursor as the index scan's start (a separate statement, see
            // `notifications`); the page size a literal (`postgres::page_sql`).
            let after_cursor = if after.is_some() {
                "AND (inserted_at, id) < ($3, $4) "
            } else {
                ""
            };
            let sql = format!(
                "SELECT id, target_id, inserted_at, expires_at, revoked_at FROM vote_tokens \
                 WHERE subject = $1 AND {filter} {after_cursor}\
                 ORDER BY inserted_at DESC, id DESC LIMIT {limit}"
            );
            let mut select = sqlx::query_as(&sql).bind(subject).bind(DbInstant(now));
            if let Some((inserted_at, id)) = after {
                select = select.bind(DbInstant(inserted_at)).bind(DbUuid(id));
            }
            Ok(select.fetch_all(&self.pool).await?)
        }

        async fn active_votes(
            &self,
            subject: &str,
            target: Option<Uuid>,
            now: Instant,
        ) -> StoreResult<(u32, u32)> {
            let (all, on_target): (i64, i64) = sqlx::query_as(&format!(
                "SELECT count(*), coalesce(sum(CASE WHEN target_id = $3 THEN 1 ELSE 0 END), 0) \
                 FROM vote_tokens WHERE subject = $1 AND {ACTIVE}"
            ))
            .bind(subject)
            .bind(DbInstant(now))
            .bind(target.map(DbUuid))
            .fetch_one(&self.pool)
            .await?;
            Ok((figure(all), figure(on_target)))
        }
    }
}
