//! The rules of the Open311 GeoReport v2 facade (docs/open311.md): how a report's derived status
//! reads as a request's, the date window and paging of `GET requests`, the title a filing's
//! description gives, and the replay that turns a report's recorded changes into mySociety's
//! `servicerequestupdates`.

use chrono::{DateTime, Duration, Utc};

use crate::issues::{report_status, IssueStatus};
use crate::reports::{check_text, ReportTextError, TITLE_MAX_CHARS};

/// Longest `description` of an Open311 filing (the standard's 4 000; `POST /reports`' 2 048 is
/// the citizens' form's).
pub const DESCRIPTION_MAX_CHARS: usize = 4000;
/// Longest span of `start_date`..`end_date` (and of `servicerequestupdates`' window).
pub const MAX_SPAN_DAYS: i64 = 90;
/// Most requests (or updates) in one answer, and `page_size`'s default.
pub const PAGE_SIZE_MAX: u32 = 1000;

/// A request's status: `open` while any of the report's issues is open or accepted, `closed`
/// when all are resolved or duplicates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestStatus {
    Open,
    Closed,
}

impl RequestStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }

    /// The request status of a report's derived status; `None` (only moved issues) is no
    /// request at all.
    pub fn of_report(status: Option<IssueStatus>) -> Option<Self> {
        match status? {
            IssueStatus::Open | IssueStatus::Accepted => Some(Self::Open),
            IssueStatus::Duplicate | IssueStatus::Resolved => Some(Self::Closed),
            IssueStatus::Moved => None,
        }
    }
}

/// A parameter the facade refuses (400), with the standard's description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("{0}: not a W3C date-time with a time zone (2026-12-01T08:00:00+01:00)")]
    DateTime(&'static str),
    #[error("end_date is before start_date")]
    EndBeforeStart,
    #[error("start_date to end_date spans more than {MAX_SPAN_DAYS} days")]
    SpanTooLong,
    #[error("status: open, closed or both (open,closed)")]
    Status,
    #[error("{0}: a whole number from 1")]
    Page(&'static str),
    #[error("page_size: at most {PAGE_SIZE_MAX}")]
    PageSize,
    #[error("updated_before is before updated_after")]
    UpdatedBeforeAfter,
}

/// `start_date`, `end_date`, `updated_after`…: an RFC 3339 date-time (W3C's profile with a
/// time zone); `name` is the parameter's, for the refusal.
pub fn parse_datetime(name: &'static str, raw: &str) -> Result<DateTime<Utc>, ParamError> {
    DateTime::parse_from_rfc3339(raw.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| ParamError::DateTime(name))
}

/// `status`: `open`, `closed`, or both comma-separated; empty means both.
pub fn parse_statuses(raw: &str) -> Result<Vec<RequestStatus>, ParamError> {
    let mut statuses = Vec::new();
    for one in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let status = match one {
            "open" => RequestStatus::Open,
            "closed" => RequestStatus::Closed,
            _ => return Err(ParamError::Status),
        };
        if !statuses.contains(&status) {
            statuses.push(status);
        }
    }
    // Both is no filter.
    if statuses.len() == 2 {
        statuses.clear();
    }
    Ok(statuses)
}

/// The filing-time window of a request list: from `from` to `to`, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

/// The window `start_date`..`end_date` asks for: both given, at most [`MAX_SPAN_DAYS`] apart
/// (a longer span is refused, not clamped: a client that asked for a year would otherwise
/// believe it had it); one given, the [`MAX_SPAN_DAYS`] after the start or before the end;
/// none, the [`MAX_SPAN_DAYS`] up to `now`.
pub fn window(
    start: Option<DateTime<Utc>>,
    end: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Result<Window, ParamError> {
    let span = Duration::days(MAX_SPAN_DAYS);
    let (from, to) = match (start, end) {
        (Some(from), Some(to)) => {
            if to < from {
                return Err(ParamError::EndBeforeStart);
            }
            if to - from > span {
                return Err(ParamError::SpanTooLong);
            }
            (from, to)
        }
        (Some(from), None) => (from, from + span),
        (None, Some(to)) => (to - span, to),
        (None, None) => (now - span, now),
    };
    Ok(Window { from, to })
}

/// `page` (from 1) and `page_size` (1 to [`PAGE_SIZE_MAX`], by default the most): the rows to
/// skip and to take.
pub fn paging(page: Option<&str>, page_size: Option<&str>) -> Result<(u64, u32), ParamError> {
    let number = |name: &'static str, raw: Option<&str>| -> Result<Option<u32>, ParamError> {
        raw.map(|r| match r.trim().parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(ParamError::Page(name)),
        })
        .transpose()
    };
    let page = number("page", page)?.unwrap_or(1);
    let size = number("page_size", page_size)?.unwrap_or(PAGE_SIZE_MAX);
    if size > PAGE_SIZE_MAX {
        return Err(ParamError::PageSize);
    }
    Ok((u64::from(page - 1) * u64::from(size), size))
}

/// An Open311 filing's description: not blank, at most [`DESCRIPTION_MAX_CHARS`].
pub fn check_description(text: &str) -> Result<(), ReportTextError> {
    check_text("description", text, DESCRIPTION_MAX_CHARS)
}

/// The report title of a filing's description (Open311 has no title): its first line that is
/// not blank, trimmed; a longer one is cut at a word before [`TITLE_MAX_CHARS`] and ends with
/// `…`. The whole description is kept as the report's description.
pub fn title_of(description: &str) -> String {
    let line = description
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    if line.chars().count() <= TITLE_MAX_CHARS {
        return line.to_owned();
    }
    // Room for the ellipsis.
    let cut: String = line.chars().take(TITLE_MAX_CHARS - 1).collect();
    let at_word = match cut.rfind(char::is_whitespace) {
        Some(space) if space > 0 => cut[..space].trim_end(),
        _ => cut.as_str(),
    };
    format!("{at_word}…")
}

/// A status in mySociety's update vocabulary (FixMyStreet's `servicerequestupdates`): open
/// `OPEN`, accepted `IN_PROGRESS`, a duplicate `DUPLICATE`, resolved `FIXED`.
pub const fn update_status(status: IssueStatus) -> Option<&'static str> {
    match status {
        IssueStatus::Open => Some("OPEN"),
        IssueStatus::Accepted => Some("IN_PROGRESS"),
        IssueStatus::Duplicate => Some("DUPLICATE"),
        IssueStatus::Resolved => Some("FIXED"),
        IssueStatus::Moved => None,
    }
}

/// One recorded event of a report, in the order they happened: a change of one of its issues,
/// or an officer's statement on one.
#[derive(Debug, Clone, PartialEq)]
pub enum Event<Id> {
    Changed {
        id: Id,
        issue: Id,
        status: IssueStatus,
    },
    Stated {
        id: Id,
    },
}

/// An update of mySociety's extension: the event's id, and the report's derived status after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Update<Id> {
    pub id: Id,
    pub status: IssueStatus,
}

/// The updates of one report from its events in order (`(event, inside the asked window)`):
/// a statement inside the window is an update with the report's status at its time; a change
/// inside it is one when it changed the report's derived status (the filing's opening, a move
/// that leaves the report open, or accepting one of two open issues are none). Events before
/// the window only set the status.
pub fn updates<Id: Clone + PartialEq>(
    events: impl IntoIterator<Item = (Event<Id>, bool)>,
) -> Vec<Update<Id>> {
    let mut issues: Vec<(Id, IssueStatus)> = Vec::new();
    let mut derived: Option<IssueStatus> = None;
    let mut out = Vec::new();
    for (event, inside) in events {
        match event {
            Event::Changed { id, issue, status } => {
                match issues.iter_mut().find(|(i, _)| *i == issue) {
                    Some(known) => known.1 = status,
                    None => issues.push((issue, status)),
                }
                let now = report_status(issues.iter().map(|(_, s)| *s));
                if inside && derived.is_some() && now != derived {
                    if let Some(status) = now {
                        out.push(Update { id, status });
                    }
                }
                derived = now;
            }
            Event::Stated { id } => {
                if let (true, Some(status)) = (inside, derived) {
                    out.push(Update { id, status });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::*;
    use IssueStatus::*;

    fn at(s: &str) -> DateTime<Utc> {
        parse_datetime("t", s).unwrap()
    }

    #[test]
    fn a_reports_status_reads_as_open_or_closed() {
        for (report, request) in [
            (Some(Open), Some(RequestStatus::Open)),
            (Some(Accepted), Some(RequestStatus::Open)),
            (Some(Duplicate), Some(RequestStatus::Closed)),
            (Some(Resolved), Some(RequestStatus::Closed)),
            (Some(Moved), None),
            (None, None),
        ] {
            assert_eq!(RequestStatus::of_report(report), request, "{report:?}");
        }
    }

    #[test]
    fn statuses_are_open_closed_both_or_refused() {
        for (raw, want) in [
            ("open", Ok(vec![RequestStatus::Open])),
            ("closed", Ok(vec![RequestStatus::Closed])),
            ("open,closed", Ok(vec![])),
            ("closed, open", Ok(vec![])),
            ("open,open", Ok(vec![RequestStatus::Open])),
            ("", Ok(vec![])),
            ("Open", Err(ParamError::Status)),
            ("fixed", Err(ParamError::Status)),
        ] {
            assert_eq!(parse_statuses(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn date_times_need_a_zone() {
        assert_eq!(
            at("2026-12-01T08:00:00+01:00"),
            at("2026-12-01T07:00:00Z"),
            "a zone is applied"
        );
        for bad in ["2026-12-01", "2026-12-01T08:00:00", "yesterday", ""] {
            assert_eq!(
                parse_datetime("start_date", bad),
                Err(ParamError::DateTime("start_date")),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn the_window_is_at_most_ninety_days() {
        let now = at("2026-12-07T12:00:00Z");
        let start = at("2026-09-08T12:00:00Z");
        let edge = start + Duration::days(MAX_SPAN_DAYS);
        for (s, e, want) in [
            (None, None, Ok((now - Duration::days(MAX_SPAN_DAYS), now))),
            (Some(start), Some(edge), Ok((start, edge))),
            (
                Some(start),
                Some(edge + Duration::microseconds(1)),
                Err(ParamError::SpanTooLong),
            ),
            (Some(start), Some(start), Ok((start, start))),
            (
                Some(start),
                Some(start - Duration::seconds(1)),
                Err(ParamError::EndBeforeStart),
            ),
            (Some(start), None, Ok((start, edge))),
            (None, Some(edge), Ok((start, edge))),
        ] {
            assert_eq!(
                window(s, e, now).map(|w| (w.from, w.to)),
                want,
                "{s:?} {e:?}"
            );
        }
    }

    #[test]
    fn paging_from_one_up_to_a_thousand() {
        for (page, size, want) in [
            (None, None, Ok((0, PAGE_SIZE_MAX))),
            (Some("1"), Some("10"), Ok((0, 10))),
            (Some("3"), Some("10"), Ok((20, 10))),
            (None, Some("1000"), Ok((0, 1000))),
            (None, Some("1001"), Err(ParamError::PageSize)),
            (Some("0"), None, Err(ParamError::Page("page"))),
            (None, Some("0"), Err(ParamError::Page("page_size"))),
            (Some("-1"), None, Err(ParamError::Page("page"))),
            (Some("x"), None, Err(ParamError::Page("page"))),
        ] {
            assert_eq!(paging(page, size), want, "{page:?} {size:?}");
        }
    }

    #[test]
    fn a_title_is_the_first_line_cut_at_a_word() {
        assert_eq!(
            title_of("\n  Pothole on Main St  \nDeep."),
            "Pothole on Main St"
        );
        let long = "word ".repeat(100);
        let title = title_of(&long);
        assert!(title.chars().count() <= TITLE_MAX_CHARS, "{title}");
        assert!(title.ends_with("word…"), "{title}");
        let unbroken = "x".repeat(TITLE_MAX_CHARS + 10);
        let title = title_of(&unbroken);
        assert_eq!(title.chars().count(), TITLE_MAX_CHARS);
        let exact = "y".repeat(TITLE_MAX_CHARS);
        assert_eq!(title_of(&exact), exact);
    }

    #[test]
    fn descriptions_take_four_thousand_characters() {
        assert!(check_description(&"ž".repeat(DESCRIPTION_MAX_CHARS)).is_ok());
        assert!(check_description(&"ž".repeat(DESCRIPTION_MAX_CHARS + 1)).is_err());
        assert!(check_description("  ").is_err());
    }

    #[test]
    fn updates_are_the_derived_status_changes_and_the_statements() {
        type E = Event<u32>;
        let changed = |id, issue, status| E::Changed { id, issue, status };
        let stated = |id| E::Stated { id };
        // Issue 10 filed, issue 11 added; 10 accepted (report stays open: 11 is open),
        // a statement, 11 accepted (report accepted), 10 resolved (still accepted), 11 a
        // duplicate (report a duplicate), a statement after the close.
        let events = vec![
            (changed(1, 10, Open), false),
            (changed(2, 11, Open), true),
            (changed(3, 10, Accepted), true),
            (stated(4), true),
            (changed(5, 11, Accepted), true),
            (changed(6, 10, Resolved), true),
            (changed(7, 11, Duplicate), true),
            (stated(8), true),
        ];
        let got: Vec<(u32, IssueStatus)> = updates(events)
            .into_iter()
            .map(|u| (u.id, u.status))
            .collect();
        assert_eq!(
            got,
            vec![(4, Open), (5, Accepted), (7, Duplicate), (8, Duplicate)]
        );
    }

    #[test]
    fn events_before_the_window_set_the_status_only() {
        type E = Event<u32>;
        let events = vec![
            (
                E::Changed {
                    id: 1,
                    issue: 10,
                    status: Open,
                },
                false,
            ),
            (
                E::Changed {
                    id: 2,
                    issue: 10,
                    status: Accepted,
                },
                false,
            ),
            (E::Stated { id: 3 }, false),
            (
                E::Changed {
                    id: 4,
                    issue: 10,
                    status: Resolved,
                },
                true,
            ),
        ];
        let got: Vec<(u32, IssueStatus)> = updates(events)
            .into_iter()
            .map(|u| (u.id, u.status))
            .collect();
        assert_eq!(got, vec![(4, Resolved)]);
        assert_eq!(update_status(Resolved), Some("FIXED"));
        assert_eq!(update_status(Moved), None);
    }
}
