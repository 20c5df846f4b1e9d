//! One interface over the per-type metadata filters: JPEG and PNG stream, WebP and HEIF are
//! held whole (one file, bounded by `media.max_file_bytes`), PDF passes through.

use super::jpeg::JpegStripper;
use super::png::PngStripper;
use super::{heif, webp, MediaError, MediaType};

/// The filter for one file.
#[derive(Debug)]
pub enum Stripper {
    Jpeg(JpegStripper),
    Png(PngStripper),
    /// WebP or HEIF: the file is collected here and filtered at the end.
    Buffered(MediaType, Vec<u8>),
    /// PDF: stored as sent.
    PassThrough,
}

impl Stripper {
    pub fn new(media_type: MediaType) -> Self {
        match media_type {
            MediaType::Jpeg => Self::Jpeg(JpegStripper::new()),
            MediaType::Png => Self::Png(PngStripper::new()),
            MediaType::Webp | MediaType::Heic | MediaType::Heif => {
                Self::Buffered(media_type, Vec::new())
            }
            MediaType::Pdf => Self::PassThrough,
        }
    }

    /// Filters the next piece of the file, appending what is to be stored to `out`.
    pub fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), MediaError> {
        match self {
            Self::Jpeg(jpeg) => jpeg.feed(input, out),
            Self::Png(png) => png.feed(input, out),
            Self::Buffered(_, buffer) => {
                buffer.extend_from_slice(input);
                Ok(())
            }
            Self::PassThrough => {
                out.extend_from_slice(input);
                Ok(())
            }
        }
    }

    /// After the last piece: checks the file's end and appends what was held back.
    pub fn finish(self, out: &mut Vec<u8>) -> Result<(), MediaError> {
        match self {
            Self::Jpeg(jpeg) => jpeg.finish(),
            Self::Png(png) => png.finish(),
            Self::Buffered(MediaType::Webp, buffer) => {
                out.extend_from_slice(&webp::strip(&buffer)?);
                Ok(())
            }
            Self::Buffered(media_type, mut buffer) => {
                heif::strip(&mut buffer, media_type)?;
                out.extend_from_slice(&buffer);
                Ok(())
            }
            Self::PassThrough => Ok(()),
        }
    }
}
