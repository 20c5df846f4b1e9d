//! streets-api: the city's street geometries, public and read-only.
//!
//! `GET {base}/streets` (name search, radius search, paging) and `GET {base}/streets/{streetId}`
//! serve GeoJSON features in WGS84. Data arrives through `streets-api import FILE`, which
//! reprojects and validates the city's file and replaces the whole data set atomically.

pub mod cli;
pub mod demo;
pub mod import;
pub mod model;
pub mod ogc;
pub mod progress;
pub mod routes;
pub mod settings;
pub mod startup;
pub mod store;

pub use settings::Settings;
pub use startup::Application;
