//! The vote pool (spec section 3, rule 5): every account has the same pool of `max_count`
//! tokens; a token placed on a target (a report or a project) is active until it is revoked or
//! expires, and `available_tokens = max_count - active_tokens` at every instant.
//!
//! The service keeps the arithmetic true under concurrency (one account's places and revokes are
//! serialised in the database); this module says what is allowed and what counts as active.

use thiserror::Error;

use crate::error_code::ErrorCode;
use crate::i18n::Message;

/// The pool every account has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VotePool {
    pub max_count: u32,
}

/// A vote request that cannot be carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum VoteError {
    #[error("count must be at least 1")]
    CountTooSmall,
    #[error("{requested} tokens requested but only {available} available")]
    NotEnoughTokens { requested: u32, available: u32 },
}

impl VoteError {
    /// The error name the API answers with.
    pub const fn code(&self) -> ErrorCode {
        match self {
            Self::CountTooSmall => ErrorCode::ValidationError,
            Self::NotEnoughTokens { .. } => ErrorCode::NotEnoughVoteTokens,
        }
    }

    /// The catalogue text.
    pub fn message(&self) -> Message {
        match self {
            Self::CountTooSmall => Message::new("vote-count-too-small"),
            Self::NotEnoughTokens {
                requested,
                available,
            } => Message::new("vote-not-enough-tokens")
                .arg("requested", requested)
                .arg("available", available),
        }
    }
}

impl VotePool {
    /// Tokens the account may still place while `active` are active.
    pub fn available(&self, active: u32) -> u32 {
        self.max_count.saturating_sub(active)
    }

    /// Placing `count` tokens while `active` are active: all of them or none.
    pub fn check_place(&self, active: u32, count: u32) -> Result<(), VoteError> {
        if count == 0 {
            return Err(VoteError::CountTooSmall);
        }
        let available = self.available(active);
        if count > available {
            return Err(VoteError::NotEnoughTokens {
                requested: count,
                available,
            });
        }
        Ok(())
    }

    /// How many tokens a revoke of `count` takes back when the account has `active_on_target`
    /// active tokens on the target: up to `count`, never more than are active (0 is an answer).
    pub fn revocable(active_on_target: u32, count: u32) -> Result<u32, VoteError> {
        if count == 0 {
            return Err(VoteError::CountTooSmall);
        }
        Ok(count.min(active_on_target))
    }
}

/// When a placed token stops counting (configuration `votes.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpiryRule<Time> {
    /// Active until revoked.
    Never,
    /// Expires this many days after it was placed.
    DaysAfterPlacing(u32),
    /// Expires when the voting period ends.
    PeriodEnd(Time),
}

impl<Time: Copy + Ord> ExpiryRule<Time> {
    /// The expiry of a token placed at `placed_at`; `add_days` does the calendar arithmetic.
    pub fn expires_at(
        &self,
        placed_at: Time,
        add_days: impl Fn(Time, u32) -> Time,
    ) -> Option<Time> {
        match *self {
            Self::Never => None,
            Self::DaysAfterPlacing(days) => Some(add_days(placed_at, days)),
            Self::PeriodEnd(end) => Some(end),
        }
    }
}

/// A token counts at `now` when it is not revoked and has not expired (`expires_at` is the first
/// instant at which it no longer counts).
pub fn is_active<Time: Ord>(revoked: bool, expires_at: Option<Time>, now: Time) -> bool {
    !revoked && expires_at.is_none_or(|end| now < end)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const POOL: VotePool = VotePool { max_count: 10 };

    #[test]
    fn placing_at_and_past_the_edge() {
        assert_eq!(POOL.check_place(0, 10), Ok(()));
        assert_eq!(POOL.check_place(9, 1), Ok(()));
        assert_eq!(
            POOL.check_place(9, 2),
            Err(VoteError::NotEnoughTokens {
                requested: 2,
                available: 1
            })
        );
        assert_eq!(
            POOL.check_place(10, 1).unwrap_err().code(),
            ErrorCode::NotEnoughVoteTokens
        );
        assert_eq!(POOL.check_place(0, 0), Err(VoteError::CountTooSmall));
        // A pool shrunk by configuration below what is active: nothing available, never negative.
        assert_eq!(POOL.available(12), 0);
    }

    #[test]
    fn revoking_takes_back_at_most_what_is_active() {
        assert_eq!(VotePool::revocable(3, 5), Ok(3));
        assert_eq!(VotePool::revocable(3, 2), Ok(2));
        assert_eq!(VotePool::revocable(0, 1), Ok(0));
        assert_eq!(VotePool::revocable(3, 0), Err(VoteError::CountTooSmall));
    }

    #[test]
    fn expiry_rules() {
        let add = |t: i64, days: u32| t + i64::from(days) * 86_400;
        assert_eq!(ExpiryRule::<i64>::Never.expires_at(100, add), None);
        assert_eq!(
            ExpiryRule::DaysAfterPlacing(2).expires_at(100, add),
            Some(172_900)
        );
        assert_eq!(
            ExpiryRule::PeriodEnd(5_000).expires_at(100, add),
            Some(5_000)
        );
        assert!(is_active(false, None, i64::MAX));
        assert!(is_active(false, Some(10), 9));
        assert!(
            !is_active(false, Some(10), 10),
            "expired at the instant itself"
        );
        assert!(!is_active(true, None, 0));
    }

    proptest! {
        #[test]
        fn the_pool_never_goes_over(max in 0u32..50, ops in prop::collection::vec((any::<bool>(), 0u32..8), 0..60)) {
            let pool = VotePool { max_count: max };
            let mut active = 0u32;
            for (place, count) in ops {
                if place {
                    if pool.check_place(active, count).is_ok() {
                        active += count;
                    }
                } else if let Ok(n) = VotePool::revocable(active, count) {
                    prop_assert!(n <= active && n <= count);
                    active -= n;
                }
                prop_assert!(active <= max);
                prop_assert_eq!(pool.available(active) + active, max);
            }
        }
    }
}
