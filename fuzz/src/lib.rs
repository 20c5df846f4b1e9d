//! What every fuzz target checks: the properties the metadata strippers must have for *any*
//! bytes a client may send, whatever they claim to be.
//!
//! For one [`MediaType`] and one input, [`check`] runs the service's own entry point
//! ([`Stripper`], as `MediaStore::store_upload` does) and asserts that
//!
//! - it never panics (libFuzzer reports a panic as a crash), and its time and memory stay
//!   bounded (`-timeout`, `-rss_limit_mb`, set by `make fuzz`);
//! - a refusal is one the HTTP layer answers with a 400: [`MediaError::Corrupt`] or
//!   [`MediaError::MetadataNotRemovable`] of this type, never anything else;
//! - the outcome does not depend on how the upload was cut into chunks (the JPEG and PNG filters
//!   stream): the whole file and the same file in pieces of 1 to 64 bytes give the same bytes,
//!   or both are refused;
//! - what would be stored still starts like the type it was recognised as (so
//!   `MediaStore::open` recognises it again);
//! - stripping what would be stored again changes nothing (nothing was left to remove);
//! - the oracle: `kamadak-exif`, an Exif reader independent of ours that reads JPEG, PNG,
//!   WebP and HEIF, finds no Exif at all in what would be stored.

use std::io::Cursor;

use citizen_api::media::{MediaError, MediaType, Stripper, SNIFF_LEN};

/// Asserts the properties above for `data` given to the stripper of `media_type`. For HEIF the
/// service picks `Heic` or `Heif` by the brand; here the brand decides too when there is one.
pub fn check(media_type: MediaType, data: &[u8]) {
    let sniffed = MediaType::sniff(&data[..data.len().min(SNIFF_LEN)]);
    let media_type = match (media_type, sniffed) {
        (MediaType::Heif, Some(MediaType::Heic)) => MediaType::Heic,
        _ => media_type,
    };
    let whole = strip(media_type, &[data]);
    let pieces = pieces(data);
    let chunked = strip(media_type, &pieces);
    match (&whole, &chunked) {
        (Ok(a), Ok(b)) => assert!(a == b, "chunking changed the stored bytes"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "chunking changed the outcome: whole {:?}, in {} pieces {:?}",
            a.as_ref().map(Vec::len),
            pieces.len(),
            b.as_ref().map(Vec::len)
        ),
    }
    let stored = match whole {
        Ok(stored) => stored,
        Err(err) => {
            assert!(
                matches!(
                    err,
                    MediaError::Corrupt(t, _) | MediaError::MetadataNotRemovable(t, _)
                        if t == media_type
                ),
                "a refusal that is not a 400 of this type: {err:?}"
            );
            return;
        }
    };
    if sniffed == Some(media_type) {
        let head = &stored[..stored.len().min(SNIFF_LEN)];
        assert_eq!(
            MediaType::sniff(head),
            Some(media_type),
            "the stored file no longer starts like its type"
        );
    }
    match strip(media_type, &[&stored]) {
        Ok(again) => assert!(
            again == stored,
            "stripping the stored file again changed it"
        ),
        Err(err) => panic!("the stored file is refused when stripped again: {err:?}"),
    }
    if let Ok(found) = exif::Reader::new().read_from_container(&mut Cursor::new(&stored)) {
        let fields: Vec<String> = found
            .fields()
            .map(|f| format!("{} {}", f.ifd_num, f.tag))
            .collect();
        panic!("kamadak-exif reads Exif in the stored file: {fields:?}");
    }
}

/// The bytes the stripper of `media_type` stores for the file made of `pieces`.
pub fn strip(media_type: MediaType, pieces: &[&[u8]]) -> Result<Vec<u8>, MediaError> {
    let mut stripper = Stripper::new(media_type);
    let mut out = Vec::new();
    for piece in pieces {
        stripper.feed(piece, &mut out)?;
    }
    stripper.finish(&mut out)?;
    Ok(out)
}

/// `data` cut into pieces of 1 to 64 bytes, the cuts drawn from a generator seeded with the
/// data itself (so a crash replays from the input file alone).
fn pieces(data: &[u8]) -> Vec<&[u8]> {
    // FNV-1a, then xorshift64.
    let mut state = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) | 1;
    let mut rest = data;
    let mut pieces = Vec::new();
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let n = (1 + (state % 64) as usize).min(rest.len());
        let (piece, tail) = rest.split_at(n);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}
