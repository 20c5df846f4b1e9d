//! Digests (PostgreSQL).

use sqlx::{PgPool, Row};

use crate::store::digests::{DigestCandidate, DigestPeriod, TITLES};
use crate::store::StoreResult;

/// The accounts due a digest for the period, at most `limit` (see
/// [`DigestStore::digest_candidates`](crate::store::digests::DigestStore::digest_candidates)).
pub(super) async fn digest_candidates_of(
    pool: &PgPool,
    period: &DigestPeriod,
    limit: u32,
) -> StoreResult<Vec<DigestCandidate>> {
    let rows = sqlx::query(
        "SELECT s.subject, s.locale, count(*) AS entries, \
           (array_agg(n.tag ORDER BY n.sent_at DESC, n.inserted_at DESC))[1] AS newest, \
           (array_agg(n.title ORDER BY n.sent_at DESC, n.inserted_at DESC))[1:$5] AS titles \
         FROM notification_settings s \
         JOIN notifications n ON n.subject = s.subject \
           AND n.inserted_at > GREATEST($6, COALESCE((SELECT max(d.period_end) \
             FROM notification_digests d WHERE d.subject = s.subject AND d.period_end < $3), $2)) \
           AND n.inserted_at <= $3 \
           AND NOT EXISTS (SELECT 1 FROM notification_deliveries sent WHERE sent.tag = n.tag) \
         WHERE s.enabled AND s.\"interval\" = $1 \
           AND NOT EXISTS (SELECT 1 FROM notification_digests d \
             WHERE d.subject = s.subject AND d.period_end = $3) \
           AND (EXISTS (SELECT 1 FROM webpush_subscriptions w WHERE w.subject = s.subject) \
             OR EXISTS (SELECT 1 FROM email_subscriptions e WHERE e.subject = s.subject)) \
         GROUP BY s.subject, s.locale ORDER BY s.subject LIMIT $4",
    )
    .bind(period.interval.as_str())
    .bind(period.start)
    .bind(period.end)
    .bind(i64::from(limit))
    .bind(i32::try_from(TITLES).unwrap_or(5))
    .bind(period.earliest)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            let entries: i64 = row.try_get("entries")?;
            Ok(DigestCandidate {
                subject: row.try_get("subject")?,
                locale: row.try_get("locale")?,
                entries: u32::try_from(entries).unwrap_or(u32::MAX),
                newest_tag: row.try_get("newest")?,
                titles: row.try_get("titles")?,
            })
        })
        .collect()
}
