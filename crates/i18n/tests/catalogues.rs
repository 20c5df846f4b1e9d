//! The catalogues are complete and consistent: same ids and variables in every locale, an entry
//! for every error code and for every `Message::new("…")` key in the workspace's sources.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use i18n::{Catalogues, Locale};

#[test]
fn catalogues_parse_without_problems() {
    assert_eq!(Catalogues::global().problems(), &[] as &[String]);
    for locale in Locale::ALL {
        assert!(
            Catalogues::message_ids(locale).len() > 50,
            "{locale}: too few messages"
        );
    }
}

/// Ids present in one catalogue but not in another, for every pair.
fn id_differences(ids: &BTreeMap<Locale, BTreeSet<&str>>) -> Vec<String> {
    let mut differences = Vec::new();
    for (a, a_ids) in ids {
        for (b, b_ids) in ids {
            for id in a_ids.difference(b_ids) {
                differences.push(format!("{id} is in {a}.ftl but not in {b}.ftl"));
            }
        }
    }
    differences
}

#[test]
fn every_catalogue_has_the_same_ids() {
    let ids: BTreeMap<Locale, BTreeSet<&str>> = Locale::ALL
        .into_iter()
        .map(|locale| (locale, Catalogues::message_ids(locale)))
        .collect();
    let differences = id_differences(&ids);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn the_id_comparison_fails_when_a_catalogue_lacks_an_entry() {
    let mut ids: BTreeMap<Locale, BTreeSet<&str>> = Locale::ALL
        .into_iter()
        .map(|locale| (locale, Catalogues::message_ids(locale)))
        .collect();
    ids.get_mut(&Locale::Uk).unwrap().remove("token-expired");
    assert_eq!(
        id_differences(&ids),
        [
            "token-expired is in en.ftl but not in uk.ftl",
            "token-expired is in cs.ftl but not in uk.ftl"
        ]
    );
}

#[test]
fn every_error_code_has_a_title_in_every_catalogue() {
    for locale in Locale::ALL {
        let ids = Catalogues::message_ids(locale);
        for code in ErrorCode::ALL {
            let id = format!("error-{}", code.as_str());
            assert!(ids.contains(id.as_str()), "{locale}.ftl lacks {id}");
            let rendered = Catalogues::global().error_title_checked(locale, *code);
            assert_eq!(rendered.locale, Some(locale), "{id}: {rendered:?}");
            assert!(rendered.problems.is_empty(), "{id}: {rendered:?}");
        }
    }
}

#[test]
fn every_message_uses_the_same_variables_in_every_locale() {
    let reference = Catalogues::variables(Locale::En);
    for locale in Locale::ALL {
        let variables = Catalogues::variables(locale);
        for (id, expected) in &reference {
            if let Some(found) = variables.get(id) {
                assert_eq!(
                    found, expected,
                    "{id}: $variables of {locale}.ftl and en.ftl"
                );
            }
        }
    }
    // Spot checks that the comparison sees selectors and plain placeables.
    assert_eq!(
        reference["text-too-long"],
        BTreeSet::from(["got", "max"]),
        "text-too-long"
    );
    assert_eq!(reference["body-too-large"], BTreeSet::from(["limit"]));
}

#[test]
fn every_message_renders_cleanly_in_its_own_catalogue() {
    for locale in Locale::ALL {
        for (id, variables) in Catalogues::variables(locale) {
            let mut message = Message::new(id);
            for variable in variables {
                message = message.arg(variable, 7);
            }
            let rendered = Catalogues::global().render_checked(locale, &message);
            assert_eq!(rendered.locale, Some(locale), "{id}: {rendered:?}");
            assert!(rendered.problems.is_empty(), "{id}: {rendered:?}");
        }
    }
}

/// Messages of `locale` whose text has no letter of `script`: untranslated ones, unless the
/// text is only placeables and punctuation.
fn without_script(locale: Locale, script: impl Fn(char) -> bool, allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (id, variables) in Catalogues::variables(locale) {
        let mut message = Message::new(id);
        for variable in variables {
            message = message.arg(variable, 7);
        }
        let text = Catalogues::global().render(locale, &message);
        if !allowed.contains(&id) && !text.chars().any(&script) {
            found.push(format!("{locale}.ftl: {id} = {text}"));
        }
    }
    found
}

#[test]
fn every_ukrainian_text_is_in_ukrainian() {
    let cyrillic = |c: char| ('\u{0400}'..='\u{04FF}').contains(&c);
    let untranslated = without_script(Locale::Uk, cyrillic, &["notification-news-body"]);
    assert!(untranslated.is_empty(), "{}", untranslated.join("\n"));
    // The check sees an English text.
    let english = without_script(Locale::En, cyrillic, &[]);
    assert_eq!(english.len(), Catalogues::message_ids(Locale::En).len());
}

/// The workspace root, two levels above this crate.
fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// Every `.rs` file under `crates/*/src`.
fn source_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The keys of `Message::new("…")` in `source` outside `//` comments; a call whose argument is not a string literal
/// is an error (keys must be literals so that this scan finds them).
fn message_keys(source: &str) -> Result<Vec<&str>, String> {
    const CALL: &str = "Message::new(";
    let mut keys = Vec::new();
    for (at, _) in source.match_indices(CALL) {
        let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
        if source[line_start..at].contains("//") {
            continue; // A comment or documentation, not a call.
        }
        let rest = source[at + CALL.len()..].trim_start();
        let literal = rest
            .strip_prefix('"')
            .and_then(|rest| rest.split_once('"'))
            .map(|(key, _)| key);
        match literal {
            Some(key) => keys.push(key),
            None => {
                let line = source[..at].lines().count();
                return Err(format!("line {line}: Message::new without a literal key"));
            }
        }
    }
    Ok(keys)
}

#[test]
fn the_key_scan_reads_literals_only() {
    let source =
        "let a = Message::new(\"a-b\");\n let b = domain::i18n::Message::new(\n    \"c\")\n";
    assert_eq!(message_keys(source), Ok(vec!["a-b", "c"]));
    assert!(message_keys("Message::new(key)").is_err());
    assert_eq!(
        message_keys("/// `Message::new(\"…\")` or Message::new(x)"),
        Ok(vec![])
    );
}

#[test]
fn every_key_used_in_the_sources_is_in_every_catalogue() {
    let catalogues: Vec<(Locale, BTreeSet<&str>)> = Locale::ALL
        .into_iter()
        .map(|locale| (locale, Catalogues::message_ids(locale)))
        .collect();
    let mut used = BTreeSet::new();
    let mut missing = Vec::new();
    for file in source_files() {
        let source = std::fs::read_to_string(&file).unwrap();
        let keys = message_keys(&source).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for key in keys {
            let well_formed = key.split('-').all(|word| {
                !word.is_empty()
                    && word
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
            assert!(well_formed, "{}: key {key:?}", file.display());
            used.insert(key.to_owned());
            for (locale, ids) in &catalogues {
                if !ids.contains(key) {
                    missing.push(format!("{}: {key} is not in {locale}.ftl", file.display()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // The scan did find the domain's keys.
    for key in ["text-too-long", "limit-out-of-range", "location-shape"] {
        assert!(used.contains(key), "{key} not found by the scan");
    }
}
