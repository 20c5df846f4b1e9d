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
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Expect {
        Safe,
        RawHtml,
        UnsafeLink,
        ProtocolRelative,
        HeadingAttribute,
    }
    use Expect::*;

    fn outcome(text: &str) -> Expect {
        match check_markdown(text) {
            Ok(()) => Safe,
            Err(UnsafeMarkdown::RawHtml { .. }) => RawHtml,
            Err(UnsafeMarkdown::UnsafeLink { .. }) => UnsafeLink,
            Err(UnsafeMarkdown::ProtocolRelativeLink { .. }) => ProtocolRelative,
            Err(UnsafeMarkdown::HeadingAttribute { .. }) => HeadingAttribute,
        }
    }

    const CASES: &[(&str, &str, Expect)] = &[
        // --- accepted: plain text and code ---
        ("plain text", "Die Bürgerämter sind am **Montag** geschlossen.", Safe),
        ("the word javascript: in text", "Do not type javascript:alert(1) anywhere.", Safe),
        ("bare URL is text", "See https://example.org and javascript:alert(1)", Safe),
        ("entities in text", "&lt;script&gt;alert(1)&lt;/script&gt;", Safe),
        ("escaped tag", "\\<script>alert(1)\\</script>", Safe),
        ("script in code span", "Type `<script>alert(1)</script>` to test.", Safe),
        ("script in fenced code", "```html\n<script>alert(1)</script>\n<img onerror=x>\n```\n", Safe),
        ("script in indented code", "text\n\n    <script>alert(1)</script>\n", Safe),
        ("link syntax in code", "`[x](javascript:alert(1))`", Safe),
        // --- accepted: allowed schemes ---
        ("http", "[x](http://example.org)", Safe),
        ("https with query and fragment", "[x](https://example.org/a?b=c#d)", Safe),
        ("scheme case-insensitive", "[x](HTTPS://EXAMPLE.ORG)", Safe),
        ("mailto", "[Mail](mailto:buergeramt@example.org)", Safe),
        ("tel", "[Call](tel:+49-30-115)", Safe),
        ("https autolink", "<https://example.org/x>", Safe),
        ("email autolink", "<buergeramt@example.org>", Safe),
        ("image https", "![Map](https://example.org/map.png)", Safe),
        ("link title is irrelevant", "[x](https://example.org \"javascript:alert(1)\")", Safe),
        ("leading space trimmed", "[x](< https://example.org>)", Safe),
        // --- accepted: relative ---
        ("absolute path", "[x](/path/to)", Safe),
        ("path", "[x](path)", Safe),
        ("dot path", "[x](./x)", Safe),
        ("dot-dot path", "[x](../x)", Safe),
        ("query", "[x](?q=1)", Safe),
        ("fragment", "[x](#anchor)", Safe),
        ("empty destination", "[x]()", Safe),
        ("relative image", "![x](/img/a.png)", Safe),
        ("colon after slash", "[x](./javascript:alert(1))", Safe),
        ("colon in query", "[x](?next=javascript:alert(1))", Safe),
        ("colon in fragment", "[x](#javascript:alert(1))", Safe),
        // A browser never percent-decodes a scheme: this is a relative path.
        ("percent-encoded colon is relative", "[x](javascript%3Aalert(1))", Safe),
        ("percent-encoded scheme letter is relative", "[x](%6Aavascript)", Safe),
        // --- accepted: structure ---
        (
            "image inside link, both safe",
            "[![Logo](/logo.png)](https://example.org)",
            Safe,
        ),
        (
            "used reference definition",
            "[x][r] and [r]\n\n[r]: https://example.org \"title\"\n",
            Safe,
        ),
        ("unknown reference is text", "[x][nowhere]", Safe),
        (
            "gfm extensions",
            "| a | b |\n|---|---|\n| [x](/a) | ~~old~~ |\n\n- [x] done\n- [ ] open\n\nNote[^1].\n\n[^1]: See [here](https://example.org).\n",
            Safe,
        ),
        ("heading id and class", "# Hours {#hours .important}", Safe),
        ("math with link-like text", "$a < b$ and $$x:y$$", Safe),
        // --- refused: raw HTML ---
        ("script block", "<script>alert(1)</script>", RawHtml),
        ("inline img onerror", "Hello <img src=x onerror=alert(1)> world", RawHtml),
        ("inline a href", "Click <a href=\"https://example.org\">here</a>", RawHtml),
        ("html comment block", "<!-- hidden -->\n\ntext", RawHtml),
        ("inline html comment", "text <!-- hidden --> text", RawHtml),
        ("div block", "<div>\n\n**x**\n\n</div>", RawHtml),
        ("html inside link text", "[<b>x</b>](https://example.org)", RawHtml),
        ("html in table cell", "| a |\n|---|\n| <b>x</b> |", RawHtml),
        (
            "table splits a code span and reveals html",
            "| a | b |\n|---|---|\n| `x | <img src=x onerror=alert(1)> ` |\n",
            RawHtml,
        ),
        (
            "metadata block ends a fence early",
            "---\n```\n---\n<script>alert(1)</script>\n",
            RawHtml,
        ),
        (
            "math span breaks a code span and reveals html",
            "$`$ <script>alert(1)</script> `",
            RawHtml,
        ),
        // --- refused: schemes ---
        ("javascript", "[x](javascript:alert(1))", UnsafeLink),
        ("mixed case", "[x](JaVaScRiPt:alert(1))", UnsafeLink),
        ("data", "[x](data:text/html;base64,PHNjcmlwdD4=)", UnsafeLink),
        ("vbscript", "[x](vbscript:msgbox(1))", UnsafeLink),
        ("file", "[x](file:///etc/passwd)", UnsafeLink),
        ("unknown scheme", "[x](ftp://example.org)", UnsafeLink),
        ("decimal entity colon", "[x](javascript&#58;alert(1))", UnsafeLink),
        ("decimal entity colon no semicolon", "[x](<javascript&#58alert(1)>)", UnsafeLink),
        ("hex entity colon", "[x](javascript&#x3A;alert(1))", UnsafeLink),
        ("entity first letter", "[x](&#106;avascript:alert(1))", UnsafeLink),
        ("hex entity first letter", "[x](&#x6A;avascript:alert(1))", UnsafeLink),
        ("named colon entity", "[x](javascript&colon;alert(1))", UnsafeLink),
        ("double-encoded colon", "[x](javascript&amp;#58;alert(1))", UnsafeLink),
        ("double-encoded named colon", "[x](javascript&amp;colon;alert(1))", UnsafeLink),
        ("literal tab in scheme", "[x](<java\tscript:alert(1)>)", UnsafeLink),
        ("tab entity in scheme", "[x](java&#9;script:alert(1))", UnsafeLink),
        ("named tab entity in scheme", "[x](java&Tab;script:alert(1))", UnsafeLink),
        ("newline entity in scheme", "[x](java&#10;script:alert(1))", UnsafeLink),
        ("named newline entity in scheme", "[x](java&NewLine;script:alert(1))", UnsafeLink),
        ("carriage return in scheme", "[x](java&#13;script:alert(1))", UnsafeLink),
        ("leading space", "[x](< javascript:alert(1)>)", UnsafeLink),
        ("leading space entity", "[x](&#32;javascript:alert(1))", UnsafeLink),
        ("leading NUL", "[x](<\u{0}javascript:alert(1)>)", UnsafeLink),
        ("leading NUL entity", "[x](&#0;javascript:alert(1))", UnsafeLink),
        ("leading C0 control entity", "[x](&#1;javascript:alert(1))", UnsafeLink),
        ("trailing junk after scheme", "[x](javascript:alert(1)&#32;)", UnsafeLink),
        ("autolink javascript", "<javascript:alert(1)>", UnsafeLink),
        ("autolink uppercase", "<JAVASCRIPT:alert(1)>", UnsafeLink),
        ("autolink data", "<data:text/html,hello>", UnsafeLink),
        ("image data", "![x](data:image/png;base64,iVBORw0KGgo=)", UnsafeLink),
        ("image javascript", "![x](javascript:alert(1))", UnsafeLink),
        (
            "reference link",
            "[x][r]\n\n[r]: javascript:alert(1)\n",
            UnsafeLink,
        ),
        ("shortcut reference", "[r]\n\n[r]: JavaScript:alert(1)\n", UnsafeLink),
        ("unused reference definition", "text\n\n[r]: javascript:alert(1)\n", UnsafeLink),
        (
            "unused definition in a block quote",
            "> [r]: data:text/html,x\n",
            UnsafeLink,
        ),
        (
            "unsafe link around safe image",
            "[![x](https://example.org/a.png)](javascript:alert(1))",
            UnsafeLink,
        ),
        (
            "unsafe image inside safe link",
            "[![x](javascript:alert(1))](https://example.org)",
            UnsafeLink,
        ),
        (
            "unsafe link in footnote",
            "Text[^1].\n\n[^1]: [x](javascript:alert(1))\n",
            UnsafeLink,
        ),
        ("unsafe link in table", "| a |\n|---|\n| [x](vbscript:x) |", UnsafeLink),
        ("wiki link", "[[javascript:alert(1)]]", UnsafeLink),
        ("scheme with space", "[x](<java script:alert(1)>)", UnsafeLink),
        // --- refused: protocol-relative ---
        ("protocol-relative", "[x](//evil.example/x)", ProtocolRelative),
        ("protocol-relative image", "![x](//evil.example/a.png)", ProtocolRelative),
        ("backslashes", "[x](\\\\\\\\evil.example)", ProtocolRelative),
        ("slash backslash", "[x](/\\\\evil.example)", ProtocolRelative),
        ("tab between slashes", "[x](/&#9;/evil.example)", ProtocolRelative),
        ("leading space then //", "[x](< //evil.example>)", ProtocolRelative),
        ("protocol-relative definition", "[r]: //evil.example\n", ProtocolRelative),
        // --- refused: heading attributes ---
        ("heading event handler", "# Hours {onclick=alert(1)}", HeadingAttribute),
        ("heading style", "## Hours {#h style=color:red}", HeadingAttribute),
    ];

    #[test]
    fn table_of_cases() {
        assert!(CASES.len() >= 30);
        let failures: Vec<String> = CASES
            .iter()
            .filter_map(|(name, text, expected)| {
                let got = outcome(text);
                (got != *expected).then(|| {
                    format!(
                        "{name}: {text:?} expected {expected:?}, got {:?}",
                        check_markdown(text)
                    )
                })
            })
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn errors_name_the_destination() {
        assert_eq!(
            check_markdown("[x](JaVaScRiPt:alert(1))"),
            Err(UnsafeMarkdown::UnsafeLink {
                destination: "JaVaScRiPt:alert(1)".into()
            })
        );
        assert_eq!(
            check_markdown("![x](//evil.example/a.png)"),
            Err(UnsafeMarkdown::ProtocolRelativeLink {
                destination: "//evil.example/a.png".into()
            })
        );
        assert_eq!(
            check_markdown("<script>alert(1)</script>"),
            Err(UnsafeMarkdown::RawHtml {
                html: "<script>alert(1)</script>".into()
            })
        );
        assert_eq!(
            check_markdown("# H {onclick=alert(1)}"),
            Err(UnsafeMarkdown::HeadingAttribute {
                attribute: "onclick=alert(1)".into()
            })
        );
    }

    #[test]
    fn display_is_a_sentence_with_escaped_truncated_value() {
        let long = format!("[x](javascript:{})", "a".repeat(500));
        let message = check_markdown(&long).map_err(|e| e.to_string());
        let Err(message) = message else {
            panic!("should be refused")
        };
        assert!(message.starts_with("the link destination \"javascript:aaa"));
        assert!(message.contains("…\" is not allowed"));
        assert!(message.len() < 200, "{message}");

        let message = check_markdown("[x](<java\tscript:x>)").map_err(|e| e.to_string());
        assert_eq!(
            message,
            Err("the link destination \"java\\tscript:x\" is not allowed; \
                 only http, https, mailto, tel and relative links are"
                .to_owned())
        );
    }

    #[test]
    fn messages_carry_the_escaped_value() {
        let cases = [
            ("<b>x</b>", "markdown-raw-html", "html", "\"<b>\""),
            (
                "[x](<java\tscript:x>)",
                "markdown-unsafe-link",
                "destination",
                "\"java\\tscript:x\"",
            ),
            (
                "[x](//evil.example)",
                "markdown-protocol-relative-link",
                "destination",
                "\"//evil.example\"",
            ),
        ];
        for (text, key, arg, value) in cases {
            let Err(err) = check_markdown(text) else {
                panic!("{text} should be refused")
            };
            let message = err.message();
            assert_eq!(message.key, key, "{text}");
            assert_eq!(message.get(arg), Some(value), "{text}");
        }
        let heading = UnsafeMarkdown::HeadingAttribute {
            attribute: "onclick=x".into(),
        };
        assert_eq!(heading.message().key, "markdown-heading-attribute");
        assert_eq!(heading.message().get("attribute"), Some("\"onclick=x\""));
    }

    #[test]
    fn excerpt_cuts_on_char_boundaries() {
        let text = "ä".repeat(EXCERPT_MAX_CHARS + 5);
        let cut = excerpt(&text);
        assert_eq!(cut.chars().count(), EXCERPT_MAX_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt("short"), "short");
    }

    #[test]
    fn decoding_character_references() {
        assert_eq!(decode_char_refs("a&#58;b&#x3a;c&#X3A;d&#58e"), "a:b:c:d:e");
        assert_eq!(decode_char_refs("&colon;&Tab;&NewLine;&amp;"), ":\t\n&");
        assert_eq!(
            decode_char_refs("a&b=c&unknown;&#;&#x;"),
            "a&b=c&unknown;&#;&#x;"
        );
        assert_eq!(decode_char_refs("&#0;&#99999999999;"), "\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn classify_rules() {
        assert_eq!(classify("mailto:x@example.org"), Destination::Allowed);
        assert_eq!(classify("\u{1} TEL:+49"), Destination::Allowed);
        assert_eq!(classify("java\nscript:x"), Destination::Refused);
        assert_eq!(classify("\\/evil.example"), Destination::NetworkPath);
        assert_eq!(classify("a/b:c"), Destination::Allowed);
        assert_eq!(classify("é:x"), Destination::Refused);
    }

    #[test]
    fn deeply_encoded_destination_is_refused() {
        let mut dest = String::from("javascript:alert(1)");
        for _ in 0..=DECODE_ROUNDS + 1 {
            dest = dest.replace('&', "&amp;").replace(':', "&#58;");
        }
        assert!(check_destination(&dest).is_err());
    }

    #[test]
    fn allowed_schemes_are_documented() {
        assert_eq!(ALLOWED_SCHEMES, ["http", "https", "mailto", "tel"]);
    }
}
