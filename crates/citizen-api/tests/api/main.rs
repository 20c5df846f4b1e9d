//! The behaviour suite of citizen-api, run against SQLite and PostgreSQL over real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

mod detail;
mod docs;
mod filing;
mod filing_anonymous;
mod filing_limits;
mod helpers;
mod list;
mod list_edges;
mod me;
mod timeline;
mod votes;
mod votes_race;

/// Real image files with GPS metadata, shared with the `units` suite.
#[path = "../units/media"]
mod media_images {
    #![allow(dead_code, unused_imports)]
    #[path = "heif_image.rs"]
    pub mod heif_image;
    #[path = "images.rs"]
    pub mod images;
}
