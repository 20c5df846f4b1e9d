//! Digests (SQLite).

use sqlx::{Row, SqlitePool};

use super::micros;
use crate::store::digests::{DigestCandidate, DigestPeriod, TITLES};
use crate::store::StoreResult;

/// Where an account's digest window opens (`s.subject`; ?2 the period's start, ?3 its end, ?5
/// the earliest): after its latest earlier digest, else at the start, never before the earliest.
const SINCE: &str = "max(?5, coalesce((SELECT max(d.period_end) FROM notification_digests d \
     WHERE d.subject = s.subject AND d.period_end < ?3), ?2))";

/// The accounts due a digest for the period, at most `limit` (see
/// [`DigestStore::digest_candidates`](crate::store::digests::DigestStore::digest_candidates)).
pub(super) async fn digest_candidates_of(
    pool: &SqlitePool,
    period: &DigestPeriod,
    limit: u32,
) -> StoreResult<Vec<DigestCandidate>> {
    let rows = sqlx::query(&format!(
        "SELECT s.subject, s.locale, count(*) AS entries, {SINCE} AS since \
         FROM notification_settings s \
         JOIN notifications n ON n.subject = s.subject \
           AND n.inserted_at > {SINCE} AND n.inserted_at <= ?3 \
           AND NOT EXISTS (SELECT 1 FROM notification_deliveries sent WHERE sent.tag = n.tag) \
         WHERE s.enabled AND s.\"interval\" = ?1 \
           AND NOT EXISTS (SELECT 1 FROM notification_digests d \
             WHERE d.subject = s.subject AND d.period_end = ?3) \
           AND (EXISTS (SELECT 1 FROM webpush_subscriptions w WHERE w.subject = s.subject) \
             OR EXISTS (SELECT 1 FROM email_subscriptions e WHERE e.subject = s.subject)) \
         GROUP BY s.subject, s.locale ORDER BY s.subject LIMIT ?4"
    ))
    .bind(period.interval.as_str())
    .bind(micros(period.start))
    .bind(micros(period.end))
    .bind(i64::from(limit))
    .bind(micros(period.earliest))
    .fetch_all(pool)
    .await?;
    let mut candidates = Vec::with_capacity(rows.len());
    for row in &rows {
        let subject: String = row.try_get("subject")?;
        let entries: i64 = row.try_get("entries")?;
        let since: i64 = row.try_get("since")?;
        let newest: Vec<(String, String)> = sqlx::query_as(
            "SELECT tag, title FROM notifications \
             WHERE subject = ?1 AND inserted_at > ?2 AND inserted_at <= ?3 \
             AND NOT EXISTS (SELECT 1 FROM notification_deliveries sent \
               WHERE sent.tag = notifications.tag) \
             ORDER BY sent_at DESC, inserted_at DESC LIMIT ?4",
        )
        .bind(&subject)
        .bind(since)
        .bind(micros(period.end))
        .bind(i64::from(TITLES))
        .fetch_all(pool)
        .await?;
        let Some((newest_tag, _)) = newest.first().cloned() else {
            continue;
        };
        candidates.push(DigestCandidate {
            locale: row.try_get("locale")?,
            subject,
            entries: u32::try_from(entries).unwrap_or(u32::MAX),
            newest_tag,
            titles: newest.into_iter().map(|(_, title)| title).collect(),
        });
    }
    Ok(candidates)
}
