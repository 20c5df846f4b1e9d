//! Choosing the answer language from an HTTP `Accept-Language` header (RFC 9110, section 12.5.4).

use crate::Locale;

/// A weight in thousandths: `q=0.5` is 500, no `q` is 1000.
type Weight = u16;

/// The supported locale the client prefers, or `default`.
///
/// `accept_language` is the header value, e.g. `cs-CZ, cs;q=0.9, en;q=0.8, *;q=0.1`:
///
/// * A language range matches a locale by its primary subtag, case-insensitively (`cs-CZ` and
///   `CS` are Czech). Ranges of unsupported languages are skipped.
/// * The locale with the highest weight wins; on equal weights the range written first wins.
///   A locale named several times takes its highest weight.
/// * `q=0` means "not acceptable": such a locale is never chosen because of that range.
/// * `*` stands for the default locale, or, when the header names the default explicitly, for
///   the first supported locale (in [`Locale::ALL`] order) that the header does not name.
/// * Malformed items (a bad tag, a `q` outside `0..=1` or with more than three decimals, an
///   unknown parameter, a repeated `q`) are ignored; empty items are allowed.
/// * No header, or nothing acceptable in it, gives `default`.
///
/// The work is linear in the length of the header.
pub fn negotiate(accept_language: Option<&str>, default: Locale) -> Locale {
    let Some(header) = accept_language else {
        return default;
    };
    // Per locale: its best weight and the position of the first range giving it.
    let mut named: [Option<(Weight, usize)>; Locale::ALL.len()] = [None; Locale::ALL.len()];
    let mut wildcard: Option<(Weight, usize)> = None;
    for (position, item) in header.split(',').enumerate() {
        let Some((range, weight)) = parse_item(item) else {
            continue;
        };
        let slot = match range {
            Range::Any => &mut wildcard,
            Range::Language(primary) => match primary.parse::<Locale>() {
                Ok(locale) => &mut named[locale.index()],
                Err(_) => continue,
            },
        };
        if slot.is_none_or(|(best, _)| weight > best) {
            *slot = Some((weight, position));
        }
    }
    let mut candidates: Vec<(Locale, Weight, usize)> = Locale::ALL
        .into_iter()
        .filter_map(|locale| named[locale.index()].map(|(w, p)| (locale, w, p)))
        .collect();
    if let Some((weight, position)) = wildcard {
        let unnamed = |locale: &Locale| named[locale.index()].is_none();
        let target = Some(default)
            .filter(unnamed)
            .or_else(|| Locale::ALL.into_iter().find(unnamed));
        if let Some(locale) = target {
            candidates.push((locale, weight, position));
        }
    }
    candidates
        .into_iter()
        .filter(|(_, weight, _)| *weight > 0)
        // Highest weight, then earliest position.
        .min_by_key(|(_, weight, position)| (Weight::MAX - weight, *position))
        .map_or(default, |(locale, _, _)| locale)
}

/// A language range: `*` or a tag's primary subtag.
enum Range<'a> {
    Any,
    Language(&'a str),
}

/// One list item: `range *( OWS ";" OWS "q=" qvalue )`, with exactly zero or one weight.
fn parse_item(item: &str) -> Option<(Range<'_>, Weight)> {
    let mut parts = item.split(';');
    let range = parts.next()?.trim_matches(is_ows);
    let range = if range == "*" {
        Range::Any
    } else {
        Range::Language(primary_subtag(range)?)
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

/// The primary subtag of a well-formed language range (`1*8ALPHA *("-" 1*8alphanum)`).
fn primary_subtag(range: &str) -> Option<&str> {
    let mut subtags = range.split('-');
    let primary = subtags.next()?;
    let well_formed = |s: &str, alpha_only: bool| {
        (1..=8).contains(&s.len())
            && s.bytes().all(|b| {
                if alpha_only {
                    b.is_ascii_alphabetic()
                } else {
                    b.is_ascii_alphanumeric()
                }
            })
    };
    (well_formed(primary, true) && subtags.all(|s| well_formed(s, false))).then_some(primary)
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
    use Locale::{Cs, En};

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
            (Some("cs_CZ"), En, En),
            (Some("čs, en"), Cs, En),
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
