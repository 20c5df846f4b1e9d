//! Removes metadata from a WebP held in memory (one file, at most `media.max_file_bytes`).
//!
//! The RIFF container is rebuilt without its `EXIF` and `XMP ` chunks; the RIFF size is set to
//! the new length and the `VP8X` flags no longer announce Exif (bit `0x08`) or XMP (`0x04`).
//! Every other chunk (image data, alpha, animation frames, ICC profile) is kept byte for byte.

use super::{MediaError, MediaType};

const EXIF_FLAG: u8 = 0x08;
const XMP_FLAG: u8 = 0x04;

fn corrupt(why: &'static str) -> MediaError {
    MediaError::Corrupt(MediaType::Webp, why)
}

/// The file without its metadata chunks.
pub fn strip(file: &[u8]) -> Result<Vec<u8>, MediaError> {
    if file.len() < 12 || &file[..4] != b"RIFF" || &file[8..12] != b"WEBP" {
        return Err(corrupt("no RIFF/WEBP header"));
    }
    let declared = u32::from_le_bytes([file[4], file[5], file[6], file[7]]) as usize;
    let end = declared
        .checked_add(8)
        .filter(|&end| end <= file.len())
        .ok_or_else(|| corrupt("RIFF size beyond the end of the file"))?;
    let mut out = Vec::with_capacity(end);
    out.extend_from_slice(&file[..12]);
    let mut at = 12;
    let mut vp8x_flags_at = None;
    while at < end {
        if end - at < 8 {
            return Err(corrupt("truncated chunk header"));
        }
        let fourcc = &file[at..at + 4];
        let size =
            u32::from_le_bytes([file[at + 4], file[at + 5], file[at + 6], file[at + 7]]) as usize;
        let padded = size + (size & 1);
        let next = (at + 8)
            .checked_add(padded)
            .filter(|&next| next <= end || (next == end + 1 && size & 1 == 1))
            .ok_or_else(|| corrupt("chunk beyond the end of the file"))?;
        if fourcc != b"EXIF" && fourcc != b"XMP " {
            if fourcc == b"VP8X" {
                if size < 1 {
                    return Err(corrupt("empty VP8X chunk"));
                }
                vp8x_flags_at = Some(out.len() + 8);
            }
            out.extend_from_slice(&file[at..next.min(end)]);
            if next > end {
                // A last odd chunk without its padding byte: add it.
                out.push(0);
            }
        }
        at = next;
    }
    if let Some(flags) = vp8x_flags_at {
        out[flags] &= !(EXIF_FLAG | XMP_FLAG);
    }
    let riff_size =
        u32::try_from(out.len() - 8).map_err(|_| corrupt("file larger than RIFF allows"))?;
    out[4..8].copy_from_slice(&riff_size.to_le_bytes());
    Ok(out)
}
