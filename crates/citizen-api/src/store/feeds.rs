//! The rows of one statement that reads both feeds (`ReportStore::feed_changes`, each backend's
//! `feed.rs`), split into the two feeds' answers.

use super::{
    FeedChanges, FeedMark, FeedPositions, IssueChanges, IssueState, StoreResult, VoteChanges,
    VoteState,
};

/// One row of the statement: the feed it belongs to with that feed's mark (every row carries
/// it), and its issue or token (`None` on the row of the mark alone, when nothing changed).
pub(super) enum FeedRow {
    Issues(FeedMark, Option<IssueState>),
    Votes(i64, Option<VoteState>),
}

/// The two feeds' answers from rows read as `FeedRow`s by `read`.
pub(super) fn split_feeds<R>(
    rows: &[R],
    since: FeedPositions,
    read: impl Fn(&R) -> StoreResult<FeedRow>,
) -> StoreResult<FeedChanges> {
    let mut changes = FeedChanges {
        issues: IssueChanges {
            next: since.issues,
            categories: 0,
            issues: Vec::new(),
        },
        votes: VoteChanges {
            next: since.votes,
            tokens: Vec::new(),
        },
    };
    for row in rows {
        match read(row)? {
            FeedRow::Issues(mark, issue) => {
                changes.issues.next = mark.next;
                changes.issues.categories = mark.categories;
                changes.issues.issues.extend(issue);
            }
            FeedRow::Votes(next, token) => {
                changes.votes.next = next;
                changes.votes.tokens.extend(token);
            }
        }
    }
    Ok(changes)
}
