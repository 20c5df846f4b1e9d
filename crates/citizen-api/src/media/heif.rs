//! Removes metadata from an HEIC/HEIF file held in memory (one file, at most
//! `media.max_file_bytes`).
//!
//! In HEIF, Exif and XMP are *items* of the `meta` box: `iinf` names them (`Exif`, or `mime`
//! with `application/rdf+xml`) and `iloc` says where their bytes are. Those bytes are
//! overwritten with zeros in place, so no offset of the file changes and every image item stays
//! byte-identical; readers then find an empty Exif block. Items stored in a way we cannot
//! overwrite safely (built from other items, construction method 2, with an open-ended
//! extent, or through a data reference) make the file refused
//! ([`MediaError::MetadataNotRemovable`]) rather than stored with its GPS position.
//!
//! Files that readers could understand differently from us are refused as corrupt: more than
//! one `meta` box, or more than one `iinf`, `iloc` or `idat` in it (a reader taking the last
//! would find items we did not see), and a metadata item whose bytes (construction method 0)
//! are not inside an `mdat` box (zeroing them would overwrite the file's own structure, its
//! `ftyp` included, and the stored file would no longer be recognised).

use super::{MediaError, MediaType};

type Result<T> = std::result::Result<T, MediaError>;

/// One ISO BMFF box: its type and where its payload lies in the file.
struct BoxAt {
    kind: [u8; 4],
    payload: usize,
    end: usize,
}

/// A byte reader over `data[at..end]`.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    end: usize,
    media_type: MediaType,
}

impl<'a> Reader<'a> {
    fn new(data: &'a [u8], at: usize, end: usize, media_type: MediaType) -> Self {
        Self {
            data,
            at,
            end,
            media_type,
        }
    }

    fn corrupt(&self) -> MediaError {
        MediaError::Corrupt(self.media_type, "truncated or inconsistent meta box")
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let next = self
            .at
            .checked_add(n)
            .filter(|&next| next <= self.end)
            .ok_or_else(|| self.corrupt())?;
        let bytes = &self.data[self.at..next];
        self.at = next;
        Ok(bytes)
    }

    /// A big-endian unsigned number of `n` bytes (0, 2, 4 or 8).
    fn uint(&mut self, n: usize) -> Result<u64> {
        Ok(self
            .bytes(n)?
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    /// A NUL-terminated string (the NUL is consumed).
    fn cstr(&mut self) -> Result<&'a [u8]> {
        let rest = &self.data[self.at..self.end];
        let len = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| self.corrupt())?;
        let s = &rest[..len];
        self.at += len + 1;
        Ok(s)
    }

    /// The boxes in `data[at..end]`.
    fn boxes(mut self) -> Result<Vec<BoxAt>> {
        let mut boxes = Vec::new();
        while self.at < self.end {
            let start = self.at;
            let size = self.uint(4)?;
            let mut kind = [0u8; 4];
            kind.copy_from_slice(self.bytes(4)?);
            let size = match size {
                0 => (self.end - start) as u64,
                1 => self.uint(8)?,
                size => size,
            };
            let end = usize::try_from(size)
                .ok()
                .and_then(|size| start.checked_add(size))
                .filter(|&end| end <= self.end && end >= self.at)
                .ok_or_else(|| self.corrupt())?;
            boxes.push(BoxAt {
                kind,
                payload: self.at,
                end,
            });
            self.at = end;
        }
        Ok(boxes)
    }
}

/// Overwrites the Exif and XMP items of `file` with zeros; see the module docs.
pub fn strip(file: &mut [u8], media_type: MediaType) -> Result<()> {
    let top = Reader::new(file, 0, file.len(), media_type).boxes()?;
    let Some(meta) = only(&top, b"meta", media_type)? else {
        return Ok(()); // no items, so no metadata items
    };
    // `meta` is a full box: version and flags first.
    let children = Reader::new(file, meta.payload + 4, meta.end, media_type).boxes()?;
    let Some(iinf) = only(&children, b"iinf", media_type)? else {
        return Ok(());
    };
    let metadata_items = metadata_items(file, iinf, media_type)?;
    if metadata_items.is_empty() {
        return Ok(());
    }
    let iloc = only(&children, b"iloc", media_type)?
        .ok_or(MediaError::Corrupt(media_type, "items without iloc"))?;
    let idat = only(&children, b"idat", media_type)?.map(|b| (b.payload, b.end));
    let mdats: Vec<(usize, usize)> = top
        .iter()
        .filter(|b| &b.kind == b"mdat")
        .map(|b| (b.payload, b.end))
        .collect();
    let places = Places { idat, mdats };
    let ranges = item_ranges(file, iloc, &places, &metadata_items, media_type)?;
    for (start, end) in ranges {
        file[start..end].fill(0);
    }
    Ok(())
}

/// The one box of `kind` among `boxes`, if any; more than one is refused (readers differ in
/// which one they take).
fn only<'b>(
    boxes: &'b [BoxAt],
    kind: &[u8; 4],
    media_type: MediaType,
) -> Result<Option<&'b BoxAt>> {
    let mut found = boxes.iter().filter(|b| &b.kind == kind);
    let first = found.next();
    if found.next().is_some() {
        return Err(MediaError::Corrupt(
            media_type,
            "more than one meta, iinf, iloc or idat box",
        ));
    }
    Ok(first)
}

/// Where item bytes may lie: the payload of `idat` (construction method 1) and those of the
/// top-level `mdat` boxes (method 0, file offsets).
struct Places {
    idat: Option<(usize, usize)>,
    mdats: Vec<(usize, usize)>,
}

/// The ids of the Exif and XMP items listed in `iinf`, sorted.
fn metadata_items(file: &[u8], iinf: &BoxAt, media_type: MediaType) -> Result<Vec<u32>> {
    let mut r = Reader::new(file, iinf.payload, iinf.end, media_type);
    let version = r.u8()?;
    r.bytes(3)?;
    r.uint(if version == 0 { 2 } else { 4 })?;
    let mut items = Vec::new();
    for infe in r.boxes()? {
        if &infe.kind != b"infe" {
            continue;
        }
        let mut e = Reader::new(file, infe.payload, infe.end, media_type);
        let version = e.u8()?;
        e.bytes(3)?;
        if version < 2 {
            // Versions 0 and 1 cannot type an item as Exif or XMP.
            continue;
        }
        let id = e.uint(if version == 2 { 2 } else { 4 })? as u32;
        e.uint(2)?; // protection index
        let item_type = e.bytes(4)?;
        let is_metadata = match item_type {
            b"Exif" => true,
            b"mime" => {
                e.cstr()?; // item name
                let content_type = e.cstr()?;
                content_type.eq_ignore_ascii_case(b"application/rdf+xml")
            }
            _ => false,
        };
        if is_metadata {
            items.push(id);
        }
    }
    items.sort_unstable();
    items.dedup();
    Ok(items)
}

/// Where the bytes of `items` lie in the file, from `iloc` (in an `mdat` for construction
/// method 0, in `idat` for method 1).
fn item_ranges(
    file: &[u8],
    iloc: &BoxAt,
    places: &Places,
    items: &[u32],
    media_type: MediaType,
) -> Result<Vec<(usize, usize)>> {
    let idat = places.idat;
    let refuse = |why| MediaError::MetadataNotRemovable(media_type, why);
    let mut r = Reader::new(file, iloc.payload, iloc.end, media_type);
    let corrupt = r.corrupt();
    let version = r.u8()?;
    r.bytes(3)?;
    let sizes = r.u8()?;
    let (offset_size, length_size) = (usize::from(sizes >> 4), usize::from(sizes & 15));
    let sizes = r.u8()?;
    let base_offset_size = usize::from(sizes >> 4);
    let index_size = if version >= 1 {
        usize::from(sizes & 15)
    } else {
        0
    };
    let wide = version >= 2;
    let count = r.uint(if wide { 4 } else { 2 })?;
    let mut ranges = Vec::new();
    for _ in 0..count {
        let id = r.uint(if wide { 4 } else { 2 })? as u32;
        let method = if version >= 1 { r.uint(2)? & 15 } else { 0 };
        let data_reference = r.uint(2)?;
        let base = r.uint(base_offset_size)?;
        let extents = r.uint(2)?;
        if items.binary_search(&id).is_err() {
            // Not metadata: its extents skipped at once, so that entries of zero-sized fields
            // (up to 65 535 extents that take no bytes) cannot make this loop quadratic.
            let extent_bytes = index_size + offset_size + length_size;
            r.bytes(extents as usize * extent_bytes)?;
            continue;
        }
        for _ in 0..extents {
            r.uint(index_size)?;
            let offset = r.uint(offset_size)?;
            let length = r.uint(length_size)?;
            if method == 0 && data_reference != 0 {
                // In the file a `dref` entry names: another file, or this one (a self-contained
                // entry), and some readers take the offsets as this file's anyway.
                return Err(refuse("item through a data reference"));
            }
            if length == 0 {
                return Err(refuse("open-ended extent"));
            }
            let origin = match (method, idat) {
                (0, _) => 0,
                (1, Some((payload, _))) => payload as u64,
                (1, None) => return Err(corrupt),
                _ => return Err(refuse("item constructed from other items")),
            };
            let start = origin
                .checked_add(base)
                .and_then(|s| s.checked_add(offset))
                .and_then(|s| usize::try_from(s).ok());
            let end = start.and_then(|s| s.checked_add(usize::try_from(length).ok()?));
            let (Some(start), Some(end)) = (start, end) else {
                return Err(corrupt);
            };
            let inside = |&(from, to): &(usize, usize)| from <= start && end <= to;
            let placed = if method == 1 {
                idat.as_ref().is_some_and(inside)
            } else {
                places.mdats.iter().any(inside)
            };
            if !placed {
                return Err(MediaError::Corrupt(
                    media_type,
                    "a metadata item outside its mdat or idat box",
                ));
            }
            ranges.push((start, end));
        }
    }
    Ok(ranges)
}
