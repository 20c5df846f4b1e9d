//! Writes the seed corpora of the fuzz targets: the test suite's own images (built byte by byte,
//! each with Exif GPS, XMP and text metadata) and what is stored of them, into
//! `corpus/<target>/`. Std only, so plain rustc builds it: `fuzz/seeds.sh`.

use std::path::Path;

#[path = "../crates/citizen-api/tests/units/media"]
mod fixtures {
    #![allow(dead_code, unused_imports)]
    #[path = "heif_image.rs"]
    pub mod heif_image;
    #[path = "images.rs"]
    pub mod images;
}

use fixtures::images::{self, ExifPlacement};

fn main() -> std::io::Result<()> {
    let corpus = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus".to_owned());
    let (jpeg, jpeg_clean) = images::jpeg();
    let (scans, scans_clean) = images::jpeg_with_markers_in_scans();
    let (png, png_clean) = images::png();
    let (webp, webp_clean) = images::webp();
    let (heic, heic_clean) = images::heic(ExifPlacement::Mdat);
    let (idat, idat_clean) = images::heic(ExifPlacement::Idat);
    let (from_item, _) = images::heic(ExifPlacement::FromItem);
    let seeds: [(&str, &str, Vec<u8>); 13] = [
        ("strip_jpeg", "exif-xmp-iptc-trailer.jpg", jpeg),
        ("strip_jpeg", "stripped.jpg", jpeg_clean),
        ("strip_jpeg", "markers-in-scans.jpg", scans),
        ("strip_jpeg", "markers-in-scans-stripped.jpg", scans_clean),
        ("strip_png", "exif-text-xmp-trailer.png", png),
        ("strip_png", "stripped.png", png_clean),
        ("strip_webp", "exif-xmp.webp", webp),
        ("strip_webp", "stripped.webp", webp_clean),
        ("strip_heif", "exif-xmp-in-mdat.heic", heic),
        ("strip_heif", "stripped-mdat.heic", heic_clean),
        ("strip_heif", "exif-in-idat.heic", idat),
        ("strip_heif", "stripped-idat.heic", idat_clean),
        ("strip_heif", "exif-from-item.heic", from_item),
    ];
    for (target, name, bytes) in seeds {
        let dir = Path::new(&corpus).join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(())
}
