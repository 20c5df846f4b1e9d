//! The tally against a brute-force oracle: random places and revokes, read in random batches
//! with tokens read again unchanged (as a PostgreSQL feed read may), counted at random instants
//! as the database's `count(*)` of the active tokens would count them.

use std::collections::HashMap;

use chrono::{DateTime, TimeDelta, Utc};
use test_support::XorShift;
use uuid::Uuid;

use super::VoteTally;
use crate::store::{VoteChanges, VoteState};

fn at(second: i64) -> DateTime<Utc> {
    DateTime::<Utc>::UNIX_EPOCH + TimeDelta::seconds(1_700_000_000 + second)
}

/// The active tokens on `target` at `now`, as the database counts them.
fn counted(tokens: &HashMap<Uuid, VoteState>, target: Uuid, now: DateTime<Utc>) -> i64 {
    tokens
        .values()
        .filter(|t| t.target_id == target && !t.revoked && t.expires_at.is_none_or(|e| e > now))
        .count() as i64
}

#[test]
fn counts_equal_the_databases_over_random_places_and_revokes() {
    let targets: Vec<Uuid> = (1..=4).map(Uuid::from_u128).collect();
    for seed in 1..=40u64 {
        let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut database: HashMap<Uuid, VoteState> = HashMap::new();
        let mut tally = VoteTally::default();
        let mut unread: Vec<Uuid> = Vec::new();
        let mut next_token = 100u128;
        for round in 0..30 {
            for _ in 0..rng.below(6) {
                if rng.below(3) > 0 || database.is_empty() {
                    next_token += 1;
                    let token = Uuid::from_u128(next_token);
                    // Few distinct instants: equal expiries on one target are common.
                    let expires_at = (rng.below(4) > 0).then(|| at(rng.below(8) as i64));
                    let target = targets[rng.below(targets.len())];
                    database.insert(
                        token,
                        VoteState {
                            token_id: token,
                            target_id: target,
                            expires_at,
                            revoked: false,
                        },
                    );
                    unread.push(token);
                } else {
                    let ids: Vec<Uuid> = database.keys().copied().collect();
                    let token = ids[rng.below(ids.len())];
                    if let Some(state) = database.get_mut(&token) {
                        state.revoked = true;
                    }
                    unread.push(token);
                }
            }
            // A read brings every token written since, and some held ones again.
            let mut read: Vec<VoteState> = unread
                .drain(..)
                .filter_map(|t| database.get(&t).cloned())
                .collect();
            for state in database.values() {
                if rng.below(8) == 0 {
                    read.push(state.clone());
                }
            }
            tally.apply(VoteChanges {
                next: round + 1,
                tokens: read,
            });
            assert_eq!(tally.position(), round + 1);
            for second in [-1, 0, 3, 7, 8] {
                let want: Vec<i64> = targets
                    .iter()
                    .map(|target| counted(&database, *target, at(second)))
                    .collect();
                let got: Vec<i64> = targets
                    .iter()
                    .map(|target| tally.count(*target, at(second)))
                    .collect();
                assert_eq!(got, want, "seed {seed}, round {round}, {second} s");
            }
        }
        let active = database.values().filter(|t| !t.revoked).count();
        assert_eq!(
            tally.len(),
            active,
            "seed {seed}: every active token held once"
        );
    }
}

#[test]
fn a_token_placed_and_revoked_between_reads_never_counts() {
    let target = Uuid::from_u128(1);
    let mut tally = VoteTally::default();
    tally.apply(VoteChanges {
        next: 3,
        tokens: vec![VoteState {
            token_id: Uuid::from_u128(9),
            target_id: target,
            expires_at: None,
            revoked: true,
        }],
    });
    assert_eq!(tally.count(target, at(0)), 0);
    assert_eq!(tally.len(), 0);
    assert_eq!(tally.position(), 3);
}

#[test]
fn a_token_counts_until_the_instant_it_expires() {
    let target = Uuid::from_u128(1);
    let mut tally = VoteTally::default();
    let token = |n: u128, expires_at| VoteState {
        token_id: Uuid::from_u128(n),
        target_id: target,
        expires_at,
        revoked: false,
    };
    tally.apply(VoteChanges {
        next: 1,
        tokens: vec![
            token(1, Some(at(10))),
            token(2, None),
            token(3, Some(at(10))),
        ],
    });
    assert_eq!(tally.count(target, at(0)), 3);
    let just_before = at(10) - TimeDelta::microseconds(1);
    assert_eq!(tally.count(target, just_before), 3);
    assert_eq!(tally.count(target, at(10)), 1);
    assert_eq!(tally.count(Uuid::from_u128(2), at(0)), 0);
}
