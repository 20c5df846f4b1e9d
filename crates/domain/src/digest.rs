//! Digests (spec 2.8): a citizen whose settings name an interval gets one message per period
//! instead of one per notification. Periods end at a configured local time: every day (daily),
//! on Mondays (weekly), on the first day of a month (monthly). Pure: local wall-clock times in,
//! local wall-clock times out; the service converts them with the city's time zone.

use chrono::{Datelike, Duration, Months, NaiveDate, NaiveDateTime, NaiveTime};

use crate::notifications::Interval;

/// The period whose digest is due at `now`: `(start, end]`, where `end` is the latest period end
/// at or before `now` and `start` the one before it.
pub fn due_period(
    interval: Interval,
    at: NaiveTime,
    now: NaiveDateTime,
) -> (NaiveDateTime, NaiveDateTime) {
    let end = latest_end(interval, at, now);
    (previous_end(interval, end), end)
}

/// The start of the period `periods` periods back from the one ending at `end` (1: that
/// period's own start; 0 is taken as 1): how far a digest reaches back over periods that went by
/// without one.
pub fn catch_up_start(interval: Interval, end: NaiveDateTime, periods: u32) -> NaiveDateTime {
    (0..periods.max(1)).fold(end, |at, _| previous_end(interval, at))
}

fn latest_end(interval: Interval, at: NaiveTime, now: NaiveDateTime) -> NaiveDateTime {
    let today = now.date();
    let candidate = match interval {
        Interval::Daily => today,
        Interval::Weekly => {
            today - Duration::days(i64::from(today.weekday().num_days_from_monday()))
        }
        Interval::Monthly => first_of_month(today),
    }
    .and_time(at);
    if candidate <= now {
        candidate
    } else {
        previous_end(interval, candidate)
    }
}

fn previous_end(interval: Interval, end: NaiveDateTime) -> NaiveDateTime {
    match interval {
        Interval::Daily => end - Duration::days(1),
        Interval::Weekly => end - Duration::days(7),
        Interval::Monthly => end
            .checked_sub_months(Months::new(1))
            .unwrap_or(end - Duration::days(31)),
    }
}

fn first_of_month(day: NaiveDate) -> NaiveDate {
    day.with_day(1).unwrap_or(day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn catching_up_reaches_back_whole_periods() {
        let cases = [
            // (interval, end, periods, earliest)
            (Interval::Daily, "2026-11-23 08:00", 1, "2026-11-22 08:00"),
            (Interval::Daily, "2026-11-23 08:00", 0, "2026-11-22 08:00"),
            (Interval::Daily, "2026-11-23 08:00", 7, "2026-11-16 08:00"),
            (Interval::Weekly, "2026-11-23 08:00", 2, "2026-11-09 08:00"),
            (Interval::Monthly, "2026-03-01 08:00", 1, "2026-02-01 08:00"),
            (Interval::Monthly, "2026-03-01 08:00", 3, "2025-12-01 08:00"),
        ];
        for (interval, end, periods, earliest) in cases {
            assert_eq!(
                catch_up_start(interval, t(end), periods),
                t(earliest),
                "{interval:?} {end} {periods}"
            );
        }
    }

    #[test]
    fn periods_end_at_the_local_time_of_their_day() {
        let at = NaiveTime::from_hms_opt(8, 0, 0).unwrap();
        let cases = [
            // (interval, now, start, end)
            (
                Interval::Daily,
                "2026-11-23 08:00",
                "2026-11-22 08:00",
                "2026-11-23 08:00",
            ),
            (
                Interval::Daily,
                "2026-11-23 07:59",
                "2026-11-21 08:00",
                "2026-11-22 08:00",
            ),
            (
                Interval::Daily,
                "2026-03-01 09:00",
                "2026-02-28 08:00",
                "2026-03-01 08:00",
            ),
            // 2026-11-23 is a Monday.
            (
                Interval::Weekly,
                "2026-11-23 08:00",
                "2026-11-16 08:00",
                "2026-11-23 08:00",
            ),
            (
                Interval::Weekly,
                "2026-11-23 07:59",
                "2026-11-09 08:00",
                "2026-11-16 08:00",
            ),
            (
                Interval::Weekly,
                "2026-11-29 23:59",
                "2026-11-16 08:00",
                "2026-11-23 08:00",
            ),
            (
                Interval::Monthly,
                "2026-11-01 08:00",
                "2026-10-01 08:00",
                "2026-11-01 08:00",
            ),
            (
                Interval::Monthly,
                "2026-11-01 07:59",
                "2026-09-01 08:00",
                "2026-10-01 08:00",
            ),
            (
                Interval::Monthly,
                "2026-03-31 12:00",
                "2026-02-01 08:00",
                "2026-03-01 08:00",
            ),
            (
                Interval::Monthly,
                "2027-01-15 00:00",
                "2026-12-01 08:00",
                "2027-01-01 08:00",
            ),
        ];
        for (interval, now, start, end) in cases {
            assert_eq!(
                due_period(interval, at, t(now)),
                (t(start), t(end)),
                "{interval:?} {now}"
            );
        }
    }

    #[test]
    fn the_due_period_never_ends_after_now_and_follows_its_predecessor() {
        let at = NaiveTime::from_hms_opt(6, 30, 0).unwrap();
        let mut now = t("2026-01-01 00:00");
        while now < t("2027-01-10 00:00") {
            for interval in [Interval::Daily, Interval::Weekly, Interval::Monthly] {
                let (start, end) = due_period(interval, at, now);
                assert!(start < end && end <= now, "{interval:?} {now}");
                assert_eq!(due_period(interval, at, end).1, end);
                assert_eq!(
                    due_period(interval, at, end - Duration::minutes(1)).1,
                    start
                );
            }
            now += Duration::minutes(397);
        }
    }
}
