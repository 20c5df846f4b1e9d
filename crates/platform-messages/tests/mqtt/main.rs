//! MQTT change notices against the test environment's Mosquitto (127.0.0.1:1883; skipped with a
//! recorded reason when unreachable, unless REQUIRE_MQTT=1) and against the embedded rumqttd.
//! Every test uses its own random client ids, so topics never collide. Nothing sleeps: tests
//! await the subscriber's next notice (with a timeout as failure guard) and drive the scheduler.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

#[path = "../api/helpers.rs"]
mod helpers;

mod broker;
mod console;
mod notices;
mod tls;
mod websocket;
