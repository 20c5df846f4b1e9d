//! The languages the services answer in.

use std::fmt;
use std::str::FromStr;

/// A language with a catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Locale {
    /// English, the reference catalogue and the fallback for missing texts.
    #[default]
    En,
    /// Czech.
    Cs,
    /// Ukrainian.
    Uk,
}

impl Locale {
    /// Every supported locale; English first.
    pub const ALL: [Locale; 3] = [Locale::En, Locale::Cs, Locale::Uk];

    /// The language tag, as sent in the `Content-Language` header: `"en"`, `"cs"` or `"uk"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Cs => "cs",
            Locale::Uk => "uk",
        }
    }

    /// Position in [`Locale::ALL`].
    pub(crate) const fn index(self) -> usize {
        match self {
            Locale::En => 0,
            Locale::Cs => 1,
            Locale::Uk => 2,
        }
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A language tag whose primary language has no catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedLocale(pub String);

impl fmt::Display for UnsupportedLocale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported language {:?}: expected en, cs or uk",
            self.0
        )
    }
}

impl std::error::Error for UnsupportedLocale {}

impl FromStr for Locale {
    type Err = UnsupportedLocale;

    /// Reads the primary language subtag, case-insensitively: `en`, `EN-gb`, `cs-CZ`, `cs_CZ`, `uk-UA`.
    fn from_str(tag: &str) -> Result<Self, Self::Err> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or_default();
        Locale::ALL
            .into_iter()
            .find(|locale| primary.eq_ignore_ascii_case(locale.as_str()))
            .ok_or_else(|| UnsupportedLocale(tag.to_owned()))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_primary_subtag() {
        let cases = [
            ("en", Some(Locale::En)),
            ("cs", Some(Locale::Cs)),
            ("cs-CZ", Some(Locale::Cs)),
            ("CS-cz", Some(Locale::Cs)),
            ("en-GB", Some(Locale::En)),
            ("EN", Some(Locale::En)),
            ("en-Latn-US", Some(Locale::En)),
            ("cs_CZ", Some(Locale::Cs)),
            (" cs ", Some(Locale::Cs)),
            ("uk", Some(Locale::Uk)),
            ("uk-UA", Some(Locale::Uk)),
            ("UK_ua", Some(Locale::Uk)),
            ("ua", None),
            ("ukr", None),
            ("cz", None),
            ("ces", None),
            ("de", None),
            ("", None),
            ("*", None),
            ("encs", None),
        ];
        for (tag, expected) in cases {
            assert_eq!(tag.parse::<Locale>().ok(), expected, "{tag:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for locale in Locale::ALL {
            assert_eq!(locale.as_str().parse::<Locale>(), Ok(locale));
            assert_eq!(locale.to_string(), locale.as_str());
            assert_eq!(Locale::ALL[locale.index()], locale);
        }
        assert_eq!(Locale::default(), Locale::En);
        assert!("xx"
            .parse::<Locale>()
            .unwrap_err()
            .to_string()
            .contains("\"xx\""));
    }
}
