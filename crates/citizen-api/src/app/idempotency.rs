//! `Idempotency-Key` on `POST /reports` (the IETF httpapi idempotency-key-header draft;
//! docs/citizen-api/filing.md, "Idempotency-Key"): the scope a key is kept in, how long a claim
//! may stay in progress, and the sweep of expired keys. The header and the claim of a request
//! are the route's (`routes::reports::idempotency`).

use std::net::IpAddr;

use chrono::TimeDelta;
use sha2::{Digest, Sha256};

use super::retention::{in_batches, BATCH};
use crate::store::idempotency::IdempotencyStore;
use crate::store::{Instant, StoreResult};

/// A claim still in progress after this long belongs to a request that died without releasing
/// it (a killed process); a retry then takes it over.
pub const STALE_AFTER: TimeDelta = TimeDelta::minutes(10);

/// SHA-256 of `parts`, in hex.
fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part);
    }
    hex::encode(hash.finalize())
}

/// The scope of a signed-in citizen's keys: a hash of its subject (the table never holds the
/// subject itself).
pub fn scope_of_subject(subject: &str) -> String {
    sha256_hex(&[b"sub\0", subject.as_bytes()])
}

/// The scope of an anonymous client's keys: a hash of its rate-limit key (IPv4 address, IPv6
/// /64), as `crate::rate_limit` identifies a client.
pub fn scope_of_client(client: Option<IpAddr>) -> String {
    sha256_hex(&[
        b"client\0",
        crate::rate_limit::client_key(client).as_bytes(),
    ])
}

/// Deletes the keys started more than `ttl` before `now`; how many.
pub async fn sweep(store: &dyn IdempotencyStore, ttl: TimeDelta, now: Instant) -> StoreResult<u64> {
    let Some(before) = now.checked_sub_signed(ttl) else {
        return Ok(0);
    };
    in_batches(|| store.delete_keys_before(before, BATCH)).await
}
