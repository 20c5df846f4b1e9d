//! The accepted media types, recognised by their first bytes (never by the client's
//! `Content-Type` or file name).

use serde::{Serialize, Serializer};

/// How many leading bytes [`MediaType::sniff`] needs to decide (fewer only when the file is
/// shorter).
pub const SNIFF_LEN: usize = 12;

/// A media type the service stores; serialised as its MIME type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MediaType {
    /// `FF D8 FF`.
    Jpeg,
    /// The 8-byte PNG signature.
    Png,
    /// `RIFF....WEBP`.
    Webp,
    /// ISO BMFF `ftyp` with an HEVC brand (`heic`, `heix`, `hevc`, `hevx`, `heim`, `heis`).
    Heic,
    /// ISO BMFF `ftyp` with a plain HEIF brand (`mif1`, `msf1`, `heif`).
    Heif,
    /// `%PDF-`.
    Pdf,
}

impl MediaType {
    /// Every accepted type.
    pub const ALL: [MediaType; 6] = [
        MediaType::Jpeg,
        MediaType::Png,
        MediaType::Webp,
        MediaType::Heic,
        MediaType::Heif,
        MediaType::Pdf,
    ];

    /// The MIME type (`media_type` of the report's media, `Content-Type` when served).
    pub const fn mime(self) -> &'static str {
        match self {
            MediaType::Jpeg => "image/jpeg",
            MediaType::Png => "image/png",
            MediaType::Webp => "image/webp",
            MediaType::Heic => "image/heic",
            MediaType::Heif => "image/heif",
            MediaType::Pdf => "application/pdf",
        }
    }

    /// The usual file name extension, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            MediaType::Jpeg => "jpg",
            MediaType::Png => "png",
            MediaType::Webp => "webp",
            MediaType::Heic => "heic",
            MediaType::Heif => "heif",
            MediaType::Pdf => "pdf",
        }
    }

    /// The file name extensions of the type, without the dot, the usual one first: a stored
    /// file's name ends with one of them (`media::filename`).
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            MediaType::Jpeg => &["jpg", "jpeg"],
            MediaType::Png => &["png"],
            MediaType::Webp => &["webp"],
            MediaType::Heic => &["heic", "heif"],
            MediaType::Heif => &["heif", "heic"],
            MediaType::Pdf => &["pdf"],
        }
    }

    /// The name shown to people (in error texts).
    pub const fn label(self) -> &'static str {
        match self {
            MediaType::Jpeg => "JPEG",
            MediaType::Png => "PNG",
            MediaType::Webp => "WebP",
            MediaType::Heic => "HEIC",
            MediaType::Heif => "HEIF",
            MediaType::Pdf => "PDF",
        }
    }

    /// The accepted types as a list for people: `JPEG, PNG, WebP, HEIC, HEIF, PDF`.
    pub fn accepted_labels() -> String {
        Self::ALL.map(Self::label).join(", ")
    }

    /// The type of a file starting with `head` (its first [`SNIFF_LEN`] bytes, or the whole
    /// file when shorter); `None` for anything else.
    pub fn sniff(head: &[u8]) -> Option<MediaType> {
        const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
        if head.starts_with(b"\xff\xd8\xff") {
            return Some(MediaType::Jpeg);
        }
        if head.starts_with(PNG) {
            return Some(MediaType::Png);
        }
        if head.starts_with(b"%PDF-") {
            return Some(MediaType::Pdf);
        }
        if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
            return Some(MediaType::Webp);
        }
        if head.len() >= 12 && &head[4..8] == b"ftyp" {
            return match &head[8..12] {
                b"heic" | b"heix" | b"hevc" | b"hevx" | b"heim" | b"heis" => Some(MediaType::Heic),
                b"mif1" | b"msf1" | b"heif" => Some(MediaType::Heif),
                _ => None,
            };
        }
        None
    }
}

impl std::fmt::Display for MediaType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.mime())
    }
}

impl Serialize for MediaType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.mime())
    }
}
