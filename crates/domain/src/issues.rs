//! The issues of a citizen's report (spec section 3): a report is handled as one issue per
//! category; the issues' states give the report its status and its public timeline.
//!
//! - [`next_status`] and [`check_duplicate`]: the officers' transitions, refused with a
//!   [`TransitionError`] (409 `ISSUE_TRANSITION_NOT_ALLOWED`) when the state does not allow them.
//! - [`report_status`]: rules 2 and 3, the least advanced visible issue wins.
//! - [`public_timeline`]: rule 1, and the duplicate rule (a duplicate's step shows the parent's
//!   statements).
//!
//! Times are a type parameter (`chrono::DateTime<Utc>` in the service, integers in tests); ids
//! too. Nothing here reads a clock or a database.

mod timeline;

pub use timeline::{public_timeline, step_statements, StatusChange, TimelineStep};

use crate::error_code::ErrorCode;
use crate::i18n::Message;
use serde::{Deserialize, Serialize};

/// The state of one issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IssueStatus {
    Open,
    Moved,
    Accepted,
    Duplicate,
    Resolved,
}

impl IssueStatus {
    /// Every state, in the spec's order.
    pub const ALL: [IssueStatus; 5] = [
        Self::Open,
        Self::Moved,
        Self::Accepted,
        Self::Duplicate,
        Self::Resolved,
    ];

    /// The wire name (`open`, `moved`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Moved => "moved",
            Self::Accepted => "accepted",
            Self::Duplicate => "duplicate",
            Self::Resolved => "resolved",
        }
    }

    /// How far along the issue is, for the derivation; `None` for moved (it takes no part).
    pub const fn progress(self) -> Option<u8> {
        match self {
            Self::Open => Some(0),
            Self::Accepted => Some(1),
            Self::Duplicate => Some(2),
            Self::Resolved => Some(3),
            Self::Moved => None,
        }
    }

    /// Whether a change into this state is a step of the public timeline (rule 1).
    pub const fn is_public_step(self) -> bool {
        matches!(self, Self::Accepted | Self::Duplicate | Self::Resolved)
    }
}

impl std::fmt::Display for IssueStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for IssueStatus {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == s)
            .ok_or_else(|| UnknownStatus(s.to_owned()))
    }
}

/// A status name that is not one of the five.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown issue status {0:?}: expected open, moved, accepted, duplicate or resolved")]
pub struct UnknownStatus(pub String);

/// An officer's step on one issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// open → accepted.
    Accept,
    /// accepted → resolved (terminal).
    Resolve,
    /// → moved; the service opens a new issue in the target category.
    Move,
    /// → duplicate of a parent issue (see [`check_duplicate`] for the parent's side).
    MarkDuplicate,
}

/// Why a transition is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TransitionError {
    #[error("only an open issue can be accepted; this one is {0}")]
    NotOpen(IssueStatus),
    #[error("only an accepted issue can be resolved; this one is {0}")]
    NotAccepted(IssueStatus),
    #[error("a {0} issue cannot be moved")]
    CannotMove(IssueStatus),
    #[error("a moved issue cannot be marked as a duplicate")]
    MovedCannotBeDuplicate,
    #[error("an issue cannot be a duplicate of itself")]
    DuplicateOfItself,
    #[error("the parent issue is {0}; a duplicate's parent must be open, accepted or resolved")]
    UnsuitableParent(IssueStatus),
}

impl TransitionError {
    /// The error name the API answers with.
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::IssueTransitionNotAllowed
    }

    /// The catalogue text.
    pub fn message(&self) -> Message {
        match self {
            Self::NotOpen(s) => Message::new("issue-not-open").arg("status", s),
            Self::NotAccepted(s) => Message::new("issue-not-accepted").arg("status", s),
            Self::CannotMove(s) => Message::new("issue-cannot-move").arg("status", s),
            Self::MovedCannotBeDuplicate => Message::new("issue-moved-not-duplicate"),
            Self::DuplicateOfItself => Message::new("issue-duplicate-of-itself"),
            Self::UnsuitableParent(s) => Message::new("issue-unsuitable-parent").arg("status", s),
        }
    }
}

/// The state after `transition`, or why it is not allowed.
///
/// - accept: only from open;
/// - resolve: only from accepted (resolved is terminal: nothing leaves it but a duplicate mark);
/// - move: from open, accepted or duplicate (a moved issue was already moved; moving a resolved
///   one would reopen it in the new category, which the spec forbids);
/// - mark duplicate: from any state but moved (the parent is checked by [`check_duplicate`]).
pub fn next_status(
    current: IssueStatus,
    transition: Transition,
) -> Result<IssueStatus, TransitionError> {
    use IssueStatus::*;
    match (transition, current) {
        (Transition::Accept, Open) => Ok(Accepted),
        (Transition::Accept, other) => Err(TransitionError::NotOpen(other)),
        (Transition::Resolve, Accepted) => Ok(Resolved),
        (Transition::Resolve, other) => Err(TransitionError::NotAccepted(other)),
        (Transition::Move, Open | Accepted | Duplicate) => Ok(Moved),
        (Transition::Move, other) => Err(TransitionError::CannotMove(other)),
        (Transition::MarkDuplicate, Moved) => Err(TransitionError::MovedCannotBeDuplicate),
        (Transition::MarkDuplicate, _) => Ok(Duplicate),
    }
}

/// Marking `issue` a duplicate of `parent`: the issue may not be moved, may not be its own
/// parent, and the parent must be a live original (open, accepted or resolved): not moved, and
/// not itself a duplicate, so every duplicate points straight at the issue whose statements and
/// solution it takes over.
pub fn check_duplicate(
    issue: IssueStatus,
    parent: IssueStatus,
    same_issue: bool,
) -> Result<(), TransitionError> {
    if same_issue {
        return Err(TransitionError::DuplicateOfItself);
    }
    next_status(issue, Transition::MarkDuplicate)?;
    match parent {
        IssueStatus::Moved | IssueStatus::Duplicate => {
            Err(TransitionError::UnsuitableParent(parent))
        }
        _ => Ok(()),
    }
}

/// The status of a report from its issues' states (rules 2 and 3): moved issues take no part;
/// the least advanced of the rest wins (open < accepted < duplicate < resolved); a report with
/// no issue but moved ones has no status.
pub fn report_status(issues: impl IntoIterator<Item = IssueStatus>) -> Option<IssueStatus> {
    issues
        .into_iter()
        .filter(|s| s.progress().is_some())
        .min_by_key(|s| s.progress())
}

/// A day of a category's statement deadline: 24 hours, whatever the calendar or time zone
/// (both backends count it so).
pub const DEADLINE_DAY_MICROS: i64 = 86_400_000_000;

/// Whether an issue placed in its category at `placed_at` (microseconds) is past the category's
/// statement deadline of `deadline_days` at `now` (microseconds): it is open or accepted and
/// placed at least the deadline ago. No deadline: never overdue.
pub fn is_overdue(
    status: IssueStatus,
    placed_at: i64,
    deadline_days: Option<u32>,
    now: i64,
) -> bool {
    matches!(status, IssueStatus::Open | IssueStatus::Accepted)
        && deadline_days.is_some_and(|days| {
            // In i128: no deadline a category can hold overflows.
            i128::from(placed_at) + i128::from(days) * i128::from(DEADLINE_DAY_MICROS)
                <= i128::from(now)
        })
}

/// The latest placing instant (microseconds) at which an issue is overdue at `now` under a
/// deadline of `deadline_days`: `is_overdue` of an open or accepted issue is
/// `placed_at <= overdue_cutoff(..)`, so a store can compare the placing instant alone (an
/// index on it answers) instead of computing each issue's deadline.
pub fn overdue_cutoff(deadline_days: u32, now: i64) -> i64 {
    let cutoff = i128::from(now) - i128::from(deadline_days) * i128::from(DEADLINE_DAY_MICROS);
    i64::try_from(cutoff).unwrap_or(i64::MIN)
}

#[cfg(test)]
mod tests;
