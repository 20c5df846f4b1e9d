//! The client's file name, made safe to store and show, with the extension of the sniffed type
//! (the rule is `domain::filenames::stored_name`).

use super::MediaType;

/// The stored name of a file sent as `sent` whose bytes are `media_type`: without paths,
/// control and format characters or specials, the client's stem with the type's extension
/// (`shot.html` of a JPEG: `shot.jpg`), at most 200 characters; `attachment.<ext>` when nothing
/// is left of the stem.
pub fn sanitize(sent: Option<&str>, media_type: MediaType) -> String {
    domain::filenames::stored_name(sent, media_type.extensions())
}

/// The name a stored file is answered and exported under: its stored name with the rule of
/// [`sanitize`] applied for its stored MIME type, so that a file kept before the rule had its
/// format characters removed or the type's extension shows safely too (a name kept under the
/// rule is answered as it is).
pub fn shown(stored: &str, mime: &str) -> String {
    match MediaType::ALL.into_iter().find(|t| t.mime() == mime) {
        Some(media_type) => sanitize(Some(stored), media_type),
        None => stored.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_keeps_its_usual_extension_and_replaces_another() {
        for media_type in MediaType::ALL {
            let usual = media_type.extension();
            assert_eq!(media_type.extensions()[0], usual);
            assert_eq!(
                sanitize(Some("shot.html"), media_type),
                format!("shot.{usual}")
            );
            let upper = format!("shot.{}", usual.to_uppercase());
            assert_eq!(sanitize(Some(&upper), media_type), upper);
        }
        assert_eq!(sanitize(Some("photo.jpeg"), MediaType::Jpeg), "photo.jpeg");
        assert_eq!(sanitize(Some("photo.jpeg"), MediaType::Png), "photo.png");
    }

    #[test]
    fn names_kept_before_the_rule_are_shown_under_it() {
        for (stored, mime, shown_as) in [
            ("shot.html", "image/jpeg", "shot.jpg"),
            ("photo\u{202e}gnp.exe", "image/png", "photognp.png"),
            ("scan.pdf", "application/pdf", "scan.pdf"),
            ("odd.bin", "application/x-unknown", "odd.bin"),
        ] {
            assert_eq!(shown(stored, mime), shown_as, "{stored}");
        }
    }
}
