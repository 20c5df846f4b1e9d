//! The client's file name, made safe to store and show.

use super::MediaType;

/// Longest kept name, in characters.
const MAX_CHARS: usize = 200;

/// The last path component of `sent` without control characters, quotes, or characters that
/// are special in file systems and headers, at most 200 characters (the extension kept);
/// `attachment.<ext>` when nothing is left.
pub fn sanitize(sent: Option<&str>, media_type: MediaType) -> String {
    let base = sent
        .unwrap_or_default()
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default();
    let cleaned: String = base
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '"' | '<' | '>' | ':' | '|' | '?' | '*'))
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').trim();
    if cleaned.is_empty() {
        return format!("attachment.{}", media_type.extension());
    }
    if cleaned.chars().count() <= MAX_CHARS {
        return cleaned.to_owned();
    }
    let extension = cleaned
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .filter(|ext| ext.chars().count() <= 10)
        .unwrap_or_default();
    let keep = MAX_CHARS - extension.chars().count() - usize::from(!extension.is_empty());
    let stem: String = cleaned.chars().take(keep).collect();
    if extension.is_empty() {
        stem
    } else {
        format!("{stem}.{extension}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_controls_and_specials_are_removed() {
        let jpeg = MediaType::Jpeg;
        assert_eq!(
            sanitize(Some("C:\\Users\\x\\foto 1.JPG"), jpeg),
            "foto 1.JPG"
        );
        assert_eq!(sanitize(Some("../../etc/passwd"), jpeg), "passwd");
        assert_eq!(sanitize(Some("a\"b\r\n<c>.png"), jpeg), "abc.png");
        assert_eq!(sanitize(Some("výmol.heic"), jpeg), "výmol.heic");
        assert_eq!(sanitize(Some("..."), jpeg), "attachment.jpg");
        assert_eq!(sanitize(Some("dir/"), MediaType::Pdf), "attachment.pdf");
        assert_eq!(sanitize(None, MediaType::Png), "attachment.png");
    }

    #[test]
    fn long_names_keep_their_extension() {
        let long = format!("{}.jpeg", "ž".repeat(300));
        let kept = sanitize(Some(&long), MediaType::Jpeg);
        assert_eq!(kept.chars().count(), MAX_CHARS);
        assert!(kept.ends_with("ž.jpeg"), "{kept}");
    }
}
