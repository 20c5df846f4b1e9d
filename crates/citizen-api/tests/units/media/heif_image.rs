//! An HEIC file built box by box, with Exif and XMP items (see [`heic`]).

use super::images::{exif, find, xmp};

/// Big-endian ISO BMFF box.
fn bmff(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut b = u32::try_from(payload.len() + 8)
        .unwrap()
        .to_be_bytes()
        .to_vec();
    b.extend_from_slice(kind);
    b.extend_from_slice(payload);
    b
}

fn infe(id: u16, kind: &[u8; 4], rest: &[u8]) -> Vec<u8> {
    let payload = [&[2, 0, 0, 0][..], &id.to_be_bytes(), &[0, 0], kind, rest].concat();
    bmff(b"infe", &payload)
}

/// How the Exif item is stored in [`heic`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ExifPlacement {
    /// In `mdat`, construction method 0 (file offsets).
    Mdat,
    /// In `idat`, construction method 1.
    Idat,
    /// Construction method 2 (built from another item): cannot be overwritten.
    FromItem,
}

/// An HEIC: `ftyp heic`, a `meta` with an `hvc1` image item, an `Exif` item and an XMP
/// (`mime`) item, their bytes in `mdat` (or the Exif item in `idat`). Returns
/// `(file, expected)` with the Exif and XMP bytes zeroed in `expected`.
pub fn heic(placement: ExifPlacement) -> (Vec<u8>, Vec<u8>) {
    let ftyp = bmff(b"ftyp", b"heic\0\0\0\0mif1heic");
    let image = b"\x00\x00\x00\x10HEVC-image-data".to_vec();
    let mut exif_item = 6u32.to_be_bytes().to_vec(); // offset to the TIFF header
    exif_item.extend_from_slice(&exif(true));
    let xmp_item = xmp();
    let hdlr = bmff(b"hdlr", &[&[0u8; 8][..], b"pict", &[0; 12], b"\0"].concat());
    let iinf = bmff(
        b"iinf",
        &[
            &[0, 0, 0, 0, 0, 3][..],
            &infe(1, b"hvc1", b"\0"),
            &infe(2, b"Exif", b"\0"),
            &infe(3, b"mime", b"XMP\0application/rdf+xml\0"),
        ]
        .concat(),
    );
    let idat = if placement == ExifPlacement::Idat {
        bmff(b"idat", &exif_item)
    } else {
        Vec::new()
    };
    // iloc v1, offset/length 4 bytes, base offset 0 bytes, index 0 bytes; offsets patched
    // once the layout is known.
    let iloc = |image_at: u32, exif_at: u32, xmp_at: u32| {
        let entry = |id: u16, method: u16, offset: u32, length: usize| {
            [
                &id.to_be_bytes()[..],
                &method.to_be_bytes(),
                &[0, 0], // data reference 0: this file
                &[0, 1], // one extent
                &offset.to_be_bytes(),
                &u32::try_from(length).unwrap().to_be_bytes(),
            ]
            .concat()
        };
        let exif_method = match placement {
            ExifPlacement::Mdat => 0,
            ExifPlacement::Idat => 1,
            ExifPlacement::FromItem => 2,
        };
        bmff(
            b"iloc",
            &[
                &[1, 0, 0, 0, 0x44, 0x00, 0, 3][..],
                &entry(1, 0, image_at, image.len()),
                &entry(2, exif_method, exif_at, exif_item.len()),
                &entry(3, 0, xmp_at, xmp_item.len()),
            ]
            .concat(),
        )
    };
    let meta = |iloc: Vec<u8>| {
        bmff(
            b"meta",
            &[&[0, 0, 0, 0][..], &hdlr, &iinf, &iloc, &idat].concat(),
        )
    };
    let meta_len = meta(iloc(0, 0, 0)).len();
    let mdat_payload_at = u32::try_from(ftyp.len() + meta_len + 8).unwrap();
    let in_mdat = placement != ExifPlacement::Idat;
    let image_at = mdat_payload_at;
    let exif_at = match placement {
        ExifPlacement::Mdat | ExifPlacement::FromItem => image_at + image.len() as u32,
        ExifPlacement::Idat => 0,
    };
    let xmp_at = image_at + image.len() as u32 + if in_mdat { exif_item.len() as u32 } else { 0 };
    let mdat_payload = if in_mdat {
        [&image[..], &exif_item, &xmp_item].concat()
    } else {
        [&image[..], &xmp_item].concat()
    };
    let file = [
        ftyp,
        meta(iloc(image_at, exif_at, xmp_at)),
        bmff(b"mdat", &mdat_payload),
    ]
    .concat();
    let mut expected = file.clone();
    let zero = |bytes: &mut Vec<u8>, at: usize, len: usize| bytes[at..at + len].fill(0);
    if placement == ExifPlacement::Idat {
        let idat_payload = find(&file, b"idat").unwrap() + 4;
        zero(&mut expected, idat_payload, exif_item.len());
    } else {
        zero(&mut expected, exif_at as usize, exif_item.len());
    }
    zero(&mut expected, xmp_at as usize, xmp_item.len());
    (file, expected)
}
