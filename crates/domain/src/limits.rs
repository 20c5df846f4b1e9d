//! Input limits of the public interface (spec section 8) and their parsing.
//!
//! Query values arrive as text; these functions turn them into typed values or a
//! [`LimitError`] that names the parameter, so every service answers an out-of-range or
//! non-numeric value with the same 400 `VALIDATION_ERROR`.

use thiserror::Error;

use crate::i18n::Message;

/// Smallest accepted `limit`.
pub const LIMIT_MIN: u32 = 1;
/// Largest accepted `limit`.
pub const LIMIT_MAX: u32 = 100;
/// `limit` when the parameter is absent.
pub const LIMIT_DEFAULT: u32 = 100;
/// Largest accepted `offset`.
pub const OFFSET_MAX: u32 = 1000;
/// `offset` when the parameter is absent.
pub const OFFSET_DEFAULT: u32 = 0;
/// Minimum length of a `q` search string (in characters).
pub const Q_MIN_CHARS: usize = 1;
/// Longest `q` search string accepted (in characters); longer ones cannot match any name.
pub const Q_MAX_CHARS: usize = 200;

/// Streets radius search: default radius in metres.
pub const STREETS_RADIUS_DEFAULT_M: f64 = 100.0;
/// Streets radius search: largest radius in metres (not in the spec: a sane bound, see docs).
pub const STREETS_RADIUS_MAX_M: f64 = 5000.0;

/// A query value that is malformed or out of range.
///
/// `Display` is for logs (`parameter: key args…`); clients get [`LimitError::message`] rendered
/// in their language.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{parameter}: {message}")]
pub struct LimitError {
    /// The query parameter at fault.
    pub parameter: &'static str,
    /// The explanation as a catalogue key with its arguments, safe to show to the client.
    pub message: Message,
}

impl LimitError {
    /// An error about `parameter`, explained by `message`.
    pub fn new(parameter: &'static str, message: Message) -> Self {
        Self { parameter, message }
    }
}

/// A validated `limit`/`offset` pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub limit: u32,
    pub offset: u32,
}

impl Default for Page {
    fn default() -> Self {
        Self {
            limit: LIMIT_DEFAULT,
            offset: OFFSET_DEFAULT,
        }
    }
}

impl Page {
    /// Parses `limit` (1..=100, default 100) and `offset` (0..=1000, default 0).
    pub fn parse(limit: Option<&str>, offset: Option<&str>) -> Result<Self, LimitError> {
        Ok(Self {
            limit: parse_int_in("limit", limit, LIMIT_MIN, LIMIT_MAX)?.unwrap_or(LIMIT_DEFAULT),
            offset: parse_int_in("offset", offset, 0, OFFSET_MAX)?.unwrap_or(OFFSET_DEFAULT),
        })
    }
}

/// Parses an optional integer parameter and checks `min..=max`.
pub fn parse_int_in(
    parameter: &'static str,
    raw: Option<&str>,
    min: u32,
    max: u32,
) -> Result<Option<u32>, LimitError> {
    let Some(raw) = raw else { return Ok(None) };
    let value: i64 = raw.trim().parse().map_err(|_| {
        LimitError::new(
            parameter,
            Message::new("limit-not-integer")
                .arg("parameter", parameter)
                .arg("value", format!("{raw:?}")),
        )
    })?;
    if value < i64::from(min) || value > i64::from(max) {
        return Err(out_of_range(parameter, min, max, value));
    }
    // In range of u32 by the check above.
    Ok(Some(value as u32))
}

/// Parses an optional finite decimal parameter and checks `min..=max`.
pub fn parse_f64_in(
    parameter: &'static str,
    raw: Option<&str>,
    min: f64,
    max: f64,
) -> Result<Option<f64>, LimitError> {
    let Some(raw) = raw else { return Ok(None) };
    let value: f64 = raw
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| {
            LimitError::new(
                parameter,
                Message::new("limit-not-number")
                    .arg("parameter", parameter)
                    .arg("value", format!("{raw:?}")),
            )
        })?;
    if value < min || value > max {
        return Err(out_of_range(parameter, min, max, value));
    }
    Ok(Some(value))
}

/// `parameter must be between min and max, got value`.
fn out_of_range(
    parameter: &'static str,
    min: impl std::fmt::Display,
    max: impl std::fmt::Display,
    value: impl std::fmt::Display,
) -> LimitError {
    LimitError::new(
        parameter,
        Message::new("limit-out-of-range")
            .arg("parameter", parameter)
            .arg("min", min)
            .arg("max", max)
            .arg("value", value),
    )
}

/// Checks a `q` search string: at least [`Q_MIN_CHARS`] and at most [`Q_MAX_CHARS`] characters.
pub fn parse_q(raw: Option<&str>) -> Result<Option<&str>, LimitError> {
    let Some(q) = raw else { return Ok(None) };
    let chars = q.chars().count();
    if chars < Q_MIN_CHARS {
        return Err(LimitError::new(
            "q",
            Message::new("q-too-short").arg("min", Q_MIN_CHARS),
        ));
    }
    if chars > Q_MAX_CHARS {
        return Err(LimitError::new(
            "q",
            Message::new("q-too-long").arg("max", Q_MAX_CHARS),
        ));
    }
    Ok(Some(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_defaults_and_edges() {
        assert_eq!(
            Page::parse(None, None),
            Ok(Page {
                limit: 100,
                offset: 0
            })
        );
        assert_eq!(
            Page::parse(Some("1"), Some("1000")),
            Ok(Page {
                limit: 1,
                offset: 1000
            })
        );
        assert_eq!(
            Page::parse(Some("100"), Some("0")),
            Ok(Page {
                limit: 100,
                offset: 0
            })
        );
        for bad in ["0", "101", "-1", "abc", "1.5", "", "99999999999999999999"] {
            let err = Page::parse(Some(bad), None).unwrap_err();
            assert_eq!(err.parameter, "limit", "{bad}");
        }
        let err = Page::parse(Some("101"), None).unwrap_err();
        assert_eq!(err.message.key, "limit-out-of-range");
        assert_eq!(err.message.get("parameter"), Some("limit"));
        assert_eq!(err.message.get("min"), Some("1"));
        assert_eq!(err.message.get("max"), Some("100"));
        assert_eq!(err.message.get("value"), Some("101"));
        let err = Page::parse(Some("abc"), None).unwrap_err();
        assert_eq!(err.message.key, "limit-not-integer");
        assert_eq!(err.message.get("value"), Some("\"abc\""));
        assert_eq!(
            err.to_string(),
            "limit: limit-not-integer parameter=\"limit\" value=\"\\\"abc\\\"\""
        );
        for bad in ["-1", "1001", "x"] {
            let err = Page::parse(None, Some(bad)).unwrap_err();
            assert_eq!(err.parameter, "offset", "{bad}");
        }
    }

    #[test]
    fn floats_reject_nan_and_range() {
        assert_eq!(
            parse_f64_in("radius", Some("5000"), 0.0, 5000.0),
            Ok(Some(5000.0))
        );
        assert!(parse_f64_in("radius", Some("5000.01"), 0.0, 5000.0).is_err());
        assert!(parse_f64_in("radius", Some("NaN"), 0.0, 5000.0).is_err());
        assert!(parse_f64_in("radius", Some("inf"), 0.0, 5000.0).is_err());
        assert!(parse_f64_in("radius", Some("1e3"), 0.0, 5000.0).is_ok());
        let err = parse_f64_in("radius", Some("x"), 0.0, 5000.0).unwrap_err();
        assert_eq!(
            (err.parameter, err.message.key),
            ("radius", "limit-not-number")
        );
        let err = parse_f64_in("radius", Some("5000.5"), 0.0, 5000.0).unwrap_err();
        assert_eq!(err.message.key, "limit-out-of-range");
        assert_eq!(err.message.get("max"), Some("5000"));
        assert_eq!(err.message.get("value"), Some("5000.5"));
    }

    #[test]
    fn q_length_edges() {
        assert!(parse_q(Some("")).is_err());
        assert_eq!(parse_q(Some("a")), Ok(Some("a")));
        let long = "é".repeat(Q_MAX_CHARS);
        assert!(parse_q(Some(&long)).is_ok());
        assert!(parse_q(Some(&format!("{long}a"))).is_err());
        assert_eq!(parse_q(Some("")).unwrap_err().message.key, "q-too-short");
        let err = parse_q(Some(&format!("{long}a"))).unwrap_err();
        assert_eq!((err.parameter, err.message.key), ("q", "q-too-long"));
        assert_eq!(err.message.get("max"), Some("200"));
    }
}
