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
