//! The fault suite (issue 36): citizen-api's own binary on a PostgreSQL cluster and a Mosquitto
//! of the suite's own (never the machine's shared ones), under faults, each case a test that
//! fails when a promise breaks: nothing acknowledged is lost, nothing hangs.
//!
//! Not part of `make test`: `make faults` runs it (and `.ci/run`, with a bounded time), one
//! case at a time (`harness::one_case_at_a_time`), but for the digest's, which mostly waits for
//! a minute of the wall clock and runs beside the others. Each case prints its counts (requests sent, acknowledged, refused with 503,
//! found afterwards, lost, delivered twice); see them with `make faults` (`--nocapture`).
//! Without PostgreSQL's server binaries or Mosquitto the cases are skipped (and say so), or fail
//! under `REQUIRE_POSTGRES=1` / `REQUIRE_MQTT=1`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

mod broker_kill;
mod database_restart;
mod deliveries;
mod delivery_setup;
mod floods;
mod harness;
mod killed_filing;
mod replicas;
mod sigterm;

/// Real image files with GPS metadata, shared with the `units` suite.
#[path = "../units/media/images_module.rs"]
mod media_images;
