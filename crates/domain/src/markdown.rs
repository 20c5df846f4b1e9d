//! Markdown safety rules (see issue 3).
//!
//! Operators write platform messages in Markdown; the front ends render them. The server refuses
//! unsafe text on write with [`check_markdown`]:
//!
//! * **Raw HTML** of any kind (HTML blocks, inline tags, comments, processing instructions) is
//!   refused. Code spans and code blocks are text and stay allowed, even when they show `<script>`.
//! * **Link destinations** of links, autolinks, e-mail autolinks, images, wiki links and reference
//!   definitions (used or not) must be `http`, `https`, `mailto`, `tel` ([`ALLOWED_SCHEMES`]) or
//!   relative. Titles are never looked at: they are text, not URLs.
//! * **Heading attributes** other than `{#id}` and `{.class}` (for example `{onclick=...}`) are
//!   refused, because a front end with heading attributes enabled would emit them as HTML
//!   attributes.
//!
//! # Which dialect is checked
//!
//! Extensions change what is parsed: a table splits a code span at `|`, a math span or a metadata
//! block hides what would otherwise be HTML, a wiki link creates a link. The text is therefore
//! parsed several times — plain CommonMark, GitHub-flavoured (tables, strikethrough, task lists,
//! footnotes, alerts) and with every pulldown-cmark extension (adding heading attributes,
//! definition lists, super/subscript, wiki links, math and metadata blocks) — and it must be safe
//! under each. A front end rendering with some other exotic combination of options could in corner
//! cases see constructs none of these parses sees; front ends must still escape HTML themselves
//! (defence in depth).
//!
//! # How the scheme of a destination is decided
//!
//! The way a browser does it (WHATWG URL parser), but erring on the side of refusing:
//!
//! 1. pulldown-cmark has already decoded backslash escapes and character references in the
//!    destination. The text is checked as is *and* after decoding the character references that
//!    are still in it (repeatedly), so a renderer that decodes once more cannot be fooled either
//!    (`javascript&amp;#58;...` is refused).
//! 2. Leading and trailing C0 controls and spaces are trimmed; ASCII tab, LF and CR are removed
//!    everywhere (`java\tscript:` is `javascript:` to a browser).
//! 3. A destination starting with two slashes or backslashes in any mix (`//host`, `\\host`,
//!    `/\host`) is a *network-path reference* and is refused, see below.
//! 4. If a `:` comes before any `/`, `?` or `#`, the text before it is the scheme and must be one
//!    of [`ALLOWED_SCHEMES`], compared ASCII case-insensitively. Anything else before the colon
//!    (a space, `%`, a non-ASCII character) makes the destination refused rather than relative,
//!    although a browser would treat some of those as relative paths.
//! 5. Otherwise the destination is relative: a path (`path`, `./x`, `../x`, `/path`), a query
//!    (`?q=1`) or a fragment (`#anchor`), or empty.
//!
//! **Percent-encoding is not decoded**: a browser never percent-decodes a scheme, so
//! `javascript%3Aalert(1)` is a relative path (to a page literally named so) and is accepted.
//!
//! **Protocol-relative links are refused.** RFC 3986 counts `//host/path` as a relative reference,
//! but it leaves the site for an arbitrary host (browsers even read `\\host` and `/\host` that
//! way). Only path-relative, absolute-path, query and fragment references count as relative here;
//! an operator linking elsewhere writes the full `https://` address.

use crate::i18n::Message;
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};
use thiserror::Error;

/// The allowed schemes, for documentation.
pub const ALLOWED_SCHEMES: &[&str] = &["http", "https", "mailto", "tel"];

/// Longest excerpt (in characters) of an offending value kept in an [`UnsafeMarkdown`].
pub const EXCERPT_MAX_CHARS: usize = 80;

/// Why a text was refused; Display is a client-safe sentence naming the offending destination or
/// construct.
///
/// The `String` fields hold an excerpt of the offending value: at most [`EXCERPT_MAX_CHARS`]
/// characters, ending in `…` when cut. Display shows it quoted with control characters escaped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UnsafeMarkdown {
    /// Raw HTML (a block, an inline tag or a comment).
    #[error("raw HTML is not allowed in messages (found {html:?}); use Markdown instead")]
    RawHtml {
        /// The HTML as written, excerpted.
        html: String,
    },
    /// A link, image or reference definition whose destination has a scheme other than
    /// [`ALLOWED_SCHEMES`].
    #[error(
        "the link destination {destination:?} is not allowed; \
         only http, https, mailto, tel and relative links are"
    )]
    UnsafeLink {
        /// The destination (after Markdown unescaping), excerpted.
        destination: String,
    },
    /// A protocol-relative (network-path) destination such as `//example.com/x`.
    #[error(
        "the link destination {destination:?} is not allowed; \
         write the full https:// address instead of starting with //"
    )]
    ProtocolRelativeLink {
        /// The destination (after Markdown unescaping), excerpted.
        destination: String,
    },
    /// A heading attribute other than `{#id}` or `{.class}`.
    #[error("the heading attribute {attribute:?} is not allowed; only {{#id}} and {{.class}} are")]
    HeadingAttribute {
        /// The attribute as written (`name` or `name=value`), excerpted.
        attribute: String,
    },
}

impl UnsafeMarkdown {
    /// The client-facing text as a catalogue key with the offending value as argument, quoted and
    /// escaped as in `Display`: `markdown-raw-html` (`html`), `markdown-unsafe-link` and
    /// `markdown-protocol-relative-link` (`destination`), `markdown-heading-attribute`
    /// (`attribute`).
    pub fn message(&self) -> Message {
        match self {
            Self::RawHtml { html } => Message::new("markdown-raw-html").arg("html", quoted(html)),
            Self::UnsafeLink { destination } => {
                Message::new("markdown-unsafe-link").arg("destination", quoted(destination))
            }
            Self::ProtocolRelativeLink { destination } => {
                Message::new("markdown-protocol-relative-link")
                    .arg("destination", quoted(destination))
            }
            Self::HeadingAttribute { attribute } => {
                Message::new("markdown-heading-attribute").arg("attribute", quoted(attribute))
            }
        }
    }
}

/// The value quoted with control characters escaped, as `Display` shows it.
fn quoted(value: &str) -> String {
    format!("{value:?}")
}

/// Ok(()) when the text is safe.
///
/// See the [module documentation](self) for the rules.
pub fn check_markdown(text: &str) -> Result<(), UnsafeMarkdown> {
    DIALECTS
        .iter()
        .try_for_each(|options| check_dialect(text, *options))
}

/// The option sets the text is parsed with; it must be safe under each (module documentation).
const DIALECTS: [Options; 3] = [
    Options::empty(),
    GFM,
    GFM.union(Options::ENABLE_HEADING_ATTRIBUTES)
        .union(Options::ENABLE_DEFINITION_LIST)
        .union(Options::ENABLE_SUPERSCRIPT)
        .union(Options::ENABLE_SUBSCRIPT)
        .union(Options::ENABLE_WIKILINKS)
        .union(Options::ENABLE_MATH)
        .union(Options::ENABLE_YAML_STYLE_METADATA_BLOCKS)
        .union(Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS),
];

const GFM: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_GFM);

fn check_dialect(text: &str, options: Options) -> Result<(), UnsafeMarkdown> {
    let mut parser = Parser::new_ext(text, options);

    // Every reference definition, used or not, in source order (the map has no order).
    let mut definitions: Vec<_> = parser
        .reference_definitions()
        .iter()
        .map(|(_, def)| (def.span.start, def.dest.as_ref()))
        .collect();
    definitions.sort_unstable();
    for (_, dest) in definitions {
        check_destination(dest)?;
    }

    parser.try_for_each(|event| check_event(&event))
}

fn check_event(event: &Event<'_>) -> Result<(), UnsafeMarkdown> {
    match event {
        Event::Html(html) | Event::InlineHtml(html) => Err(UnsafeMarkdown::RawHtml {
            html: excerpt(html.trim()),
        }),
        Event::Start(Tag::Link {
            link_type: LinkType::Email,
            dest_url,
            ..
        }) => {
            // Renderers turn an e-mail autolink `<a@b.example>` into `mailto:a@b.example`.
            check_destination(&format!("mailto:{dest_url}")).map_err(|_| {
                UnsafeMarkdown::UnsafeLink {
                    destination: excerpt(dest_url),
                }
            })
        }
        Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
            check_destination(dest_url)
        }
        Event::Start(Tag::Heading { attrs, .. }) => match attrs.first() {
            None => Ok(()),
            Some((name, value)) => Err(UnsafeMarkdown::HeadingAttribute {
                attribute: excerpt(&match value {
                    Some(value) => format!("{name}={value}"),
                    None => name.to_string(),
                }),
            }),
        },
        _ => Ok(()),
    }
}

/// How many extra rounds of character-reference decoding are tried (module documentation).
const DECODE_ROUNDS: usize = 4;

/// Checks one destination as given by pulldown-cmark, and again after each further round of
/// character-reference decoding until that changes nothing.
fn check_destination(dest: &str) -> Result<(), UnsafeMarkdown> {
    let mut current = dest.to_owned();
    for round in 0..=DECODE_ROUNDS {
        match classify(&current) {
            Destination::Allowed => {}
            Destination::NetworkPath => {
                return Err(UnsafeMarkdown::ProtocolRelativeLink {
                    destination: excerpt(dest),
                })
            }
            Destination::Refused => {
                return Err(UnsafeMarkdown::UnsafeLink {
                    destination: excerpt(dest),
                })
            }
        }
        let decoded = decode_char_refs(&current);
        if decoded == current {
            return Ok(());
        }
        if round == DECODE_ROUNDS {
            // Still changing after this many rounds: nobody writes that innocently.
            return Err(UnsafeMarkdown::UnsafeLink {
                destination: excerpt(dest),
            });
        }
        current = decoded;
    }
    Ok(())
}

#[derive(Debug, PartialEq)]
enum Destination {
    /// An allowed scheme, or a path, query or fragment reference.
    Allowed,
    /// `//host...` (or with backslashes).
    NetworkPath,
    /// A scheme that is not allowed, or something before a colon that is not a scheme.
    Refused,
}

fn classify(dest: &str) -> Destination {
    let cleaned: String = dest
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();

    let mut leading = cleaned.chars();
    if let (Some('/' | '\\'), Some('/' | '\\')) = (leading.next(), leading.next()) {
        return Destination::NetworkPath;
    }

    match cleaned.find([':', '/', '?', '#']) {
        Some(end) if cleaned[end..].starts_with(':') => {
            let scheme = &cleaned[..end];
            if ALLOWED_SCHEMES
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(scheme))
            {
                Destination::Allowed
            } else {
                Destination::Refused
            }
        }
        _ => Destination::Allowed,
    }
}

/// Named character references that can change how a scheme is read (case-insensitive here,
/// which only ever decodes more than a browser would).
const NAMED_REFS: &[(&str, char)] = &[
    ("colon", ':'),
    ("tab", '\t'),
    ("newline", '\n'),
    ("amp", '&'),
    ("sol", '/'),
    ("bsol", '\\'),
    ("quest", '?'),
    ("num", '#'),
    ("period", '.'),
    ("plus", '+'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
];

/// Decodes one round of HTML character references: numeric ones (`&#58;`, `&#x3A;`, with or
/// without the `;`, as browsers do) and the scheme-relevant named ones of [`NAMED_REFS`].
fn decode_char_refs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        match decode_one(after) {
            Some((c, consumed)) => {
                out.push(c);
                rest = &after[consumed..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Decodes a reference at the start of `text` (just after the `&`): the character and how many
/// bytes it used.
fn decode_one(text: &str) -> Option<(char, usize)> {
    if let Some(numeric) = text.strip_prefix('#') {
        let (radix, digits_start) = match numeric.as_bytes().first() {
            Some(b'x' | b'X') => (16, 2),
            _ => (10, 1),
        };
        let digits = &text[digits_start..];
        let len = digits
            .find(|c: char| !c.is_digit(radix))
            .unwrap_or(digits.len());
        if len == 0 {
            return None;
        }
        let value = digits[..len]
            .chars()
            .filter_map(|c| c.to_digit(radix))
            .fold(0u32, |acc, d| acc.saturating_mul(radix).saturating_add(d));
        let c = match value {
            0 => char::REPLACEMENT_CHARACTER,
            v => char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER),
        };
        let semicolon = usize::from(digits[len..].starts_with(';'));
        return Some((c, digits_start + len + semicolon));
    }
    let name_len = text.find(';')?;
    let name = &text[..name_len];
    NAMED_REFS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name))
        .map(|(_, c)| (*c, name_len + 1))
}

/// At most [`EXCERPT_MAX_CHARS`] characters of `value`, with `…` when cut.
fn excerpt(value: &str) -> String {
    match value.char_indices().nth(EXCERPT_MAX_CHARS) {
        None => value.to_owned(),
        Some((cut, _)) => format!("{}…", &value[..cut]),
    }
}

#[cfg(test)]
mod tests;
