//! Digests (spec 2.8): for citizens whose settings name an interval, one message per period
//! instead of one per notification. [`DigestWriter::run_once`] finds, for each interval, the
//! period that is due at `now` (ending at `notifications.digest.local_time` in
//! `notifications.digest.time_zone`: every day, on Mondays, on the first of a month; see
//! `domain::digest`), writes the digest of every account with entries in it, once, in the
//! account's language, and leaves its sending to the delivery worker. An account whose earlier
//! periods went by without a digest (no worker ran) gets their entries in this one, reaching
//! back at most `notifications.digest.catch_up_periods` periods.

use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use chrono::{NaiveDateTime, NaiveTime, TimeZone as _, Utc};
use chrono_tz::Tz;
use domain::i18n::Message;
use domain::notifications::Interval;
use i18n::Locale;
use serde::Deserialize;

use crate::store::composition::Stores;
use crate::store::digests::{DigestCandidate, DigestPeriod, DigestTexts, NewDigest};
use crate::store::{Instant, StoreResult};

/// Accounts handled per round trip.
const BATCH: u32 = 100;
/// The largest `notifications.digest.catch_up_periods` (a year of daily digests).
pub const MAX_CATCH_UP_PERIODS: u32 = 366;

/// `notifications.digest.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DigestSettings {
    /// The city's time zone (IANA name). Default `Europe/Prague`.
    pub time_zone: String,
    /// When periods end, local time `HH:MM`. Default `08:00`.
    pub local_time: String,
    /// How many periods a digest reaches back when the ones before it went by without a digest
    /// (no worker ran): their entries come in the next digest. 1 to 366. Default 7.
    pub catch_up_periods: u32,
}

impl Default for DigestSettings {
    fn default() -> Self {
        Self {
            time_zone: "Europe/Prague".into(),
            local_time: "08:00".into(),
            catch_up_periods: 7,
        }
    }
}

/// Writes the digests that are due.
#[derive(Clone)]
pub struct DigestWriter {
    stores: Stores,
    zone: Tz,
    at: NaiveTime,
    default_locale: Locale,
    catch_up_periods: u32,
    /// Per interval, the end of the last period this process wrote every digest of: until the
    /// due period moves on, the next rounds skip the query (another replica's digests of the
    /// same period are kept out by the primary key, not by this).
    done: Arc<Mutex<[Option<Instant>; 3]>>,
}

impl DigestWriter {
    pub fn from_settings(
        settings: &DigestSettings,
        stores: Stores,
        default_locale: Locale,
    ) -> anyhow::Result<Self> {
        let zone: Tz = settings.time_zone.parse().map_err(|_| {
            anyhow::anyhow!(
                "notifications.digest.time_zone: {:?} is not an IANA time zone",
                settings.time_zone
            )
        })?;
        let at = NaiveTime::parse_from_str(&settings.local_time, "%H:%M").with_context(|| {
            format!(
                "notifications.digest.local_time: {:?} is not HH:MM",
                settings.local_time
            )
        })?;
        if !(1..=MAX_CATCH_UP_PERIODS).contains(&settings.catch_up_periods) {
            anyhow::bail!(
                "notifications.digest.catch_up_periods must be 1 to {MAX_CATCH_UP_PERIODS}, not {}",
                settings.catch_up_periods
            );
        }
        Ok(Self {
            stores,
            zone,
            at,
            default_locale,
            catch_up_periods: settings.catch_up_periods,
            done: Arc::new(Mutex::new([None; 3])),
        })
    }

    /// Writes every digest due at `now`; how many were written.
    pub async fn run_once(&self, now: Instant) -> StoreResult<usize> {
        let local_now = now.with_timezone(&self.zone).naive_local();
        let mut written = 0;
        for (slot, interval) in [Interval::Daily, Interval::Weekly, Interval::Monthly]
            .into_iter()
            .enumerate()
        {
            let (start, end) = domain::digest::due_period(interval, self.at, local_now);
            let earliest = domain::digest::catch_up_start(interval, end, self.catch_up_periods);
            let period = DigestPeriod {
                interval,
                start: self.instant(start),
                end: self.instant(end),
                earliest: self.instant(earliest),
            };
            let end = period.end;
            if self.done()[slot] == Some(end) {
                continue;
            }
            loop {
                let candidates = self
                    .stores
                    .digests
                    .digest_candidates(&period, BATCH)
                    .await?;
                for candidate in &candidates {
                    let texts = self.texts(candidate);
                    if self
                        .stores
                        .digests
                        .add_digest(
                            NewDigest {
                                candidate,
                                period_end: end,
                                texts: &texts,
                            },
                            now,
                        )
                        .await?
                    {
                        written += 1;
                    }
                }
                if candidates.len() < BATCH as usize {
                    break;
                }
            }
            self.done()[slot] = Some(end);
        }
        Ok(written)
    }

    fn done(&self) -> std::sync::MutexGuard<'_, [Option<Instant>; 3]> {
        self.done.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A local wall-clock time as an instant: the earlier one when the clocks go back, the
    /// first existing one after it when they go forward.
    fn instant(&self, local: NaiveDateTime) -> Instant {
        let mut probe = local;
        for _ in 0..4 {
            if let Some(t) = self.zone.from_local_datetime(&probe).earliest() {
                return t.with_timezone(&Utc);
            }
            probe += chrono::Duration::minutes(30);
        }
        Utc.from_utc_datetime(&local)
    }

    /// The digest's title and body in the account's language.
    pub fn texts(&self, candidate: &DigestCandidate) -> DigestTexts {
        let locale = candidate
            .locale
            .as_deref()
            .map_or(self.default_locale, |l| {
                i18n::negotiate(Some(l), self.default_locale)
            });
        let title = i18n::render(
            locale,
            &Message::new("notification-digest-title").arg("count", candidate.entries),
        );
        let mut lines: Vec<String> = candidate.titles.iter().map(|t| format!("• {t}")).collect();
        let listed = u32::try_from(candidate.titles.len()).unwrap_or(u32::MAX);
        if candidate.entries > listed {
            lines.push(i18n::render(
                locale,
                &Message::new("notification-digest-more").arg("count", candidate.entries - listed),
            ));
        }
        DigestTexts {
            title,
            body: lines.join("\n"),
        }
    }
}
