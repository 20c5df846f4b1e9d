//! The privacy promise checked by an outsider: a photo filed with a GPS position is read back
//! through `GET /media/{id}` and handed to `kamadak-exif`, an Exif reader that shares no code
//! with our strippers and reads JPEG, PNG (`eXIf`), WebP and HEIF. It must find no Exif at all
//! in what is served (docs/citizen-api/filing.md: "GPS positions and other Exif data are
//! removed"), and, as the control that keeps the test from passing vacuously, it must find the
//! GPS latitude in each original as uploaded.

use std::io::Cursor;

use exif::{In, Tag};
use test_support::on_both_backends;

use crate::helpers::{file, form, TestApp};
use crate::media_images::images::{self, ExifPlacement};

on_both_backends!(crate::helpers::spawn_app;
    an_independent_exif_reader_finds_no_gps_in_any_stored_photo,
);

/// What `kamadak-exif` reads from `bytes`: the GPS latitude and the number of fields, or the
/// reader's error.
fn read_exif(bytes: &[u8]) -> Result<(Option<String>, usize), exif::Error> {
    let found = exif::Reader::new().read_from_container(&mut Cursor::new(bytes))?;
    let latitude = found
        .get_field(Tag::GPSLatitude, In::PRIMARY)
        .map(|f| f.display_value().to_string());
    Ok((latitude, found.fields().count()))
}

async fn an_independent_exif_reader_finds_no_gps_in_any_stored_photo(app: TestApp) {
    let token = app.token("citizen-1", &[]);
    let originals = [
        ("IMG_0001.jpg", "image/jpeg", images::jpeg().0),
        ("plan.png", "image/png", images::png().0),
        ("IMG_0002.webp", "image/webp", images::webp().0),
        (
            "IMG_0003.heic",
            "image/heic",
            images::heic(ExifPlacement::Mdat).0,
        ),
    ];
    let mut filing = form("Díra v chodníku", "Před domem č. 5");
    for (name, _, bytes) in &originals {
        // The control: the reader does see the position in what the citizen sends.
        let (latitude, _) = read_exif(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            latitude.as_deref(),
            Some("50 deg 5 min 12.3456 sec"),
            "{name}: the original carries the GPS latitude"
        );
        filing = filing.part("media", file(bytes.clone(), name));
    }
    let (status, _, body) = app.post_report(filing, Some(&token)).await;
    assert_eq!(status, 201, "{body}");
    let media = body["media"].as_array().unwrap();
    assert_eq!(media.len(), originals.len());
    for ((name, mime, _), stored) in originals.iter().zip(media) {
        assert_eq!(stored["media_type"], *mime, "{name}");
        let id = stored["media_id"].as_str().unwrap();
        let served = app.get_response(&format!("/media/{id}")).await;
        assert_eq!(served.status(), 200, "{name}");
        let bytes = served.bytes().await.unwrap();
        match read_exif(&bytes) {
            Err(exif::Error::NotFound(_)) => {}
            // HEIF keeps the Exif item with its bytes zeroed: the reader finds the item but no
            // TIFF header in it.
            Err(exif::Error::InvalidFormat(_)) if *mime == "image/heic" => {}
            other => panic!("{name}: the stored file still has Exif: {other:?}"),
        }
    }
}
