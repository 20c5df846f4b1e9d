//! Choosing the answer language from an HTTP `Accept-Language` header (RFC 9110, section 12.5.4).
//!
//! The matching of a language tag to a catalogue is fluent-langneg's (`negotiate_languages`,
//! the `Lookup` strategy of RFC 4647 with likely subtags, over unic-langid tags). What it leaves
//! out is done here, in a thin pre-pass: fluent-langneg's own `Accept-Language` parser
//! (`accepted_languages::parse`) drops the weights, so `q=0` would be chosen and `en;q=0.9`
//! would lose to an earlier `cs;q=0.5`, and it does not know `*`. The pre-pass reads the weights,
//! orders the ranges by them, leaves out `q=0` and puts a locale in place of `*`
//! (docs/decisions.md, "Accept-Language").

use std::sync::LazyLock;

use fluent_langneg::{negotiate_languages, NegotiationStrategy};
use unic_langid::LanguageIdentifier;

use crate::Locale;

/// A weight in thousandths: `q=0.5` is 500, no `q` is 1000.
type Weight = u16;

/// The supported locales as language identifiers, in [`Locale::ALL`] order.
static AVAILABLE: LazyLock<Vec<LanguageIdentifier>> = LazyLock::new(|| {
    Locale::ALL
        .into_iter()
        .filter_map(|locale| locale.as_str().parse().ok())
        .collect()
});

/// The supported locale the client prefers, or `default`.
///
/// `accept_language` is the header value, e.g. `cs-CZ, cs;q=0.9, en;q=0.8, *;q=0.1`:
///
/// * A language range matches a locale by fluent-langneg's lookup: `cs-CZ`, `CS`, `cs_CZ` are
///   Czech, `uk`, `uk-UA` Ukrainian. Ranges of unsupported languages are skipped.
/// * The locale with the highest weight wins; on equal weights the range written first wins.
///   A locale named several times takes its highest weight.
/// * `q=0` means "not acceptable": such a locale is never chosen because of that range.
/// * `*` stands for the default locale, or, when the header names the default explicitly, for
///   the first supported locale (in [`Locale::ALL`] order) that the header does not name.
/// * Malformed items (a tag unic-langid does not parse, a `q` outside `0..=1` or with more than
///   three decimals, an unknown parameter, a repeated `q`) are ignored; empty items are allowed.
/// * No header, or nothing acceptable in it, gives `default`.
pub fn negotiate(accept_language: Option<&str>, default: Locale) -> Locale {
    let Some(header) = accept_language else {
        return default;
    };
    let mut ranges: Vec<(Range, Weight)> = header.split(',').filter_map(parse_item).collect();
    // The locales the header names, with any weight (`q=0` too): `*` stands for another one.
    let named: Vec<&LanguageIdentifier> = ranges
        .iter()
        .filter_map(|(range, _)| match range {
            Range::Tag(tag) => Some(tag),
            Range::Any => None,
        })
        .collect();
    let named = negotiate_languages(&named, &AVAILABLE, None, NegotiationStrategy::Filtering);
    let unnamed = |locale: &Locale| !named.iter().any(|tag| is_locale(tag, *locale));
    let wildcard = Some(default)
        .filter(unnamed)
        .or_else(|| Locale::ALL.into_iter().find(unnamed))
        .and_then(|locale| locale.as_str().parse::<LanguageIdentifier>().ok());
    // Highest weight first; the sort is stable, so equal weights keep the header's order.
    ranges.retain(|(_, weight)| *weight > 0);
    ranges.sort_by_key(|(_, weight)| Weight::MAX - weight);
    let requested: Vec<&LanguageIdentifier> = ranges
        .iter()
        .filter_map(|(range, _)| match range {
            Range::Tag(tag) => Some(tag),
            Range::Any => wildcard.as_ref(),
        })
        .collect();
    negotiate_languages(&requested, &AVAILABLE, None, NegotiationStrategy::Lookup)
        .first()
        .and_then(|tag| Locale::ALL.into_iter().find(|l| is_locale(tag, *l)))
        .unwrap_or(default)
}

/// Whether `tag` (one of [`AVAILABLE`]) is `locale`.
fn is_locale(tag: &LanguageIdentifier, locale: Locale) -> bool {
    tag.language.as_str() == locale.as_str()
}

/// A language range: `*` or a language tag.
enum Range {
    Any,
    Tag(LanguageIdentifier),
}

/// One list item: `range *( OWS ";" OWS "q=" qvalue )`, with exactly zero or one weight.
fn parse_item(item: &str) -> Option<(Range, Weight)> {
    let mut parts = item.split(';');
    let range = parts.next()?.trim_matches(is_ows);
    let range = if range == "*" {
        Range::Any
    } else {
        Range::Tag(range.parse().ok()?)
    };
    let mut weight = None;
    for parameter in parts {
        let parameter = parameter.trim_matches(is_ows);
        let value = parameter
            .strip_prefix("q=")
            .or_else(|| parameter.strip_prefix("Q="))?;
        if weight.replace(parse_qvalue(value)?).is_some() {
            return None;
        }
    }
    Some((range, weight.unwrap_or(1000)))
}

/// Optional whitespace: space or horizontal tab.
fn is_ows(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
fn parse_qvalue(value: &str) -> Option<Weight> {
    let (int, frac) = value.split_once('.').unwrap_or((value, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = frac
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |acc, b| acc * 10 + Weight::from(b - b'0'));
    match int {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use Locale::{Cs, En, Uk};

    #[test]
    fn table() {
        // (header, default, expected)
        let cases: &[(Option<&str>, Locale, Locale)] = &[
            (None, En, En),
            (None, Cs, Cs),
            (Some(""), Cs, Cs),
            (Some("   "), En, En),
            (Some("cs"), En, Cs),
            (Some("en"), Cs, En),
            (Some("cs-CZ"), En, Cs),
            (Some("CS-cz"), En, Cs),
            (Some("EN-GB"), Cs, En),
            (Some("en-Latn-US"), Cs, En),
            (Some("de, cs;q=0.5"), En, Cs),
            (Some("de, fr"), Cs, Cs),
            (Some("cs;q=0.5, en;q=0.9"), Cs, En),
            (Some("en;q=0.5, cs;q=0.5"), Cs, En),
            (Some("cs;q=0.5, en;q=0.5"), En, Cs),
            (Some("en;q=1.000, cs"), Cs, En),
            (Some("fr-CA, fr;q=0.9, en;q=0.8, cs;q=0.7"), Cs, En),
            (Some("en-US;q=0.2, cs-CZ;q=0.2, cs;q=0.9"), En, Cs),
            (Some("cs;q=0.1, cs;q=0.9, en;q=0.5"), En, Cs),
            // Wildcard.
            (Some("*"), En, En),
            (Some("*"), Cs, Cs),
            (Some("de, *;q=0.1"), Cs, Cs),
            (Some("*;q=0.9, cs;q=0.5"), En, En),
            (Some("en;q=0, *"), En, Cs),
            (Some("cs;q=0.4, *;q=0.5"), Cs, En),
            (Some("cs, *;q=0.5"), Cs, Cs),
            (Some("*;q=0"), Cs, Cs),
            // q=0 means not acceptable.
            (Some("en;q=0"), Cs, Cs),
            (Some("cs;q=0"), En, En),
            (Some("cs;q=0.000"), En, En),
            (Some("cs;q=0.001"), En, Cs),
            (Some("en;q=0, cs;q=0.1"), En, Cs),
            // Whitespace and case.
            (Some("  cs ;  q=0.7 ,\ten;q=0.6"), En, Cs),
            (Some("cs;Q=0.7, en;q=0.8"), Cs, En),
            (Some("cs ; q=0.3, en\t;\tq=0.2"), En, Cs),
            // Malformed items are ignored.
            (Some(",,, ;;, cs"), En, Cs),
            (Some("123, cs"), En, Cs),
            (Some("c$s, en"), Cs, En),
            (Some("cs;q=abc, en;q=0.3"), Cs, En),
            (Some("cs;q=1.5"), En, En),
            (Some("cs;q=1.001"), En, En),
            (Some("cs;q=2"), En, En),
            (Some("cs;q=-0.5"), En, En),
            (Some("cs;q=0.1234"), En, En),
            (Some("cs;q="), En, En),
            (Some("cs;q = 0.5"), En, En),
            (Some("cs;q=0.5;q=0.9"), En, En),
            (Some("cs;foo=bar, en;q=0.1"), Cs, En),
            (Some("toolongsub-cs, cs-toolongsub"), En, En),
            (Some("cs-, -cs, cs--CZ"), En, En),
            // unic-langid reads `_` as `-`, as `Locale::from_str` does.
            (Some("cs_CZ"), En, Cs),
            (Some("čs, en"), Cs, En),
            // Ukrainian.
            (Some("uk"), Cs, Uk),
            (Some("uk-UA"), En, Uk),
            (Some("UK-ua"), Cs, Uk),
            (Some("uk_UA"), Cs, Uk),
            (Some("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7"), Cs, Uk),
            (Some("de, uk;q=0.5, cs;q=0.4"), En, Uk),
            (Some("cs;q=0.9, uk;q=0.5"), En, Cs),
            (Some("uk;q=0, en"), Cs, En),
            (Some("uk;q=0"), Cs, Cs),
            (Some("en;q=0, cs;q=0, *"), En, Uk),
            (Some("ua, ru"), Cs, Cs),
        ];
        assert!(cases.len() >= 15);
        for (header, default, expected) in cases {
            assert_eq!(
                negotiate(*header, *default),
                *expected,
                "{header:?} with default {default}"
            );
        }
    }

    #[test]
    fn very_long_headers() {
        let many = format!("{}cs;q=0.6", "xx;q=0.5, ".repeat(20_000));
        assert_eq!(negotiate(Some(&many), En), Cs);
        let junk = "a".repeat(200_000);
        assert_eq!(negotiate(Some(&junk), Cs), Cs);
        let digits = format!("cs;q=0.{}", "1".repeat(100_000));
        assert_eq!(negotiate(Some(&digits), En), En);
        let commas = ",".repeat(100_000);
        assert_eq!(negotiate(Some(&commas), Cs), Cs);
        let params = format!("cs{}", ";q=1".repeat(50_000));
        assert_eq!(negotiate(Some(&params), En), En);
    }

    #[test]
    fn qvalues() {
        let cases = [
            ("0", Some(0)),
            ("0.", Some(0)),
            ("0.5", Some(500)),
            ("0.05", Some(50)),
            ("0.123", Some(123)),
            ("1", Some(1000)),
            ("1.", Some(1000)),
            ("1.000", Some(1000)),
            ("1.0001", None),
            ("1.1", None),
            (".5", None),
            ("00.5", None),
            ("0.5x", None),
            ("+0.5", None),
            ("", None),
        ];
        for (raw, expected) in cases {
            assert_eq!(parse_qvalue(raw), expected, "{raw:?}");
        }
    }
}
