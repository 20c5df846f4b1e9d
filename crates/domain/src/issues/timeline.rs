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

impl<Id, Time> StatusChange<Id, Time> {
    /// An issue opened (a report filed, an issue moved to or opened in a category).
    pub fn opened(issue_id: Id, at: Time) -> Self {
        Self {
            issue_id,
            status: IssueStatus::Open,
            at,
            parent: None,
        }
    }
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

/// Which statements each step shows (indexes into `statements`, newest first; ties by the
/// later index first).
///
/// - A duplicate's step shows every statement of its parent (the duplicate has none of its own
///   in public).
/// - Any other step of an issue shows the statements that issue received from that step until
///   its next own step; statements made before the issue's first step (while it was still open)
///   belong to that first step. So every statement of an issue with a public step shows exactly
///   once among its own steps, and a statement of an issue that never moved on shows nowhere.
///
/// `statements` are `(issue id, time)` pairs.
pub fn step_statements<Id: Ord, Time: Ord>(
    steps: &[TimelineStep<'_, Id, Time>],
    statements: &[(Id, Time)],
) -> Vec<Vec<usize>> {
    let own = |s: &TimelineStep<'_, Id, Time>| s.change.status != IssueStatus::Duplicate;
    let mut out: Vec<Vec<usize>> = steps
        .iter()
        .map(|step| {
            if own(step) {
                return Vec::new();
            }
            (0..statements.len())
                .filter(|&i| &statements[i].0 == step.statements_of)
                .collect()
        })
        .collect();
    for (i, (issue, at)) in statements.iter().enumerate() {
        // Steps are in time order, so the last own step at or before `at` is the one; before
        // the first, the first.
        let mut target = None;
        for (k, step) in steps.iter().enumerate() {
            if !own(step) || &step.change.issue_id != issue {
                continue;
            }
            if target.is_none() || &step.change.at <= at {
                target = Some(k);
            }
        }
        if let Some(k) = target {
            out[k].push(i);
        }
    }
    for indexes in &mut out {
        indexes.sort_by(|&a, &b| (&statements[b].1, b).cmp(&(&statements[a].1, a)));
    }
    out
}

#[cfg(test)]
mod tests;
