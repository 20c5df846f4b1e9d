//! Metadata removal: what is stored is exactly the image without its metadata, whatever the
//! chunking of the upload.

use citizen_api::media::{MediaType, Stripper};

use super::images::{self, assert_no_metadata, ExifPlacement};
use super::*;

/// Every fixture: (name, file, expected stored bytes).
fn fixtures() -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let (jpeg, jpeg_clean) = images::jpeg();
    let (scans, scans_clean) = images::jpeg_with_markers_in_scans();
    let (png, png_clean) = images::png();
    let (webp, webp_clean) = images::webp();
    let (heic, heic_clean) = images::heic(ExifPlacement::Mdat);
    let (heic_idat, heic_idat_clean) = images::heic(ExifPlacement::Idat);
    vec![
        ("jpeg", jpeg, jpeg_clean),
        ("jpeg-scans", scans, scans_clean),
        ("png", png, png_clean),
        ("webp", webp, webp_clean),
        ("heic", heic, heic_clean),
        ("heic-idat", heic_idat, heic_idat_clean),
    ]
}

#[test]
fn the_fixtures_carry_the_metadata_they_should() {
    for (name, file, _) in fixtures() {
        if name == "jpeg-scans" {
            continue;
        }
        assert!(
            images::find(&file, &images::GPS_RATIONALS).is_some(),
            "{name}"
        );
        assert!(images::find(&file, b"GPSLatitude").is_some(), "{name}");
    }
}

#[test]
fn the_filter_gives_the_same_bytes_for_any_chunking() {
    for (name, file, expected) in fixtures() {
        let media_type = MediaType::sniff(&file[..12]).unwrap();
        for piece in [1, 2, 3, 5, 13, 64, file.len()] {
            let mut stripper = Stripper::new(media_type);
            let mut out = Vec::new();
            for chunk in file.chunks(piece) {
                stripper.feed(chunk, &mut out).unwrap();
            }
            stripper.finish(&mut out).unwrap();
            assert_eq!(out, expected, "{name} in pieces of {piece}");
            assert_no_metadata(&out);
        }
    }
}

#[tokio::test]
async fn stored_photos_carry_no_exif_gps_or_text_and_keep_their_image_bytes() {
    let server = serve();
    for piece in [7, 1000] {
        for (name, file, expected) in fixtures() {
            let media = stored(post(&server, Body::new().file(name, &file), piece).await).await;
            let id = media[0]["media_id"].as_str().unwrap();
            let kept = on_disk(&server, id);
            assert_no_metadata(&kept);
            assert_eq!(kept, expected, "{name} sent in pieces of {piece}");
            assert_eq!(media[0]["size"], kept.len() as u64);
        }
    }
}

#[tokio::test]
async fn pdf_is_stored_as_sent() {
    let server = serve();
    let pdf = b"%PDF-1.4\n1 0 obj << /Author (Alice) >> endobj\ntrailer << >>\n%%EOF\n";
    let media = stored(post(&server, Body::new().file("form.pdf", pdf), 9).await).await;
    assert_eq!(
        on_disk(&server, media[0]["media_id"].as_str().unwrap()),
        pdf
    );
}

#[test]
fn structural_damage_is_reported_per_type() {
    let cases: Vec<(Vec<u8>, MediaType)> = vec![
        // A JPEG segment length below 2.
        (b"\xff\xd8\xff\xe0\x00\x01".to_vec(), MediaType::Jpeg),
        // Bytes between JPEG segments.
        (b"\xff\xd8\xff\xe0\x00\x02XX".to_vec(), MediaType::Jpeg),
        // A PNG chunk type that is not four letters.
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\x00\x00\x01\x02\x03".to_vec(),
            MediaType::Png,
        ),
        // A WebP whose RIFF size runs past the file.
        (b"RIFF\xff\x00\x00\x00WEBPVP8X".to_vec(), MediaType::Webp),
    ];
    for (file, media_type) in cases {
        let mut stripper = Stripper::new(media_type);
        let mut out = Vec::new();
        let result = stripper
            .feed(&file, &mut out)
            .and_then(|()| stripper.finish(&mut out));
        let err = result.unwrap_err();
        assert!(err.to_string().contains("corrupt"), "{media_type:?}: {err}");
    }
}

/// Inputs `make fuzz` found (fuzz/): each must be refused as a 400 of its type, never stored
/// half-stripped and never a panic.
const FUZZ_FOUND: [(&str, &[u8]); 1] = [(
    // The XMP item's extent covered the `ftyp` box: zeroing it erased the brand, and the stored
    // file could no longer be recognised (a 500 on download).
    "heif-xmp-item-over-ftyp.heic",
    include_bytes!("regressions/heif-xmp-item-over-ftyp.heic"),
)];

#[tokio::test]
async fn inputs_found_by_fuzzing_are_refused_with_a_400() {
    let server = serve();
    for (name, file) in FUZZ_FOUND {
        let media_type = MediaType::sniff(&file[..12]).unwrap();
        let mut stripper = Stripper::new(media_type);
        let mut out = Vec::new();
        let err = stripper
            .feed(file, &mut out)
            .and_then(|()| stripper.finish(&mut out))
            .unwrap_err();
        assert!(err.to_string().contains("corrupt"), "{name}: {err}");
        let err = error(post(&server, Body::new().file(name, file), 97).await, 400).await;
        assert_eq!(err.name, "NO_MEDIA", "{name}");
        assert_eq!(files_in(&server.dir), Vec::<String>::new(), "{name}");
    }
}

/// Where the `iloc` entry of the `n`th item (0-based) of the HEIC fixture starts.
fn iloc_entry(file: &[u8], n: usize) -> usize {
    images::find(file, b"iloc").unwrap() + 4 + 8 + 16 * n
}

/// The HEIC fixture's stripper result.
fn strip_heic(file: &[u8]) -> Result<Vec<u8>, citizen_api::media::MediaError> {
    let mut stripper = Stripper::new(MediaType::Heic);
    let mut out = Vec::new();
    stripper.feed(file, &mut out)?;
    stripper.finish(&mut out)?;
    Ok(out)
}

#[test]
fn heif_files_other_readers_could_read_otherwise_are_refused() {
    // The Exif item through data reference 1: a self-contained `dref` entry would put it in
    // this very file, and some readers take the offsets as this file's anyway.
    let (mut file, _) = images::heic(ExifPlacement::Mdat);
    let exif = iloc_entry(&file, 1);
    file[exif + 5] = 1;
    let err = strip_heic(&file).unwrap_err();
    assert!(err.to_string().contains("cannot be removed"), "{err}");

    // An item outside `mdat`: the XMP item over the `ftyp` box.
    let (mut file, _) = images::heic(ExifPlacement::Mdat);
    let xmp = iloc_entry(&file, 2);
    file[xmp + 8..xmp + 12].copy_from_slice(&8u32.to_be_bytes());
    let err = strip_heic(&file).unwrap_err();
    assert!(err.to_string().contains("outside"), "{err}");

    // A second `iloc` (kamadak-exif, for one, takes the last one; we would zero by the first).
    let (file, _) = images::heic(ExifPlacement::Mdat);
    let at = images::find(&file, b"iloc").unwrap() - 4;
    let size = u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let meta = images::find(&file, b"meta").unwrap() - 4;
    let mut twice = [&file[..at + size], &file[at..]].concat();
    let meta_size = u32::from_be_bytes(twice[meta..meta + 4].try_into().unwrap()) + size as u32;
    twice[meta..meta + 4].copy_from_slice(&meta_size.to_be_bytes());
    let err = strip_heic(&twice).unwrap_err();
    assert!(err.to_string().contains("more than one"), "{err}");

    // In `idat` (construction method 1) the data reference does not matter: still zeroed.
    let (mut file, mut expected) = images::heic(ExifPlacement::Idat);
    let exif = iloc_entry(&file, 1);
    file[exif + 5] = 1;
    expected[exif + 5] = 1;
    assert_eq!(strip_heic(&file).unwrap(), expected);
}

#[test]
fn an_heif_iloc_of_empty_extents_takes_linear_time() {
    // 60 000 entries of items that are not metadata, each with 65 535 extents of zero-sized
    // fields: 4·10⁹ extents in under 500 kB, which an extent-by-extent loop took minutes over.
    let (file, _) = images::heic(ExifPlacement::Mdat);
    let iloc = images::find(&file, b"iloc").unwrap() - 4;
    let entries = 60_000u16;
    let mut payload = vec![1, 0, 0, 0, 0x00, 0x00];
    payload.extend_from_slice(&entries.to_be_bytes());
    for id in 0..entries {
        // id, construction method 0, data reference 0, 65 535 extents.
        payload.extend_from_slice(&(1000u16.wrapping_add(id)).to_be_bytes());
        payload.extend_from_slice(&[0, 0, 0, 0, 0xFF, 0xFF]);
    }
    let mut big_iloc = u32::try_from(payload.len() + 8)
        .unwrap()
        .to_be_bytes()
        .to_vec();
    big_iloc.extend_from_slice(b"iloc");
    big_iloc.extend_from_slice(&payload);
    let size = u32::from_be_bytes(file[iloc..iloc + 4].try_into().unwrap()) as usize;
    let mut bloated = [&file[..iloc], &big_iloc, &file[iloc + size..]].concat();
    let meta = images::find(&bloated, b"meta").unwrap() - 4;
    let meta_size = u32::from_be_bytes(bloated[meta..meta + 4].try_into().unwrap()) as usize
        + big_iloc.len()
        - size;
    bloated[meta..meta + 4].copy_from_slice(&u32::try_from(meta_size).unwrap().to_be_bytes());
    let started = std::time::Instant::now();
    // The metadata items have no iloc entry now: nothing to zero, and nothing refused.
    strip_heic(&bloated).unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
