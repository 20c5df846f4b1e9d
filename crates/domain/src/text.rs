//! Text folding for search that ignores case and diacritics.
//!
//! Names are folded once when stored (into an indexed search column) and queries are folded
//! the same way, so the database compares plain lowercase ASCII-ish text. Folding: Unicode
//! NFKD, combining marks dropped, a few letters without a decomposition mapped by hand
//! (ß, ł, đ, ø, æ, œ, ı), lowercase, and every run of non-alphanumeric characters turned into a
//! single space, trimmed. Word boundaries are therefore exactly the spaces.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Folds `text` for search: see the module documentation.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfkd().filter(|c| !is_combining_mark(*c)) {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            push_lower(&mut out, c);
        } else {
            pending_space = true;
        }
    }
    out
}

/// A search query (`q` of every service) as the services match it. The one rule: a query that
/// folds to nothing (only punctuation or symbols: `%`, `_`, `!!!`) matches nothing, so the
/// characters that are wildcards in SQL `LIKE` never act as wildcards, and every service answers
/// such a query with an empty list (docs/decisions.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Search {
    /// The query folded to nothing: it matches nothing.
    Nothing,
    /// The folded query ([`fold`]): letters, digits and single spaces, never empty.
    Folded(String),
}

impl Search {
    /// Folds `query` ([`fold`]) into what it matches.
    pub fn new(query: &str) -> Self {
        let folded = fold(query);
        if folded.is_empty() {
            Self::Nothing
        } else {
            Self::Folded(folded)
        }
    }

    /// The folded text to look for; `None` when the query matches nothing.
    pub fn folded(&self) -> Option<&str> {
        match self {
            Self::Nothing => None,
            Self::Folded(text) => Some(text),
        }
    }
}

fn push_lower(out: &mut String, c: char) {
    match c {
        'ß' | 'ẞ' => out.push_str("ss"),
        'Ł' | 'ł' => out.push('l'),
        'Đ' | 'đ' => out.push('d'),
        'Ø' | 'ø' => out.push('o'),
        'Æ' | 'æ' => out.push_str("ae"),
        'Œ' | 'œ' => out.push_str("oe"),
        'ı' => out.push('i'),
        _ => out.extend(c.to_lowercase()),
    }
}

/// How well a folded name matches a folded query; lower is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchRank {
    /// The whole name equals the query.
    Whole = 0,
    /// The name starts with the query.
    NamePrefix = 1,
    /// A later word of the name starts with the query.
    WordPrefix = 2,
}

/// Ranks a folded `name` against a folded `query`; `None` when it does not match.
pub fn match_rank(name: &str, query: &str) -> Option<MatchRank> {
    if query.is_empty() {
        return None;
    }
    if name == query {
        Some(MatchRank::Whole)
    } else if name.starts_with(query) {
        Some(MatchRank::NamePrefix)
    } else if name.contains(&format!(" {query}")) {
        // `match_indices` would miss a word start that overlaps an earlier, non-word match
        // ("xa a a" for "a a"); a space before the query is exactly "a later word starts with it".
        Some(MatchRank::WordPrefix)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_diacritics() {
        assert_eq!(fold("Avenue des Spélugues"), "avenue des spelugues");
        assert_eq!(fold("SPÉL"), "spel");
        assert_eq!(fold("Žižkova třída"), "zizkova trida");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("Łódź"), "lodz");
        assert_eq!(fold("  Nám. Míru -- 12 "), "nam miru 12");
        assert_eq!(fold("ﬁ"), "fi");
        assert_eq!(fold("%_"), "");
    }

    #[test]
    fn a_query_folding_to_nothing_matches_nothing() {
        for (query, expected) in [
            ("%", Search::Nothing),
            ("_", Search::Nothing),
            ("!!!", Search::Nothing),
            ("%_%", Search::Nothing),
            ("  ", Search::Nothing),
            ("\u{301}", Search::Nothing),
            ("a%", Search::Folded("a".into())),
            ("_Spél_", Search::Folded("spel".into())),
            ("Nám. Míru", Search::Folded("nam miru".into())),
            ("42", Search::Folded("42".into())),
        ] {
            assert_eq!(Search::new(query), expected, "{query:?}");
        }
        assert_eq!(Search::new("!!!").folded(), None);
        assert_eq!(Search::new("Spél").folded(), Some("spel"));
    }

    #[test]
    fn ranks_whole_then_prefix_then_word_prefix() {
        let name = fold("Avenue des Spélugues");
        assert_eq!(
            match_rank(&name, &fold("spel")),
            Some(MatchRank::WordPrefix)
        );
        assert_eq!(
            match_rank(&name, &fold("AVENUE")),
            Some(MatchRank::NamePrefix)
        );
        assert_eq!(
            match_rank(&name, &fold("avenue des spélugues")),
            Some(MatchRank::Whole)
        );
        assert_eq!(
            match_rank(&name, &fold("des spe")),
            Some(MatchRank::WordPrefix)
        );
        assert_eq!(match_rank(&name, &fold("pel")), None);
        // A word start overlapping an earlier match that is not at a word start.
        assert_eq!(match_rank("xa a a", "a a"), Some(MatchRank::WordPrefix));
        assert_eq!(match_rank(&name, ""), None);
    }
}
