#![allow(clippy::unwrap_used)]

use super::*;
use proptest::prelude::*;
use IssueStatus::*;

fn change(id: u32, status: IssueStatus, at: u32, parent: Option<u32>) -> StatusChange<u32, u32> {
    StatusChange {
        issue_id: id,
        status,
        at,
        parent,
    }
}

#[test]
fn statements_go_to_the_step_they_were_made_in() {
    // Issue 2: accepted at 7, resolved at 9. Issue 3: duplicate of 2 at 8. Issue 5 never moved on.
    let changes = vec![
        change(2, Open, 1, None),
        change(2, Accepted, 7, None),
        change(3, Duplicate, 8, Some(2)),
        change(2, Resolved, 9, None),
        change(5, Open, 1, None),
    ];
    let steps = public_timeline(&changes);
    let statements = vec![
        (2, 3),  // 0: while open: the first step (accepted)
        (2, 7),  // 1: at the accept instant: accepted
        (2, 8),  // 2: accepted
        (2, 9),  // 3: resolved
        (2, 12), // 4: resolved
        (3, 8),  // 5: the duplicate's own: never public
        (5, 2),  // 6: an open issue's: never public
    ];
    let got = step_statements(&steps, &statements);
    let statuses: Vec<IssueStatus> = steps.iter().map(|s| s.change.status).collect();
    assert_eq!(statuses, [Accepted, Duplicate, Resolved]);
    assert_eq!(got[0], vec![2, 1, 0], "accepted, newest first");
    assert_eq!(
        got[1],
        vec![4, 3, 2, 1, 0],
        "the duplicate shows all of the parent's"
    );
    assert_eq!(got[2], vec![4, 3]);
}

#[test]
fn same_instant_statements_are_ordered_by_the_later_index_first() {
    let changes = vec![change(1, Accepted, 1, None)];
    let steps = public_timeline(&changes);
    let got = step_statements(&steps, &[(1, 5), (1, 5), (1, 4)]);
    assert_eq!(got, vec![vec![1, 0, 2]]);
}

fn any_status() -> impl Strategy<Value = IssueStatus> {
    prop::sample::select(IssueStatus::ALL.to_vec())
}

proptest! {
    #[test]
    fn every_statement_of_an_issue_with_an_own_step_shows_once_among_its_own_steps(
        raw in prop::collection::vec((0u8..4, any_status(), 0u16..30, prop::option::of(0u8..4)), 0..16),
        said in prop::collection::vec((0u8..4, 0u16..30), 0..16),
    ) {
        let changes: Vec<StatusChange<u8, u16>> = raw
            .into_iter()
            .map(|(issue_id, status, at, parent)| StatusChange { issue_id, status, at, parent })
            .collect();
        let steps = public_timeline(&changes);
        let got = step_statements(&steps, &said);
        prop_assert_eq!(got.len(), steps.len());
        for (i, (issue, _)) in said.iter().enumerate() {
            let own_steps: Vec<usize> = (0..steps.len())
                .filter(|&k| steps[k].change.issue_id == *issue && steps[k].change.status != Duplicate)
                .collect();
            let shown = own_steps.iter().filter(|&&k| got[k].contains(&i)).count();
            prop_assert_eq!(shown, usize::from(!own_steps.is_empty()));
        }
        for (k, step) in steps.iter().enumerate() {
            // Only statements of the issue the step shows, newest first.
            prop_assert!(got[k].iter().all(|&i| &said[i].0 == step.statements_of));
            prop_assert!(got[k].windows(2).all(|w| said[w[0]].1 >= said[w[1]].1));
        }
    }
}
