#![allow(clippy::unwrap_used)]

use super::*;
use proptest::prelude::*;
use IssueStatus::*;

#[test]
fn every_transition_from_every_state() {
    use Transition::*;
    let table: [(Transition, [Option<IssueStatus>; 5]); 4] = [
        //            open            moved   accepted        duplicate       resolved
        (Accept, [Some(Accepted), None, None, None, None]),
        (Resolve, [None, None, Some(Resolved), None, None]),
        (Move, [Some(Moved), None, Some(Moved), Some(Moved), None]),
        (
            MarkDuplicate,
            [
                Some(Duplicate),
                None,
                Some(Duplicate),
                Some(Duplicate),
                Some(Duplicate),
            ],
        ),
    ];
    for (transition, expected) in table {
        for (from, want) in IssueStatus::ALL.into_iter().zip(expected) {
            let got = next_status(from, transition);
            assert_eq!(got.ok(), want, "{transition:?} from {from}");
            if let Err(err) = got {
                assert_eq!(err.code(), ErrorCode::IssueTransitionNotAllowed);
                assert_eq!(err.code().status(), 409);
                assert!(err.message().key.starts_with("issue-"), "{err}");
            }
        }
    }
}

#[test]
fn resolved_is_terminal_except_for_a_duplicate_mark() {
    for t in [Transition::Accept, Transition::Resolve, Transition::Move] {
        assert!(next_status(Resolved, t).is_err(), "{t:?}");
    }
}

#[test]
fn duplicate_parents() {
    assert_eq!(
        check_duplicate(Open, Open, true),
        Err(TransitionError::DuplicateOfItself)
    );
    assert_eq!(
        check_duplicate(Moved, Open, false),
        Err(TransitionError::MovedCannotBeDuplicate)
    );
    for parent in [Moved, Duplicate] {
        assert_eq!(
            check_duplicate(Open, parent, false),
            Err(TransitionError::UnsuitableParent(parent))
        );
    }
    for parent in [Open, Accepted, Resolved] {
        for issue in [Open, Accepted, Duplicate, Resolved] {
            assert_eq!(
                check_duplicate(issue, parent, false),
                Ok(()),
                "{issue} of {parent}"
            );
        }
    }
}

#[test]
fn derivation_table() {
    let cases: &[(&[IssueStatus], Option<IssueStatus>)] = &[
        (&[], None),
        (&[Moved], None),
        (&[Moved, Moved], None),
        (&[Open], Some(Open)),
        (&[Resolved, Open], Some(Open)),
        (&[Resolved, Accepted, Duplicate], Some(Accepted)),
        (&[Resolved, Duplicate], Some(Duplicate)),
        (&[Resolved, Resolved, Moved], Some(Resolved)),
        (&[Moved, Accepted], Some(Accepted)),
    ];
    for (issues, want) in cases {
        assert_eq!(report_status(issues.iter().copied()), *want, "{issues:?}");
    }
}

#[test]
fn names_round_trip() {
    for s in IssueStatus::ALL {
        assert_eq!(s.as_str().parse::<IssueStatus>(), Ok(s));
    }
    assert!("Open".parse::<IssueStatus>().is_err());
}

#[test]
fn timeline_of_a_report_with_several_issues() {
    let change = |id: u32, status, at: u32, parent: Option<u32>| StatusChange {
        issue_id: id,
        status,
        at,
        parent,
    };
    let changes = vec![
        change(1, Open, 0, None),
        change(1, Moved, 5, None),
        change(2, Open, 5, None),
        change(2, Accepted, 7, None),
        change(3, Open, 1, None),
        change(3, Duplicate, 6, Some(9)),
        change(2, Resolved, 9, None),
        change(4, Accepted, 7, None),
    ];
    let steps = public_timeline(&changes);
    let seen: Vec<(u32, IssueStatus, u32, u32)> = steps
        .iter()
        .map(|s| {
            (
                s.change.issue_id,
                s.change.status,
                s.change.at,
                *s.statements_of,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (3, Duplicate, 6, 9),
            (2, Accepted, 7, 2),
            (4, Accepted, 7, 4),
            (2, Resolved, 9, 2)
        ]
    );
}

fn any_status() -> impl Strategy<Value = IssueStatus> {
    prop::sample::select(IssueStatus::ALL.to_vec())
}

proptest! {
    #[test]
    fn derivation_properties(issues in prop::collection::vec(any_status(), 0..12)) {
        let derived = report_status(issues.iter().copied());
        let visible: Vec<IssueStatus> = issues.iter().copied().filter(|s| *s != Moved).collect();
        // Moved issues never count, and no visible issue means no status.
        prop_assert_eq!(derived.is_none(), visible.is_empty());
        prop_assert_ne!(derived, Some(Moved));
        if let Some(status) = derived {
            // The result is one of the visible states and no visible issue is less advanced.
            prop_assert!(visible.contains(&status));
            prop_assert!(visible.iter().all(|s| s.progress() >= status.progress()));
        }
        // Resolved only when every visible issue is resolved.
        prop_assert_eq!(
            derived == Some(Resolved),
            !visible.is_empty() && visible.iter().all(|s| *s == Resolved)
        );
        // Order does not matter.
        let mut reversed = issues.clone();
        reversed.reverse();
        prop_assert_eq!(report_status(reversed), derived);
    }

    #[test]
    fn timeline_properties(
        raw in prop::collection::vec((0u8..5, any_status(), 0u16..50, prop::option::of(0u8..5)), 0..20)
    ) {
        let changes: Vec<StatusChange<u8, u16>> = raw
            .into_iter()
            .map(|(issue_id, status, at, parent)| StatusChange { issue_id, status, at, parent })
            .collect();
        let steps = public_timeline(&changes);
        prop_assert_eq!(
            steps.len(),
            changes.iter().filter(|c| c.status.is_public_step()).count()
        );
        prop_assert!(steps.iter().all(|s| !matches!(s.change.status, Open | Moved)));
        let ordered = steps.windows(2).all(|w| {
            (w[0].change.at, w[0].change.issue_id) <= (w[1].change.at, w[1].change.issue_id)
        });
        prop_assert!(ordered);
        for step in &steps {
            let expected = match (step.change.status, step.change.parent.as_ref()) {
                (Duplicate, Some(parent)) => parent,
                _ => &step.change.issue_id,
            };
            prop_assert_eq!(step.statements_of, expected);
        }
    }
}

#[test]
fn overdue_is_open_or_accepted_past_the_deadline_counted_in_24_hours() {
    const DAY: i64 = DEADLINE_DAY_MICROS;
    let placed = 1_700_000_000_000_000;
    let cases = [
        // (status, deadline days, now after placement, overdue)
        (IssueStatus::Open, Some(3), 3 * DAY, true),
        (IssueStatus::Open, Some(3), 3 * DAY - 1, false),
        (IssueStatus::Accepted, Some(3), 3 * DAY, true),
        (IssueStatus::Accepted, Some(3), 10 * DAY, true),
        (IssueStatus::Resolved, Some(3), 10 * DAY, false),
        (IssueStatus::Duplicate, Some(3), 10 * DAY, false),
        (IssueStatus::Moved, Some(3), 10 * DAY, false),
        (IssueStatus::Open, None, 10_000 * DAY, false),
        (IssueStatus::Open, Some(0), 0, true),
        (IssueStatus::Open, Some(0), -1, false),
        (IssueStatus::Open, Some(u32::MAX), i64::MAX - placed, false),
    ];
    for (status, days, after, want) in cases {
        assert_eq!(
            is_overdue(status, placed, days, placed + after),
            want,
            "{status:?} {days:?} {after}"
        );
    }
}

#[test]
fn the_overdue_cutoff_compares_the_placing_instant_alone() {
    const DAY: i64 = DEADLINE_DAY_MICROS;
    let now = 1_700_000_000_000_000;
    // (deadline days, placed before now): an open issue is overdue exactly when
    // placed_at <= overdue_cutoff, at the edge, either side of it, and at the extremes.
    let cases = [
        (3, 3 * DAY),
        (3, 3 * DAY - 1),
        (3, 3 * DAY + 1),
        (1, 0),
        (30, 400 * DAY),
        (u32::MAX, i64::MAX / 4),
        (u32::MAX, 0),
    ];
    for (days, before) in cases {
        let placed = now - before;
        assert_eq!(
            placed <= overdue_cutoff(days, now),
            is_overdue(IssueStatus::Open, placed, Some(days), now),
            "{days} days, placed {before} µs before now"
        );
    }
    assert_eq!(overdue_cutoff(3, now), now - 3 * DAY);
    assert_eq!(overdue_cutoff(u32::MAX, i64::MIN + 1), i64::MIN);
}
