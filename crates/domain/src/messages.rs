//! Pure rules of platform messages: audiences, validity windows, the version fingerprint and the
//! next instant at which a client's visible state changes.
//!
//! Instants are generic (`T: Ord + Copy`) so this crate needs no clock or date library: the service
//! passes `chrono::DateTime<Utc>`, the tests pass plain integers. Nothing here reads a clock; every
//! rule takes the instant `t` it is evaluated at.
//!
//! Windows are half-open, `[valid_from, valid_to)`: a message is visible from the instant
//! `valid_from` on (inclusive) and no longer at the instant `valid_to` (exclusive). A missing bound
//! is open on that side.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::error_code::ErrorCode;
use crate::i18n::Message;
use crate::markdown::UnsafeMarkdown;

/// Longest message `text` accepted, in characters (Unicode scalar values).
pub const TEXT_MAX_CHARS: usize = 4000;
/// Longest message `title` accepted, in characters.
pub const TITLE_MAX_CHARS: usize = 200;
/// Longest `client_id`, in characters.
pub const CLIENT_ID_MAX_CHARS: usize = 64;
/// Most roles one message may target.
pub const ROLES_MAX: usize = 20;
/// Longest role name, in characters.
pub const ROLE_MAX_CHARS: usize = 100;

/// A rule a message or its client id breaks. Every variant is a 400 for the client.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MessageRuleError {
    #[error("client_id must be 1 to {CLIENT_ID_MAX_CHARS} characters of A-Z, a-z, 0-9, '.', '_' or '-', starting with a letter or digit")]
    InvalidClientId,
    #[error("text must not be empty")]
    EmptyText,
    #[error("text must be at most {TEXT_MAX_CHARS} characters, got {0}")]
    TextTooLong(usize),
    #[error("text is not safe Markdown: {0}")]
    UnsafeText(UnsafeMarkdown),
    #[error("title must be at most {TITLE_MAX_CHARS} characters and must not be blank")]
    InvalidTitle,
    #[error("unknown kind '{0}': expected info, maintenance or outage")]
    UnknownKind(String),
    #[error("unknown audience '{0}': expected everyone, signed_in or roles")]
    UnknownAudience(String),
    #[error("audience 'roles' needs at least one role")]
    NoRoles,
    #[error("roles are only allowed with audience 'roles'")]
    RolesWithoutRolesAudience,
    #[error("at most {ROLES_MAX} roles, each 1 to {ROLE_MAX_CHARS} characters without spaces")]
    InvalidRoles,
    #[error("valid_to must be later than valid_from")]
    EmptyWindow,
}

impl MessageRuleError {
    /// The public error name this rule maps to.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::UnsafeText(_) => ErrorCode::UnsafeMessageText,
            _ => ErrorCode::ValidationError,
        }
    }

    /// The client-facing text as a catalogue key with its arguments. An unsafe text is explained
    /// by the Markdown rule it breaks ([`UnsafeMarkdown::message`]); the error name
    /// `UNSAFE_MESSAGE_TEXT` already says that the text was refused.
    pub fn message(&self) -> Message {
        match self {
            Self::InvalidClientId => {
                Message::new("client-id-invalid").arg("max", CLIENT_ID_MAX_CHARS)
            }
            Self::EmptyText => Message::new("text-empty"),
            Self::TextTooLong(got) => Message::new("text-too-long")
                .arg("max", TEXT_MAX_CHARS)
                .arg("got", got),
            Self::UnsafeText(reason) => reason.message(),
            Self::InvalidTitle => Message::new("title-invalid").arg("max", TITLE_MAX_CHARS),
            Self::UnknownKind(kind) => Message::new("kind-unknown").arg("kind", kind),
            Self::UnknownAudience(audience) => {
                Message::new("audience-unknown").arg("audience", audience)
            }
            Self::NoRoles => Message::new("audience-roles-empty"),
            Self::RolesWithoutRolesAudience => Message::new("roles-without-audience"),
            Self::InvalidRoles => Message::new("roles-invalid")
                .arg("max-roles", ROLES_MAX)
                .arg("max-chars", ROLE_MAX_CHARS),
            Self::EmptyWindow => Message::new("window-empty"),
        }
    }
}

/// Checks a client application id. It is also an MQTT topic level, so `/`, `+`, `#` and spaces
/// are excluded by the character set.
pub fn validate_client_id(client_id: &str) -> Result<(), MessageRuleError> {
    let mut chars = client_id.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if first_ok && rest_ok && client_id.len() <= CLIENT_ID_MAX_CHARS {
        Ok(())
    } else {
        Err(MessageRuleError::InvalidClientId)
    }
}

/// Checks a message text's size. The Markdown safety check (links, raw HTML) is
/// [`crate::markdown::check_markdown`], applied by [`validate_text`].
pub fn validate_text_size(text: &str) -> Result<(), MessageRuleError> {
    if text.trim().is_empty() {
        return Err(MessageRuleError::EmptyText);
    }
    let chars = text.chars().count();
    if chars > TEXT_MAX_CHARS {
        return Err(MessageRuleError::TextTooLong(chars));
    }
    Ok(())
}

/// Checks a message text: its size, then its Markdown safety ([`crate::markdown::check_markdown`]).
pub fn validate_text(text: &str) -> Result<(), MessageRuleError> {
    validate_text_size(text)?;
    crate::markdown::check_markdown(text).map_err(MessageRuleError::UnsafeText)
}

/// Checks an optional title: plain text, not blank, bounded.
pub fn validate_title(title: Option<&str>) -> Result<(), MessageRuleError> {
    match title {
        Some(t) if t.trim().is_empty() || t.chars().count() > TITLE_MAX_CHARS => {
            Err(MessageRuleError::InvalidTitle)
        }
        _ => Ok(()),
    }
}

/// How prominent a message is; the front end picks colour and icon from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Info,
    Maintenance,
    Outage,
}

impl Kind {
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Info => "info",
            Kind::Maintenance => "maintenance",
            Kind::Outage => "outage",
        }
    }
}

impl FromStr for Kind {
    type Err = MessageRuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "info" => Ok(Kind::Info),
            "maintenance" => Ok(Kind::Maintenance),
            "outage" => Ok(Kind::Outage),
            other => Err(MessageRuleError::UnknownKind(other.to_owned())),
        }
    }
}

/// Who a message is meant for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Everyone, also without a token (the public endpoint).
    Everyone,
    /// Every signed-in user.
    SignedIn,
    /// Signed-in users holding at least one of these roles (never empty).
    Roles(Vec<String>),
}

impl Audience {
    /// Builds an audience from its wire form: a name and the roles list (empty unless `roles`).
    pub fn from_parts(name: &str, roles: Vec<String>) -> Result<Self, MessageRuleError> {
        let audience = match name {
            "everyone" => Audience::Everyone,
            "signed_in" => Audience::SignedIn,
            "roles" => {
                if roles.is_empty() {
                    return Err(MessageRuleError::NoRoles);
                }
                let bad = |r: &String| {
                    r.is_empty()
                        || r.chars().count() > ROLE_MAX_CHARS
                        || r.chars().any(|c| c.is_whitespace() || c.is_control())
                };
                if roles.len() > ROLES_MAX || roles.iter().any(bad) {
                    return Err(MessageRuleError::InvalidRoles);
                }
                let mut roles = roles;
                roles.sort();
                roles.dedup();
                return Ok(Audience::Roles(roles));
            }
            other => return Err(MessageRuleError::UnknownAudience(other.to_owned())),
        };
        if roles.is_empty() {
            Ok(audience)
        } else {
            Err(MessageRuleError::RolesWithoutRolesAudience)
        }
    }

    /// The wire name of the audience.
    pub fn name(&self) -> &'static str {
        match self {
            Audience::Everyone => "everyone",
            Audience::SignedIn => "signed_in",
            Audience::Roles(_) => "roles",
        }
    }

    /// The targeted roles (empty unless [`Audience::Roles`]).
    pub fn roles(&self) -> &[String] {
        match self {
            Audience::Roles(roles) => roles,
            _ => &[],
        }
    }

    /// Whether `viewer` belongs to this audience.
    pub fn admits(&self, viewer: &Viewer<'_>) -> bool {
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (_, Viewer::Anonymous) => false,
            (Audience::SignedIn, Viewer::SignedIn { .. }) => true,
            (Audience::Roles(wanted), Viewer::SignedIn { roles }) => {
                wanted.iter().any(|w| roles.iter().any(|r| r == w))
            }
        }
    }
}

/// Who is asking for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer<'a> {
    /// No token (the public endpoint).
    Anonymous,
    /// A signed-in user with the roles from the token's roles claim.
    SignedIn { roles: &'a [String] },
}

/// A validity window `[from, to)`; a missing bound is open on that side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window<T> {
    from: Option<T>,
    to: Option<T>,
}

impl<T: Ord + Copy> Window<T> {
    /// A window; refused when it ends at or before its start (it could never be visible).
    pub fn new(from: Option<T>, to: Option<T>) -> Result<Self, MessageRuleError> {
        match (from, to) {
            (Some(f), Some(t)) if t <= f => Err(MessageRuleError::EmptyWindow),
            _ => Ok(Self { from, to }),
        }
    }

    /// The window without bounds (always valid).
    pub const fn always() -> Self {
        Self {
            from: None,
            to: None,
        }
    }

    pub fn from(&self) -> Option<T> {
        self.from
    }

    pub fn to(&self) -> Option<T> {
        self.to
    }

    /// Whether `t` lies inside: `from <= t < to`.
    pub fn contains(&self, t: T) -> bool {
        self.from.is_none_or(|f| f <= t) && self.to.is_none_or(|e| t < e)
    }

    /// The instants at which the window starts or ends.
    pub fn boundaries(&self) -> impl Iterator<Item = T> {
        self.from.into_iter().chain(self.to)
    }
}

/// What a message needs for targeting: its audience and window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targeting<T> {
    pub audience: Audience,
    pub window: Window<T>,
}

impl<T: Ord + Copy> Targeting<T> {
    /// Whether `viewer` sees the message at instant `t`.
    pub fn visible_to(&self, viewer: &Viewer<'_>, t: T) -> bool {
        self.window.contains(t) && self.audience.admits(viewer)
    }
}

/// The next instant strictly after `t` at which any of the windows starts or ends, if any.
pub fn next_change_at<'a, T: Ord + Copy + 'a>(
    windows: impl IntoIterator<Item = &'a Window<T>>,
    t: T,
) -> Option<T> {
    windows
        .into_iter()
        .flat_map(Window::boundaries)
        .filter(|b| *b > t)
        .min()
}

/// The version fingerprint of a client's whole message state at an instant.
///
/// `revision` is the client's stored write counter (incremented in the same transaction as every
/// create, update and delete); `windows_passed` counts the window starts and ends at or before `t`
/// among the client's stored messages. Together they change exactly when a write happens or a
/// window starts or ends (every boundary flips one message in or out of its window, since empty
/// windows are refused), and they do not depend on who asks, so REST and MQTT carry the same value.
///
/// Both parts only grow (a write raises the revision; time only passes more boundaries), so the
/// derived order is the order of states: the service relies on it only internally; clients
/// compare versions for inequality (spec section 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub revision: i64,
    pub windows_passed: u64,
}

impl Version {
    /// The version of a client with stored `revision` and message `windows`, at instant `t`.
    pub fn at<'a, T: Ord + Copy + 'a>(
        revision: i64,
        windows: impl IntoIterator<Item = &'a Window<T>>,
        t: T,
    ) -> Self {
        let passed = windows
            .into_iter()
            .flat_map(Window::boundaries)
            .filter(|b| *b <= t)
            .count();
        Self {
            revision,
            windows_passed: passed as u64,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.revision, self.windows_passed)
    }
}

impl FromStr for Version {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (r, w) = s.split_once('.').ok_or(())?;
        Ok(Self {
            revision: r.parse().map_err(|_| ())?,
            windows_passed: w.parse().map_err(|_| ())?,
        })
    }
}

#[cfg(test)]
mod tests;
