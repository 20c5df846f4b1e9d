//! Notifications (spec 2.7, 2.8): the tags a citizen marks read, the delivery interval of the
//! settings and the cap of the unread count.
//!
//! A notification's `tag` is its identity: a UUID in canonical lower-case text. It is derived
//! from the event and the recipient, so a repeat after a crash carries the same tag.

use thiserror::Error;

use crate::error_code::ErrorCode;
use crate::i18n::Message;

/// `unread_count` never exceeds this (spec section 8).
pub const UNREAD_CAP: u32 = 10;

/// At most this many tags in one `PATCH /me/notifications/read` (one page of the feed).
pub const MAX_TAGS: usize = 100;

/// How often a citizen's notifications are delivered over push and e-mail (spec 2.8): `None`
/// is "as it happens".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interval {
    Daily,
    Weekly,
    Monthly,
}

impl Interval {
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Daily => "daily",
            Self::Weekly => "weekly",
            Self::Monthly => "monthly",
        }
    }

    /// The stored or sent name; `None` for anything else.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "daily" => Some(Self::Daily),
            "weekly" => Some(Self::Weekly),
            "monthly" => Some(Self::Monthly),
            _ => None,
        }
    }
}

/// Why a list of tags is refused (always `INVALID_NOTIFICATION_TAGS`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TagError {
    #[error("no tags")]
    Empty,
    #[error("more than {MAX_TAGS} tags")]
    TooMany,
    #[error("malformed tag {0:?}")]
    Malformed(String),
    /// Well-formed tags that are not the caller's notifications.
    #[error("{0} tags are not the caller's")]
    NotOwn(usize),
}

impl TagError {
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::InvalidNotificationTags
    }

    pub fn message(&self) -> Message {
        match self {
            Self::Empty => Message::new("notification-tags-empty"),
            Self::TooMany => Message::new("notification-tags-too-many").arg("max", MAX_TAGS),
            Self::Malformed(tag) => {
                Message::new("notification-tag-malformed").arg("tag", format!("{tag:?}"))
            }
            Self::NotOwn(count) => Message::new("notification-tags-not-own").arg("count", *count),
        }
    }
}

/// Whether `tag` is a UUID in canonical lower-case text (`8-4-4-4-12` hex digits).
pub fn is_tag(tag: &str) -> bool {
    let bytes = tag.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_digit() || (b'a'..=b'f').contains(b),
        })
}

/// The tags of a read-mark request: at least one, at most [`MAX_TAGS`], each well-formed;
/// repeats are dropped (the first occurrence keeps its place).
pub fn parse_tags(tags: &[String]) -> Result<Vec<String>, TagError> {
    if tags.is_empty() {
        return Err(TagError::Empty);
    }
    if tags.len() > MAX_TAGS {
        return Err(TagError::TooMany);
    }
    let mut out: Vec<String> = Vec::with_capacity(tags.len());
    for tag in tags {
        if !is_tag(tag) {
            return Err(TagError::Malformed(tag.clone()));
        }
        if !out.contains(tag) {
            out.push(tag.clone());
        }
    }
    Ok(out)
}

/// The unread count as answered: capped at [`UNREAD_CAP`].
pub fn capped_unread(count: u64) -> u32 {
    u32::try_from(count.min(u64::from(UNREAD_CAP))).unwrap_or(UNREAD_CAP)
}

/// The push services browsers use (the default allow-list of web push endpoints' hosts).
pub const DEFAULT_PUSH_HOSTS: &[&str] = &[
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
];

/// Whether a push endpoint's `host` is on the allow-list: a pattern is a host name (equal,
/// ignoring case) or `*.` and a domain (any host under it, not the domain itself).
pub fn push_host_allowed<S: AsRef<str>>(host: &str, allowed: &[S]) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() {
        return false;
    }
    allowed.iter().any(|pattern| {
        let pattern = pattern.as_ref().trim().to_ascii_lowercase();
        match pattern.strip_prefix("*.") {
            Some(domain) if !domain.is_empty() => host
                .strip_suffix(domain)
                .and_then(|label| label.strip_suffix('.'))
                .is_some_and(|label| !label.is_empty()),
            _ => host == pattern,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    const B: &str = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c";

    fn strings(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn tags_are_canonical_lower_case_uuids() {
        let cases: &[(&str, bool)] = &[
            (A, true),
            ("0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B", false),
            ("0190a1b2c3d47e5f8a9b0c1d2e3f4a5b", false),
            ("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5", false),
            ("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5bb", false),
            ("0190a1b2-c3d4-7e5f-8a9b_0c1d2e3f4a5b", false),
            ("g190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", false),
            ("", false),
            ("é", false),
        ];
        for (tag, ok) in cases {
            assert_eq!(is_tag(tag), *ok, "{tag:?}");
        }
    }

    #[test]
    fn tag_lists_need_one_to_a_hundred_well_formed_tags() {
        assert_eq!(parse_tags(&[]), Err(TagError::Empty));
        assert_eq!(parse_tags(&strings(&[A, B, A])), Ok(strings(&[A, B])));
        assert_eq!(
            parse_tags(&strings(&[A, "x"])),
            Err(TagError::Malformed("x".into()))
        );
        let many = vec![A.to_owned(); MAX_TAGS + 1];
        assert_eq!(parse_tags(&many), Err(TagError::TooMany));
        assert_eq!(parse_tags(&many[..MAX_TAGS]), Ok(strings(&[A])));
        for err in [TagError::Empty, TagError::TooMany, TagError::NotOwn(1)] {
            assert_eq!(err.code(), ErrorCode::InvalidNotificationTags);
        }
    }

    #[test]
    fn intervals_round_trip_and_the_count_is_capped() {
        for i in [Interval::Daily, Interval::Weekly, Interval::Monthly] {
            assert_eq!(Interval::parse(i.as_str()), Some(i));
        }
        assert_eq!(Interval::parse("hourly"), None);
        assert_eq!(Interval::parse("Daily"), None);
        for (n, want) in [(0, 0), (9, 9), (10, 10), (11, 10), (u64::MAX, 10)] {
            assert_eq!(capped_unread(n), want);
        }
    }

    #[test]
    fn push_hosts_match_names_and_wildcards() {
        let cases: &[(&str, bool)] = &[
            ("fcm.googleapis.com", true),
            ("FCM.googleapis.com", true),
            ("fcm.googleapis.com.", true),
            ("evil-fcm.googleapis.com", false),
            ("fcm.googleapis.com.evil.org", false),
            ("updates.push.services.mozilla.com", true),
            ("web.push.apple.com", true),
            ("a.b.push.apple.com", true),
            ("push.apple.com", false),
            (".push.apple.com", false),
            ("evilpush.apple.com", false),
            ("wns2-db5p.notify.windows.com", true),
            ("notify.windows.com", false),
            ("localhost", false),
            ("127.0.0.1", false),
            ("", false),
        ];
        for (host, ok) in cases {
            assert_eq!(push_host_allowed(host, DEFAULT_PUSH_HOSTS), *ok, "{host}");
        }
        assert!(push_host_allowed("127.0.0.1", &["127.0.0.1"]));
        assert!(!push_host_allowed("x.example.org", &["*."]));
    }
}
