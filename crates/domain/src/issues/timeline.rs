//! The public timeline of a report (`GET /reports/{reportId}/status`, rule 1).

use super::IssueStatus;

/// One recorded change of an issue's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusChange<Id, Time> {
    pub issue_id: Id,
    pub status: IssueStatus,
    /// When the change happened.
    pub at: Time,
    /// For a change into `duplicate`: the parent issue.
    pub parent: Option<Id>,
}

/// A step of the public timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineStep<'a, Id, Time> {
    pub change: &'a StatusChange<Id, Time>,
    /// The issue whose public statements the step shows: the parent for a duplicate (which has
    /// no public statement of its own), else the issue itself.
    pub statements_of: &'a Id,
}

/// The steps citizens see: only changes into accepted, duplicate or resolved (an open issue has
/// no step, a move is internal), oldest first; changes at the same instant in issue-id order, so
/// the answer is stable.
pub fn public_timeline<Id: Ord, Time: Ord>(
    changes: &[StatusChange<Id, Time>],
) -> Vec<TimelineStep<'_, Id, Time>> {
    let mut steps: Vec<TimelineStep<'_, Id, Time>> = changes
        .iter()
        .filter(|c| c.status.is_public_step())
        .map(|change| TimelineStep {
            change,
            statements_of: match (&change.status, &change.parent) {
                (IssueStatus::Duplicate, Some(parent)) => parent,
                _ => &change.issue_id,
            },
        })
        .collect();
    steps.sort_by(|a, b| {
        (&a.change.at, &a.change.issue_id).cmp(&(&b.change.at, &b.change.issue_id))
    });
    steps
}
