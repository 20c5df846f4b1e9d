//! Date-times in responses (`#[serde(serialize_with = "instant::serialize")]`, or
//! `instant::option::serialize` for an optional one), written as chrono writes them.
//!
//! chrono's `Serialize` writes RFC 3339 (UTC as `Z`, a fraction of 0, 3, 6 or 9 digits as the
//! value needs) through `fmt`, a character or a `write!` at a time, and serde_json escapes
//! every piece separately. A feed page of 100 entries writes about 300 date-times, and in a
//! profile of it that writing was a few per cent of the whole machine (docs/benchmarks.md,
//! "The notification feed"). This writes the same text into a stack buffer and hands serde one
//! string. Years outside 0–9999 and leap seconds, which chrono writes specially, are left to
//! chrono. The tests compare both over the whole range.

use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::{Serialize, Serializer};

/// The longest text written here: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
const MAX_LEN: usize = 30;

fn two(buf: &mut [u8; MAX_LEN], at: usize, value: u32) {
    buf[at] = b'0' + (value / 10 % 10) as u8;
    buf[at + 1] = b'0' + (value % 10) as u8;
}

fn digits(buf: &mut [u8; MAX_LEN], at: usize, mut value: u32, count: usize) {
    for i in (at..at + count).rev() {
        buf[i] = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// The RFC 3339 text of `t` as chrono's `Serialize` writes it, or `None` where chrono writes
/// something this does not (a year outside 0–9999, a leap second).
fn rfc3339(t: &DateTime<Utc>, buf: &mut [u8; MAX_LEN]) -> Option<usize> {
    let naive = t.naive_utc();
    let year = u32::try_from(naive.year()).ok().filter(|y| *y <= 9999)?;
    let nano = naive.nanosecond();
    if nano >= 1_000_000_000 {
        return None;
    }
    digits(buf, 0, year, 4);
    buf[4] = b'-';
    two(buf, 5, naive.month());
    buf[7] = b'-';
    two(buf, 8, naive.day());
    buf[10] = b'T';
    two(buf, 11, naive.hour());
    buf[13] = b':';
    two(buf, 14, naive.minute());
    buf[16] = b':';
    two(buf, 17, naive.second());
    let mut len = 19;
    let fraction = if nano == 0 {
        None
    } else if nano.is_multiple_of(1_000_000) {
        Some((nano / 1_000_000, 3))
    } else if nano.is_multiple_of(1_000) {
        Some((nano / 1_000, 6))
    } else {
        Some((nano, 9))
    };
    if let Some((value, count)) = fraction {
        buf[len] = b'.';
        digits(buf, len + 1, value, count);
        len += 1 + count;
    }
    buf[len] = b'Z';
    Some(len + 1)
}

/// Serializes `t` as chrono does, in one piece.
pub fn serialize<S: Serializer>(t: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    let mut buf = [0u8; MAX_LEN];
    match rfc3339(t, &mut buf).and_then(|len| std::str::from_utf8(&buf[..len]).ok()) {
        Some(text) => serializer.serialize_str(text),
        None => t.serialize(serializer),
    }
}

/// Appends `t` to `out` as a JSON string, exactly as [`serialize`] has serde_json write it
/// (for JSON written by hand: the text needs no escaping).
pub fn write_json(t: &DateTime<Utc>, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let mut buf = [0u8; MAX_LEN];
    match rfc3339(t, &mut buf).and_then(|len| buf.get(..len)) {
        Some(text) => {
            out.push(b'"');
            out.extend_from_slice(text);
            out.push(b'"');
            Ok(())
        }
        None => serde_json::to_writer(out, t),
    }
}

/// For `Option<DateTime<Utc>>` (pair it with `skip_serializing_if = "Option::is_none"` where
/// the field is left out when absent).
pub mod option {
    use chrono::{DateTime, Utc};
    use serde::Serializer;

    pub fn serialize<S: Serializer>(
        t: &Option<DateTime<Utc>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => super::serialize(t, serializer),
            None => serializer.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeZone};

    use super::*;

    /// What `serialize` writes through serde_json, checked equal to what `write_json` writes.
    fn ours(t: &DateTime<Utc>) -> String {
        let mut out = Vec::new();
        serialize(t, &mut serde_json::Serializer::new(&mut out)).unwrap();
        let mut direct = Vec::new();
        write_json(t, &mut direct).unwrap();
        assert_eq!(direct, out, "{t:?}");
        String::from_utf8(out).unwrap()
    }

    fn chrono_s(t: &DateTime<Utc>) -> String {
        serde_json::to_string(t).unwrap()
    }

    #[test]
    fn writes_what_chrono_writes() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        let cases = [
            (day(2026, 11, 23), 0, 0, 0, 0),
            (day(2026, 1, 9), 9, 5, 7, 120_000_000),
            (day(1999, 12, 31), 23, 59, 59, 999_000),
            (day(1970, 1, 1), 0, 0, 0, 1),
            (day(2000, 2, 29), 12, 0, 1, 123_456_789),
            (day(0, 1, 1), 0, 0, 0, 500_000),
            (day(9999, 12, 31), 23, 59, 59, 999_999_999),
            (day(-1, 6, 1), 1, 2, 3, 0),
            (day(10_000, 1, 1), 0, 0, 0, 0),
            (day(2016, 12, 31), 23, 59, 59, 1_500_000_000),
        ];
        for (date, h, mi, s, nano) in cases {
            let naive = date.and_hms_nano_opt(h, mi, s, nano).unwrap();
            let t = Utc.from_utc_datetime(&naive);
            assert_eq!(ours(&t), chrono_s(&t), "{naive:?}");
        }
    }

    #[test]
    fn writes_what_chrono_writes_over_the_range() {
        // A deterministic walk over 400 years in steps that hit every digit position.
        let mut seconds: i64 = -62_135_596_800 + 7; // 0001-01-01T00:00:07Z
        let mut nano: u32 = 0;
        for step in 0..200_000u32 {
            seconds += 66_667 + i64::from(step % 9_973) * 7_919;
            nano = nano.wrapping_mul(1_103_515_245).wrapping_add(12_345 + step) % 1_000_000_000;
            let nano = match step % 4 {
                0 => 0,
                1 => nano / 1_000_000 * 1_000_000,
                2 => nano / 1_000 * 1_000,
                _ => nano,
            };
            let t = Utc.timestamp_opt(seconds % 253_402_300_799, nano).unwrap();
            assert_eq!(ours(&t), chrono_s(&t));
        }
    }

    #[test]
    fn an_option_is_the_date_time_or_null() {
        let t = Utc.timestamp_opt(1_795_000_000, 250_000_000).unwrap();
        let write = |value: Option<DateTime<Utc>>| {
            let mut out = Vec::new();
            option::serialize(&value, &mut serde_json::Serializer::new(&mut out)).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(write(Some(t)), chrono_s(&t));
        assert_eq!(write(None), "null");
    }
}
