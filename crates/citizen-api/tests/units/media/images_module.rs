//! Real image files built byte by byte with GPS metadata ([`images`]), as the suites that are
//! not `units` include them: `#[path = "../units/media/images_module.rs"] mod media_images;`.
#![allow(dead_code, unused_imports)] // each suite uses part of them

pub mod heif_image;
pub mod images;
