//! The name a stored file is kept, answered and exported under: the client's name made safe to
//! store and show, with the extension of the type the service recognised in the bytes.
//!
//! A name cannot disguise itself: control characters and Unicode format characters (category
//! Cf: bidi overrides such as U+202E, zero-width spaces and joiners, the byte order mark, tag
//! characters) are removed, so `photo\u{202e}gnp.exe` cannot show as "photoexe.png"; and the
//! extension is the sniffed type's, so a JPEG sent as `shot.html` is kept as `shot.jpg` and a
//! saved copy opens as an image.

/// Longest kept name, in characters.
pub const MAX_CHARS: usize = 200;

/// Longest extension read as one (longer: the dot is part of the stem).
const MAX_EXTENSION_CHARS: usize = 10;

/// Whether `c` is a Unicode format character (general category Cf, Unicode 15.1).
pub fn is_format(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// The stored name of a file the client sent as `sent`, whose recognised type has the
/// `extensions` (the usual one first, e.g. `["jpg", "jpeg"]`; never empty):
/// - the last path component, without control and format characters, quotes, or characters
///   special in file systems and headers (`<>:|?*`), trimmed, without leading dots;
/// - its extension kept when it is one of `extensions` (in any case: `foto.JPG`), else replaced
///   by the usual one (`shot.html` → `shot.jpg`; no extension: added);
/// - the stem `attachment` when nothing is left of it, cut so the whole name has at most
///   [`MAX_CHARS`] characters.
///
/// Applying it to its own result changes nothing.
pub fn stored_name(sent: Option<&str>, extensions: &[&str]) -> String {
    let usual = extensions.first().copied().unwrap_or("bin");
    let base = sent
        .unwrap_or_default()
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default();
    let cleaned: String = base
        .chars()
        .filter(|&c| {
            !c.is_control()
                && !is_format(c)
                && !matches!(c, '"' | '<' | '>' | ':' | '|' | '?' | '*')
        })
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').trim();
    let (stem, sent_extension) = match cleaned.rsplit_once('.') {
        Some((stem, ext))
            if !ext.is_empty()
                && ext.chars().count() <= MAX_EXTENSION_CHARS
                && ext.chars().all(char::is_alphanumeric) =>
        {
            (stem, Some(ext))
        }
        _ => (cleaned, None),
    };
    let extension = sent_extension
        .filter(|ext| extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
        .unwrap_or(usual);
    let keep = MAX_CHARS.saturating_sub(extension.chars().count() + 1);
    let stem: String = stem.chars().take(keep).collect();
    let stem = stem.trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    let stem = if stem.is_empty() { "attachment" } else { stem };
    format!("{stem}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const JPEG: &[&str] = &["jpg", "jpeg"];
    const PNG: &[&str] = &["png"];
    const PDF: &[&str] = &["pdf"];

    #[test]
    fn names_are_cleaned_and_take_the_extension_of_their_type() {
        for (sent, extensions, stored) in [
            // Paths, controls and specials.
            (Some("C:\\Users\\x\\foto 1.JPG"), JPEG, "foto 1.JPG"),
            (Some("../../etc/passwd"), JPEG, "passwd.jpg"),
            (Some("a\"b\r\n<c>.png"), PNG, "abc.png"),
            (Some("výmol.heic"), &["heic", "heif"][..], "výmol.heic"),
            (Some("..."), JPEG, "attachment.jpg"),
            (Some("dir/"), PDF, "attachment.pdf"),
            (None, PNG, "attachment.png"),
            // Format characters (Cf): bidi overrides and isolates, zero-width, BOM, tags.
            (Some("photo\u{202e}gnp.exe"), JPEG, "photognp.jpg"),
            (
                Some("a\u{2066}b\u{2069}\u{200b}c\u{200d}.png"),
                PNG,
                "abc.png",
            ),
            (Some("\u{feff}scan\u{e0041}.pdf"), PDF, "scan.pdf"),
            (Some("\u{202e}\u{200f}"), PNG, "attachment.png"),
            // The extension is the sniffed type's; the client's stem stays.
            (Some("shot.html"), JPEG, "shot.jpg"),
            (Some("shot.HTML"), PNG, "shot.png"),
            (Some("photo.jpeg"), JPEG, "photo.jpeg"),
            (Some("photo.png"), JPEG, "photo.jpg"),
            (Some("photo"), JPEG, "photo.jpg"),
            (Some("archive.tar.gz"), PDF, "archive.tar.pdf"),
            (Some("notes. .html"), PDF, "notes.pdf"),
            (Some(".html"), JPEG, "html.jpg"),
            (Some("a.not an extension"), JPEG, "a.not an extension.jpg"),
            (
                Some("report.averylongextension"),
                PDF,
                "report.averylongextension.pdf",
            ),
        ] {
            assert_eq!(stored_name(sent, extensions), stored, "{sent:?}");
            assert_eq!(
                stored_name(Some(stored), extensions),
                stored,
                "again {sent:?}"
            );
        }
    }

    #[test]
    fn long_names_keep_their_extension() {
        for (sent, ends_with) in [
            (format!("{}.jpeg", "ž".repeat(300)), "ž.jpeg"),
            (format!("{}.exe", "ž".repeat(300)), "ž.jpg"),
            ("ž".repeat(300), "ž.jpg"),
        ] {
            let kept = stored_name(Some(&sent), JPEG);
            assert_eq!(kept.chars().count(), MAX_CHARS);
            assert!(kept.ends_with(ends_with), "{kept}");
            assert_eq!(stored_name(Some(&kept), JPEG), kept);
        }
    }

    #[test]
    fn format_characters_are_category_cf() {
        for (c, format) in [
            ('\u{202e}', true),
            ('\u{202a}', true),
            ('\u{2066}', true),
            ('\u{2069}', true),
            ('\u{200b}', true),
            ('\u{200e}', true),
            ('\u{00ad}', true),
            ('\u{feff}', true),
            ('\u{e0001}', true),
            ('\u{e007f}', true),
            ('a', false),
            ('ž', false),
            (' ', false),
            ('\u{0301}', false), // a combining mark (Mn) stays
            ('\u{2028}', false), // line separator (Zl)
            ('\u{e0080}', false),
        ] {
            assert_eq!(is_format(c), format, "{:04X}", u32::from(c));
        }
    }
}
