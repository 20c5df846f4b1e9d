//! Removes metadata from a JPEG while it streams: a segment parser that is fed the file chunk
//! by chunk and never holds more than one segment header.
//!
//! Kept: every segment a decoder needs (SOF, DHT, DQT, DRI, SOS and the entropy-coded data,
//! restart markers, DNL, EXP, …), `APP0` (JFIF/JFXX), `APP2` with an ICC profile (colours) and
//! `APP14` (Adobe: colour transform). Dropped: `APP1` (Exif with GPS, XMP), `APP13`
//! (IPTC/Photoshop), every other `APPn` (vendor metadata, `APP2` MPF), `COM`, and whatever
//! follows the end-of-image marker (multi-picture trailers carry a second image with its own
//! Exif). The Exif orientation goes too: clients should rotate photos before upload.

use super::{MediaError, MediaType};

fn corrupt(why: &'static str) -> MediaError {
    MediaError::Corrupt(MediaType::Jpeg, why)
}

/// Identifier bytes of an `APPn` segment read before deciding whether to keep it.
const IDENT_LEN: usize = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Expecting `FF D8`; holds how many of the two bytes were seen.
    Start(u8),
    /// Expecting the `FF` that starts a marker.
    MarkerPrefix,
    /// Expecting the marker code (after one or more `FF`).
    MarkerCode,
    /// Reading the two length bytes of `marker`'s segment.
    Length { marker: u8, hi: Option<u8> },
    /// Reading up to [`IDENT_LEN`] identifier bytes of an `APPn` segment of `left` payload bytes.
    Ident { marker: u8, left: usize },
    /// Copying `left` more bytes of a kept segment; `then_scan` after an SOS header.
    Copy { left: usize, then_scan: bool },
    /// Skipping `left` more bytes of a dropped segment.
    Skip { left: usize },
    /// In entropy-coded data; `ff` when the last byte was an `FF` not yet written.
    Scan { ff: bool },
    /// After `EOI`: everything else is dropped.
    Done,
}

/// The streaming JPEG filter; see the module docs.
#[derive(Debug)]
pub struct JpegStripper {
    state: State,
    /// Header bytes of the segment being decided (`FF`, marker, length, identifier).
    header: Vec<u8>,
}

impl Default for JpegStripper {
    fn default() -> Self {
        Self::new()
    }
}

impl JpegStripper {
    pub fn new() -> Self {
        Self {
            state: State::Start(0),
            header: Vec::with_capacity(4 + IDENT_LEN),
        }
    }

    /// Filters `input`, appending what is kept to `out`.
    pub fn feed(&mut self, mut input: &[u8], out: &mut Vec<u8>) -> Result<(), MediaError> {
        while !input.is_empty() {
            input = self.step(input, out)?;
        }
        Ok(())
    }

    /// Checks that the image ended with `EOI`.
    pub fn finish(&self) -> Result<(), MediaError> {
        if self.state == State::Done {
            Ok(())
        } else {
            Err(corrupt("the image ends before its end-of-image marker"))
        }
    }

    /// Consumes a prefix of `input`; returns the rest.
    fn step<'a>(&mut self, input: &'a [u8], out: &mut Vec<u8>) -> Result<&'a [u8], MediaError> {
        match self.state {
            State::Copy { left, then_scan } => {
                let n = left.min(input.len());
                out.extend_from_slice(&input[..n]);
                self.state = match (left - n, then_scan) {
                    (0, true) => State::Scan { ff: false },
                    (0, false) => State::MarkerPrefix,
                    (left, _) => State::Copy { left, then_scan },
                };
                return Ok(&input[n..]);
            }
            State::Skip { left } => {
                let n = left.min(input.len());
                self.state = match left - n {
                    0 => State::MarkerPrefix,
                    left => State::Skip { left },
                };
                return Ok(&input[n..]);
            }
            State::Scan { ff } => return Ok(self.scan(ff, input, out)),
            State::Done => return Ok(&[]),
            _ => {}
        }
        let byte = input[0];
        self.state = match self.state {
            State::Start(0) if byte == 0xFF => State::Start(1),
            State::Start(1) if byte == 0xD8 => {
                out.extend_from_slice(&[0xFF, 0xD8]);
                State::MarkerPrefix
            }
            State::Start(_) => return Err(corrupt("no start-of-image marker")),
            State::MarkerPrefix if byte == 0xFF => State::MarkerCode,
            State::MarkerPrefix => return Err(corrupt("bytes between segments")),
            State::MarkerCode => self.marker(byte, out)?,
            State::Length { marker, hi: None } => State::Length {
                marker,
                hi: Some(byte),
            },
            State::Length {
                marker,
                hi: Some(hi),
            } => self.length(marker, u16::from_be_bytes([hi, byte]), out)?,
            State::Ident { marker, left } => {
                self.header.push(byte);
                let read = self.header.len() - 4;
                if read == IDENT_LEN.min(left) {
                    self.decide(marker, left - read, out)
                } else {
                    State::Ident { marker, left }
                }
            }
            State::Copy { .. } | State::Skip { .. } | State::Scan { .. } | State::Done => {
                return Err(corrupt("parser state"));
            }
        };
        Ok(&input[1..])
    }

    /// After `FF`: the marker code.
    fn marker(&mut self, code: u8, out: &mut Vec<u8>) -> Result<State, MediaError> {
        Ok(match code {
            // Fill bytes before a marker.
            0xFF => State::MarkerCode,
            0xD9 => {
                out.extend_from_slice(&[0xFF, 0xD9]);
                State::Done
            }
            // TEM and restart markers stand alone.
            0x01 | 0xD0..=0xD7 => {
                out.extend_from_slice(&[0xFF, code]);
                State::MarkerPrefix
            }
            0x00 | 0xD8 => return Err(corrupt("unexpected marker")),
            _ => State::Length {
                marker: code,
                hi: None,
            },
        })
    }

    /// After the length of `marker`'s segment (which counts its own two bytes).
    fn length(&mut self, marker: u8, length: u16, out: &mut Vec<u8>) -> Result<State, MediaError> {
        let Some(payload) = usize::from(length).checked_sub(2) else {
            return Err(corrupt("segment length below 2"));
        };
        self.header.clear();
        self.header.extend_from_slice(&[0xFF, marker]);
        self.header.extend_from_slice(&length.to_be_bytes());
        Ok(match marker {
            0xE0..=0xEF if payload > 0 => State::Ident {
                marker,
                left: payload,
            },
            _ => self.decide(marker, payload, out),
        })
    }

    /// Keeps or drops the segment whose header (and identifier) is in `self.header`, with
    /// `left` payload bytes still to come.
    fn decide(&mut self, marker: u8, left: usize, out: &mut Vec<u8>) -> State {
        let ident = &self.header[4..];
        let keep = match marker {
            0xE0 => true,
            0xE2 => ident.starts_with(b"ICC_PROFILE\0"),
            0xEE => ident.starts_with(b"Adobe"),
            0xE1 | 0xE3..=0xED | 0xEF | 0xFE => false,
            _ => true,
        };
        if !keep {
            return match left {
                0 => State::MarkerPrefix,
                left => State::Skip { left },
            };
        }
        out.extend_from_slice(&self.header);
        let then_scan = marker == 0xDA;
        match (left, then_scan) {
            (0, true) => State::Scan { ff: false },
            (0, false) => State::MarkerPrefix,
            (left, then_scan) => State::Copy { left, then_scan },
        }
    }

    /// Entropy-coded data: copied up to the next marker that is not a restart marker or a
    /// stuffed `FF 00`.
    fn scan<'a>(&mut self, mut ff: bool, input: &'a [u8], out: &mut Vec<u8>) -> &'a [u8] {
        let mut i = 0;
        while i < input.len() {
            let byte = input[i];
            if ff {
                match byte {
                    0x00 | 0xD0..=0xD7 => {
                        out.extend_from_slice(&[0xFF, byte]);
                        ff = false;
                    }
                    0xFF => {} // fill byte: the marker comes later
                    _ => {
                        // A real marker: let the marker parser take it from its code.
                        self.state = State::MarkerCode;
                        return &input[i..];
                    }
                }
                i += 1;
                continue;
            }
            match input[i..].iter().position(|&b| b == 0xFF) {
                Some(at) => {
                    out.extend_from_slice(&input[i..i + at]);
                    ff = true;
                    i += at + 1;
                }
                None => {
                    out.extend_from_slice(&input[i..]);
                    i = input.len();
                }
            }
        }
        self.state = State::Scan { ff };
        &[]
    }
}
