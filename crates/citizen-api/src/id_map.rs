//! Maps by id for the replica's in-memory reads (the list index, its vote tally, kept JSON).
//!
//! A page looks up each of its 100 rows in maps of a million ids, each a cache miss. With the
//! standard library's SipHash, hashing one id was about as long as the processor's window of
//! instructions in flight, so each row's miss waited for the row before; with foldhash (the
//! hasher of `hashbrown`, seeded per process) the lookups of a page overlap
//! (docs/benchmarks.md, 2026-11-27). The seed is random per process, so no client can choose
//! ids that collide.

use std::collections::HashMap;

use uuid::Uuid;

/// A map by id with a fast, per-process seeded hasher.
pub type IdMap<V> = HashMap<Uuid, V, foldhash::fast::RandomState>;
