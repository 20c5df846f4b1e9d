//! Real image files built byte by byte, each carrying an Exif block with a GPS position
//! (and other metadata), together with the bytes that must be stored once it is removed.

/// The GPS latitude rationals of the Exif block (50/1, 5/1, 123456/10000): distinctive bytes
/// that must not survive.
pub const GPS_RATIONALS: [u8; 24] = [
    50, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 0x40, 0xE2, 0x01, 0, 0x10, 0x27, 0, 0,
];
pub use super::heif_image::{heic, ExifPlacement};

/// Text in the comment, IPTC, XMP and PNG text metadata.
pub const SECRET: &[u8] = b"Alice Example, Dlouha 12";

/// A little-endian TIFF block with IFD0 (Make, GPSInfo pointer) and a GPS IFD (latitude
/// reference and latitude), preceded by `Exif\0\0` when `with_header`.
pub fn exif(with_header: bool) -> Vec<u8> {
    let mut t = Vec::new();
    if with_header {
        t.extend_from_slice(b"Exif\0\0");
    }
    let base = t.len();
    t.extend_from_slice(b"II*\0");
    t.extend_from_slice(&8u32.to_le_bytes()); // IFD0 at 8
                                              // IFD0: 2 entries.
    t.extend_from_slice(&2u16.to_le_bytes());
    let make_at = 8 + 2 + 2 * 12 + 4; // after IFD0
    ifd_entry(&mut t, 0x010F, 2, 6, make_at as u32); // Make, ASCII
    let gps_at = make_at + 6;
    ifd_entry(&mut t, 0x8825, 4, 1, gps_at as u32); // GPSInfo pointer
    t.extend_from_slice(&0u32.to_le_bytes()); // no IFD1
    t.extend_from_slice(b"Phone\0");
    // GPS IFD: 2 entries.
    t.extend_from_slice(&2u16.to_le_bytes());
    ifd_entry(&mut t, 0x0001, 2, 2, u32::from_le_bytes(*b"N\0\0\0")); // GPSLatitudeRef
    let rationals_at = gps_at + 2 + 2 * 12 + 4;
    ifd_entry(&mut t, 0x0002, 5, 3, rationals_at as u32); // GPSLatitude
    t.extend_from_slice(&0u32.to_le_bytes());
    t.extend_from_slice(&GPS_RATIONALS);
    assert_eq!(t.len() - base, rationals_at + 24);
    t
}

fn ifd_entry(out: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: u32) {
    out.extend_from_slice(&tag.to_le_bytes());
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
}

/// An XMP packet with a GPS position and a creator.
pub fn xmp() -> Vec<u8> {
    let mut x = b"<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF><rdf:Description \
        exif:GPSLatitude='50,5.2N' dc:creator='"
        .to_vec();
    x.extend_from_slice(SECRET);
    x.extend_from_slice(b"'/></rdf:RDF></x:xmpmeta>");
    x
}

/// Whether a part of a file is in the bytes stored once its metadata is removed.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Kept,
    Removed,
}
use Part::{Kept, Removed};

/// `(file, expected)`: every one of `parts` in order, and the bytes that must be stored, the
/// parts kept.
fn file_and_expected(parts: &[(&[u8], Part)]) -> (Vec<u8>, Vec<u8>) {
    let file = parts
        .iter()
        .map(|(bytes, _)| *bytes)
        .collect::<Vec<_>>()
        .concat();
    let expected = parts
        .iter()
        .filter(|(_, part)| *part == Kept)
        .map(|(bytes, _)| *bytes)
        .collect::<Vec<_>>()
        .concat();
    (file, expected)
}

/// A JPEG segment `FF marker` with its length.
fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
    let mut s = vec![0xFF, marker];
    s.extend_from_slice(&u16::try_from(payload.len() + 2).unwrap().to_be_bytes());
    s.extend_from_slice(payload);
    s
}

/// An 8×8 grey baseline JPEG: `(file, expected)` where `file` carries Exif with GPS, XMP,
/// IPTC, a comment, a vendor APP segment and a trailer with another Exif block after EOI, and
/// `expected` is the same image with only APP0 and the decoding segments, byte for byte.
pub fn jpeg() -> (Vec<u8>, Vec<u8>) {
    let app0 = segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    let app1_exif = segment(0xE1, &exif(true));
    let mut xmp_payload = b"http://ns.adobe.com/xap/1.0/\0".to_vec();
    xmp_payload.extend_from_slice(&xmp());
    let app1_xmp = segment(0xE1, &xmp_payload);
    let mut iptc = b"Photoshop 3.0\08BIM\x04\x04\0\0\0\0\0\x1b\x1c\x02\x50\0\x17".to_vec();
    iptc.extend_from_slice(SECRET);
    let app13 = segment(0xED, &iptc);
    let mut comment = b"taken by ".to_vec();
    comment.extend_from_slice(SECRET);
    let com = segment(0xFE, &comment);
    let app12 = segment(0xEC, b"Ducky\0\x01\0\x04\0\0\0\x3c");
    let icc = segment(0xE2, b"ICC_PROFILE\0\x01\x01fake-profile-bytes");
    let mpf = segment(0xE2, b"MPF\0II*\0\x08\0\0\0");
    let dqt = segment(0xDB, &[&[0u8][..], &[1u8; 64]].concat());
    let sof0 = segment(0xC0, &[8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
    // One DC code (category 0) and one AC code (EOB), each one bit long.
    let mut dht_payload = vec![0x00, 1];
    dht_payload.extend_from_slice(&[0; 15]);
    dht_payload.push(0x00);
    dht_payload.extend_from_slice(&[0x10, 1]);
    dht_payload.extend_from_slice(&[0; 15]);
    dht_payload.push(0x00);
    let dht = segment(0xC4, &dht_payload);
    let sos = segment(0xDA, &[1, 1, 0x00, 0, 63, 0]);
    // DC diff 0 then EOB: bits "00", padded with ones.
    let scan = [0x3Fu8];
    let eoi = [0xFF, 0xD9];
    let mut trailer = b"MPF trailer ".to_vec();
    trailer.extend_from_slice(&exif(true));

    file_and_expected(&[
        (&[0xFF, 0xD8], Kept),
        (&app0, Kept),
        (&app1_exif, Removed),
        (&app1_xmp, Removed),
        (&icc, Kept),
        (&mpf, Removed),
        (&app13, Removed),
        (&app12, Removed),
        (&com, Removed),
        (&dqt, Kept),
        (&sof0, Kept),
        (&dht, Kept),
        (&sos, Kept),
        (&scan, Kept),
        (&eoi, Kept),
        (&trailer, Removed),
    ])
}

/// A JPEG whose entropy-coded data holds stuffed `FF 00` bytes, restart markers and fill
/// bytes, and a comment between two scans: `(file, expected)`.
pub fn jpeg_with_markers_in_scans() -> (Vec<u8>, Vec<u8>) {
    let dri = segment(0xDD, &[0, 1]);
    let sof2 = segment(0xC2, &[8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
    let sos = segment(0xDA, &[1, 1, 0x00, 0, 0, 0]);
    let scan1 = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0x00];
    let com = segment(0xFE, b"between scans");
    let sos2 = segment(0xDA, &[1, 1, 0x00, 1, 63, 0]);
    let scan2 = [0xFF, 0x00, 0x78, 0xFF, 0xD1, 0x9A];
    file_and_expected(&[
        (&[0xFF, 0xD8], Kept),
        (&dri, Kept),
        (&sof2, Kept),
        (&sos, Kept),
        (&scan1, Kept),
        (&com, Removed),
        (&sos2, Kept),
        (&scan2, Kept),
        (&[0xFF], Removed), // a fill byte before EOI
        (&[0xFF, 0xD9], Kept),
    ])
}

/// CRC-32 (ISO-HDLC) as PNG uses it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = u32::try_from(data.len()).unwrap().to_be_bytes().to_vec();
    c.extend_from_slice(kind);
    c.extend_from_slice(data);
    let crc = crc32(&[&kind[..], data].concat());
    c.extend_from_slice(&crc.to_be_bytes());
    c
}

/// A 1×1 grey PNG: `(file, expected)` with eXIf (GPS), tEXt, zTXt, iTXt (XMP), tIME and caBX
/// chunks in `file` only, and bytes after IEND.
pub fn png() -> (Vec<u8>, Vec<u8>) {
    let signature = b"\x89PNG\r\n\x1a\n".to_vec();
    let ihdr = png_chunk(b"IHDR", &[0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
    let exif = png_chunk(b"eXIf", &exif(false));
    let text = png_chunk(b"tEXt", &[b"Author\0", SECRET].concat());
    let ztxt = png_chunk(
        b"zTXt",
        b"Comment\0\0\x78\x01\x01\x02\x00\xfd\xff\x41\x42\x00\xc6\x00\x84",
    );
    let itxt = png_chunk(
        b"iTXt",
        &[&b"XML:com.adobe.xmp\0\0\0\0\0"[..], &xmp()].concat(),
    );
    let time = png_chunk(b"tIME", &[0x07, 0xEA, 11, 22, 5, 49, 0]);
    let c2pa = png_chunk(b"caBX", &[&b"jumb c2pa creator: "[..], SECRET].concat());
    let phys = png_chunk(b"pHYs", &[0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1]);
    // zlib, one stored block with the row: filter 0, pixel 0x80.
    let idat = png_chunk(
        b"IDAT",
        &[
            0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x00, 0x80, 0x00, 0x82, 0x00, 0x81,
        ],
    );
    let iend = png_chunk(b"IEND", &[]);
    file_and_expected(&[
        (&signature, Kept),
        (&ihdr, Kept),
        (&exif, Removed),
        (&text, Removed),
        (&phys, Kept),
        (&ztxt, Removed),
        (&itxt, Removed),
        (&time, Removed),
        (&c2pa, Removed),
        (&idat, Kept),
        (&iend, Kept),
        (b"trailing Exif\0\0", Removed),
    ])
}

fn riff_chunk(fourcc: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = fourcc.to_vec();
    c.extend_from_slice(&u32::try_from(data.len()).unwrap().to_le_bytes());
    c.extend_from_slice(data);
    if data.len() % 2 == 1 {
        c.push(0);
    }
    c
}

fn riff(chunks: &[Vec<u8>]) -> Vec<u8> {
    let body = chunks.concat();
    let mut f = b"RIFF".to_vec();
    f.extend_from_slice(&u32::try_from(body.len() + 4).unwrap().to_le_bytes());
    f.extend_from_slice(b"WEBP");
    f.extend_from_slice(&body);
    f
}

/// A 1×1 lossless WebP with VP8X announcing Exif (odd length, padded) and XMP:
/// `(file, expected)`.
pub fn webp() -> (Vec<u8>, Vec<u8>) {
    let vp8x = |flags: u8| riff_chunk(b"VP8X", &[flags, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let vp8l = riff_chunk(
        b"VP8L",
        &[
            0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07,
        ],
    );
    let mut odd_exif = exif(false);
    odd_exif.push(0); // 1 + even length: odd
    let exif = riff_chunk(b"EXIF", &odd_exif);
    let xmp = riff_chunk(b"XMP ", &xmp());
    let file = riff(&[vp8x(0x08 | 0x04), vp8l.clone(), exif, xmp]);
    let expected = riff(&[vp8x(0), vp8l]);
    (file, expected)
}

/// Where `needle` first occurs in `haystack`.
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Every place where `needle` occurs in `haystack`.
fn find_all(haystack: &[u8], needle: &[u8]) -> Vec<usize> {
    (0..haystack.len().saturating_sub(needle.len() - 1))
        .filter(|&at| haystack[at..].starts_with(needle))
        .collect()
}

/// Asserts that no Exif header, GPS pointer tag, GPS rationals or personal text is in `bytes`.
/// (An HEIF `infe` box keeps declaring an item of type `Exif`, followed by its empty name and
/// the next box: that is structure, not data.)
pub fn assert_no_metadata(bytes: &[u8]) {
    let item_types: Vec<usize> = find_all(bytes, b"infe").iter().map(|at| at + 12).collect();
    let exif: Vec<usize> = find_all(bytes, b"Exif\0\0")
        .into_iter()
        .filter(|at| !item_types.contains(at))
        .collect();
    assert_eq!(exif, Vec::<usize>::new(), "Exif header left");
    assert_eq!(find(bytes, &[0x25, 0x88, 4, 0]), None, "GPSInfo tag left");
    assert_eq!(find(bytes, &GPS_RATIONALS), None, "GPS latitude left");
    assert_eq!(find(bytes, SECRET), None, "personal text left");
    assert_eq!(find(bytes, b"GPSLatitude"), None, "XMP GPS left");
}
