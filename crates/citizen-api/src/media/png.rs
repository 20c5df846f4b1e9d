//! Removes metadata from a PNG while it streams: a chunk parser fed the file piece by piece,
//! holding at most one chunk header.
//!
//! Dropped chunks: `eXIf` (Exif, GPS), `tEXt`, `zTXt`, `iTXt` (free text, XMP), `tIME`, `caBX`
//! (C2PA content credentials, which may name the author).
//! Everything else is kept byte for byte (with its CRC, which covers only the chunk itself, so
//! removing whole chunks needs no recomputation); bytes after `IEND` are dropped.

use super::{MediaError, MediaType};

const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";
const DROPPED: [&[u8; 4]; 6] = [b"eXIf", b"tEXt", b"zTXt", b"iTXt", b"tIME", b"caBX"];

fn corrupt(why: &'static str) -> MediaError {
    MediaError::Corrupt(MediaType::Png, why)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Reading the signature, then each 8-byte chunk header into `header`.
    Header,
    /// Copying `left` bytes of a kept chunk (data and CRC); `last` after `IEND`'s header.
    Copy { left: u64, last: bool },
    /// Skipping `left` bytes of a dropped chunk.
    Skip { left: u64 },
    /// After `IEND`.
    Done,
}

/// The streaming PNG filter; see the module docs.
#[derive(Debug)]
pub struct PngStripper {
    state: State,
    signature_seen: bool,
    header: Vec<u8>,
}

impl Default for PngStripper {
    fn default() -> Self {
        Self::new()
    }
}

impl PngStripper {
    pub fn new() -> Self {
        Self {
            state: State::Header,
            signature_seen: false,
            header: Vec::with_capacity(8),
        }
    }

    /// Filters `input`, appending what is kept to `out`.
    pub fn feed(&mut self, mut input: &[u8], out: &mut Vec<u8>) -> Result<(), MediaError> {
        while !input.is_empty() {
            match self.state {
                State::Done => return Ok(()),
                State::Copy { left, last } => {
                    let n = take(left, input.len());
                    out.extend_from_slice(&input[..n]);
                    input = &input[n..];
                    self.state = match (left - n as u64, last) {
                        (0, true) => State::Done,
                        (0, false) => State::Header,
                        (left, _) => State::Copy { left, last },
                    };
                }
                State::Skip { left } => {
                    let n = take(left, input.len());
                    input = &input[n..];
                    self.state = match left - n as u64 {
                        0 => State::Header,
                        left => State::Skip { left },
                    };
                }
                State::Header => {
                    let n = (8 - self.header.len()).min(input.len());
                    self.header.extend_from_slice(&input[..n]);
                    input = &input[n..];
                    if self.header.len() == 8 {
                        self.header_complete(out)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that the image ended with `IEND`.
    pub fn finish(&self) -> Result<(), MediaError> {
        if self.state == State::Done {
            Ok(())
        } else {
            Err(corrupt("the image ends before its IEND chunk"))
        }
    }

    fn header_complete(&mut self, out: &mut Vec<u8>) -> Result<(), MediaError> {
        let header = std::mem::take(&mut self.header);
        if !self.signature_seen {
            if header.as_slice() != SIGNATURE {
                return Err(corrupt("no PNG signature"));
            }
            self.signature_seen = true;
            out.extend_from_slice(&header);
            self.header = header;
            self.header.clear();
            return Ok(());
        }
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]);
        if length > 0x7FFF_FFFF {
            return Err(corrupt("chunk length over 2^31 - 1"));
        }
        let kind = &header[4..8];
        if !kind.iter().all(u8::is_ascii_alphabetic) {
            return Err(corrupt("chunk type is not four letters"));
        }
        let left = u64::from(length) + 4;
        if DROPPED.iter().any(|d| d.as_slice() == kind) {
            self.state = State::Skip { left };
        } else {
            out.extend_from_slice(&header);
            self.state = State::Copy {
                left,
                last: kind == b"IEND",
            };
        }
        self.header = header;
        self.header.clear();
        Ok(())
    }
}

/// `min(left, available)` as an index.
fn take(left: u64, available: usize) -> usize {
    usize::try_from(left).map_or(available, |left| left.min(available))
}
