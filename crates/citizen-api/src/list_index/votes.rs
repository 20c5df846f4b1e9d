//! The vote tally: the active vote tokens of every report and project as the vote feed
//! (migration 0026, `ReportStore::vote_changes`) last read them, so a page from the index
//! counts its rows' votes at the request's instant in memory instead of with a statement.
//!
//! A count needs only how many of a target's tokens expire after the instant, so each target
//! holds its tokens' expiry instants, sorted (a count is one binary search); each held token
//! is named once, so a revoke read later takes one of its target's instants away, and a token
//! placed and revoked between two reads is never counted. Tokens that expire stay held until
//! the next load (none was active at a load that is expired at its instant): they count for
//! nothing, and they take what an active one does (110–170 bytes, docs/operations.md).

use smallvec::SmallVec;
use uuid::Uuid;

use crate::id_map::IdMap;

use crate::store::{Instant, VoteChanges, VoteState};

/// A token that never expires is held as expiring at the end of time.
const NEVER: i64 = i64::MAX;

/// A target's held tokens' expiry instants, ascending. Up to two sit in the map's own slot (as
/// long as a vector's header): nearly every report holds one or two tokens, and a count then
/// reads no memory beyond the slot it found, one cache miss fewer per row of a page.
pub(super) type Expiries = SmallVec<[i64; 2]>;

/// The active tokens by target (module docs).
#[derive(Default)]
pub struct VoteTally {
    /// Each held token's target and expiry (microseconds).
    tokens: IdMap<(Uuid, i64)>,
    /// Each target's held tokens' expiry instants, ascending.
    by_target: IdMap<Expiries>,
    /// The feed position to read from next.
    position: i64,
}

impl VoteTally {
    /// The vote feed position to read from next.
    pub fn position(&self) -> i64 {
        self.position
    }

    /// After a read handed to [`Self::put`] token by token: where it ended.
    pub(super) fn set_position(&mut self, next: i64) {
        self.position = next;
    }

    /// Tokens held (expired ones too, until the next load).
    pub(super) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Applies one read of the feed: each token read replaces what was held of it. Returns the
    /// targets whose held instants changed (once each).
    pub fn apply(&mut self, changes: VoteChanges) -> Vec<Uuid> {
        let mut changed: Vec<Uuid> = changes
            .tokens
            .into_iter()
            .filter_map(|token| self.put(token))
            .collect();
        changed.sort_unstable();
        changed.dedup();
        self.position = changes.next;
        changed
    }

    /// The instants held for `target` (empty when none).
    pub(super) fn expiries(&self, target: &Uuid) -> Expiries {
        self.by_target.get(target).cloned().unwrap_or_default()
    }

    /// Holds `token` as read, in place of what was held of it (a load hands every token here,
    /// then sets the position). Returns its target when what the target holds changed (a
    /// token's target never changes).
    pub(super) fn put(&mut self, token: VoteState) -> Option<Uuid> {
        let expires = token.expires_at.map_or(NEVER, |t| t.timestamp_micros());
        match (self.tokens.get(&token.token_id).copied(), token.revoked) {
            // Read again unchanged (a feed read may bring a token twice).
            (Some(held), false) if held == (token.target_id, expires) => None,
            (Some((target, held)), _) => {
                self.take(target, held);
                if token.revoked {
                    self.tokens.remove(&token.token_id);
                } else {
                    self.hold(token.token_id, token.target_id, expires);
                }
                Some(target)
            }
            (None, false) => {
                self.hold(token.token_id, token.target_id, expires);
                Some(token.target_id)
            }
            // Revoked before this replica held it: it never counted here.
            (None, true) => None,
        }
    }

    fn hold(&mut self, token: Uuid, target: Uuid, expires: i64) {
        self.tokens.insert(token, (target, expires));
        let held = self.by_target.entry(target).or_default();
        let at = held.partition_point(|e| *e <= expires);
        held.insert(at, expires);
    }

    /// Takes one of `target`'s instants equal to `expires` away (any one: they count alike).
    fn take(&mut self, target: Uuid, expires: i64) {
        if let Some(held) = self.by_target.get_mut(&target) {
            if let Ok(at) = held.binary_search(&expires) {
                held.remove(at);
            }
            if held.is_empty() {
                self.by_target.remove(&target);
            }
        }
    }

    /// The active tokens on `target` at `now`: those that expire after it.
    pub fn count(&self, target: Uuid, now: Instant) -> i64 {
        active(self.by_target.get(&target), now.timestamp_micros())
    }
}

/// How many of `held` (a target's expiry instants, ascending) expire after `now`
/// (microseconds).
pub(super) fn active(held: Option<&Expiries>, now: i64) -> i64 {
    held.map_or(0, |held| {
        let expired = held.partition_point(|e| *e <= now);
        // A target holds far fewer than i64::MAX tokens.
        i64::try_from(held.len() - expired).unwrap_or(i64::MAX)
    })
}

#[cfg(test)]
#[path = "votes_tests.rs"]
mod tests;
