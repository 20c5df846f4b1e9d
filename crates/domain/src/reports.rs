//! Citizens' reports: the limits of a filing (spec section 8) and the list parameters of
//! `GET /reports`, `GET /me/reports` and `GET /admin/reports` (section 4).
//!
//! Lengths count characters (Unicode scalar values), not bytes: a Czech title of 256 letters
//! with diacritics is as long as an English one.

use crate::i18n::Message;
use crate::issues::IssueStatus;
use crate::limits::LimitError;

/// Most characters of a report title.
pub const TITLE_MAX_CHARS: usize = 256;
/// Most characters of a report description.
pub const DESCRIPTION_MAX_CHARS: usize = 2048;
/// The longest `address` of a report.
pub const ADDRESS_MAX_CHARS: usize = 200;

/// A filed text that breaks a limit; the API answers 400 `VALIDATION_ERROR` naming the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportTextError {
    #[error("{field} must not be empty")]
    Empty { field: &'static str },
    #[error("{field} has {chars} characters, at most {max} are allowed")]
    TooLong {
        field: &'static str,
        chars: usize,
        max: usize,
    },
}

impl ReportTextError {
    /// The form field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Empty { field } | Self::TooLong { field, .. } => field,
        }
    }

    /// The catalogue text.
    pub fn message(&self) -> Message {
        match self {
            Self::Empty { field } => Message::new("report-field-empty").arg("field", field),
            Self::TooLong { field, chars, max } => Message::new("report-field-too-long")
                .arg("field", field)
                .arg("chars", chars)
                .arg("max", max),
        }
    }
}

/// Checks a required text: not blank, at most `max` characters. Returns it unchanged (what the
/// citizen wrote is stored as written, surrounding spaces included).
pub(crate) fn check_text(
    field: &'static str,
    text: &str,
    max: usize,
) -> Result<(), ReportTextError> {
    if text.trim().is_empty() {
        return Err(ReportTextError::Empty { field });
    }
    let chars = text.chars().count();
    if chars > max {
        return Err(ReportTextError::TooLong { field, chars, max });
    }
    Ok(())
}

/// `title`: required, not blank, at most [`TITLE_MAX_CHARS`] characters.
pub fn check_title(title: &str) -> Result<(), ReportTextError> {
    check_text("title", title, TITLE_MAX_CHARS)
}

/// `description`: required, not blank, at most [`DESCRIPTION_MAX_CHARS`] characters.
pub fn check_description(description: &str) -> Result<(), ReportTextError> {
    check_text("description", description, DESCRIPTION_MAX_CHARS)
}

/// `address` (optional): the place in words, at most [`ADDRESS_MAX_CHARS`] characters; kept
/// trimmed, and a blank one is none (a form's empty field).
pub fn check_address(address: &str) -> Result<Option<String>, ReportTextError> {
    let address = address.trim();
    if address.is_empty() {
        return Ok(None);
    }
    check_text("address", address, ADDRESS_MAX_CHARS)?;
    Ok(Some(address.to_owned()))
}

/// What a report list is ordered by (`orderBy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderBy {
    /// When the report was filed (the default).
    Date,
    /// Distance from the `location` parameter (needs it); rows without a location come last.
    Location,
    /// Active vote tokens on the report.
    Votes,
}

/// `orderDirection`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Asc,
    /// The default.
    Desc,
}

/// A validated `orderBy`/`orderDirection` pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Order {
    pub by: OrderBy,
    pub direction: Direction,
}

impl Order {
    /// Parses `orderBy` (date, location, votes; default date) and `orderDirection` (asc, desc).
    /// The direction defaults to desc (newest, most voted first) except for `location`, where
    /// it defaults to asc: nearest first is what a location order is asked for.
    /// `orderBy=location` needs a `location` parameter.
    pub fn parse(
        order_by: Option<&str>,
        direction: Option<&str>,
        has_location: bool,
    ) -> Result<Self, LimitError> {
        let by = match order_by {
            None | Some("date") => OrderBy::Date,
            Some("location") => OrderBy::Location,
            Some("votes") => OrderBy::Votes,
            Some(other) => return Err(not_one_of("orderBy", other, "date, location, votes")),
        };
        let direction = match direction {
            None if by == OrderBy::Location => Direction::Asc,
            None | Some("desc") => Direction::Desc,
            Some("asc") => Direction::Asc,
            Some(other) => return Err(not_one_of("orderDirection", other, "asc, desc")),
        };
        if by == OrderBy::Location && !has_location {
            return Err(LimitError::new(
                "orderBy",
                Message::new("order-by-location-needs-location"),
            ));
        }
        Ok(Self { by, direction })
    }
}

/// Parses a repeated `status` parameter (each one of the five issue states).
pub fn parse_statuses(raw: &[String]) -> Result<Vec<IssueStatus>, LimitError> {
    let mut out = Vec::with_capacity(raw.len());
    for value in raw {
        let status = value.parse().map_err(|_| {
            not_one_of(
                "status",
                value,
                "open, moved, accepted, duplicate, resolved",
            )
        })?;
        if !out.contains(&status) {
            out.push(status);
        }
    }
    Ok(out)
}

fn not_one_of(parameter: &'static str, value: &str, allowed: &str) -> LimitError {
    LimitError::new(
        parameter,
        Message::new("parameter-not-one-of")
            .arg("parameter", parameter)
            .arg("value", format!("{value:?}"))
            .arg("allowed", allowed),
    )
}

/// The `accepted` flag of an own-report row (kept for older clients): true once the city has
/// taken the report on, i.e. its derived status is accepted, duplicate or resolved. A report
/// that is still open, or has no status (only moved issues), is not accepted.
pub fn accepted(status: Option<IssueStatus>) -> bool {
    matches!(
        status,
        Some(IssueStatus::Accepted | IssueStatus::Duplicate | IssueStatus::Resolved)
    )
}

/// Most characters of an officer's statement.
pub const STATEMENT_MAX_CHARS: usize = 4096;

/// An officer's statement `text`: required, not blank, at most [`STATEMENT_MAX_CHARS`].
pub fn check_statement(text: &str) -> Result<(), ReportTextError> {
    check_text("text", text, STATEMENT_MAX_CHARS)
}

#[cfg(test)]
mod tests;
