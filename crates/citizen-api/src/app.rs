//! The use cases: each function owns one script — what is locked and in which order, which
//! `domain` rule decides, what is written — over the store's primitives, inside a transaction
//! the store provides. Routes parse, call one function here and map its answer; the backends
//! under `store` only read and write.
//!
//! Layering (checked by `scripts/check-layering.sh`): routes → app → store → domain; nothing
//! here knows HTTP.

pub mod categories;
pub mod duplicates;
pub mod erasure;
pub mod export;
pub mod filing;
pub mod idempotency;
pub mod news;
pub mod news_categories;
pub mod notifications;
pub mod open311;
pub mod pending_uploads;
pub mod reply_templates;
pub mod retention;
pub mod vote_expiry;
pub mod workflow;
