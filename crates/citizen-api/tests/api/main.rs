//! The behaviour suite of citizen-api, run against SQLite and PostgreSQL over real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

mod admin_categories;
mod admin_duplicates;
mod admin_helpers;
mod admin_list;
mod admin_list_edges;
mod admin_list_one_category;
mod admin_lock_order;
mod admin_media_audit;
mod admin_workflow;
mod data_export;
mod delivery_helpers;
mod detail;
mod docs;
mod erasure;
mod filing;
mod filing_anonymous;
mod filing_exif_oracle;
mod filing_limits;
mod helpers;
mod http_cache;
mod json_bodies;
mod list;
mod list_copies;
mod list_edges;
mod list_order;
mod me;
mod migrate;
mod news;
mod news_admin;
mod news_categories;
mod news_demo;
mod news_generation;
mod news_helpers;
mod news_import;
mod news_model;
mod notifications_channels;
mod notifications_crash;
mod notifications_delivery;
mod notifications_delivery_rate;
mod notifications_digest;
mod notifications_email;
mod notifications_events;
mod notifications_feed;
mod notifications_helpers;
mod notifications_news;
mod notifications_push;
mod notifications_settings;
mod privacy_helpers;
mod projects;
mod query_params;
mod retention;
mod status_events;
mod timeline;
mod tokens;
mod vote_list;
mod votes;
mod votes_count;
mod votes_race;

/// Real image files with GPS metadata, shared with the `units` suite.
#[path = "../units/media/images_module.rs"]
mod media_images;
