#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn titles_are_trimmed_and_counted_in_characters_at_the_edges() {
    let longest = "ž".repeat(200);
    let cases: [(String, Result<String, TemplateRefusal>); 6] = [
        ("Přijato".into(), Ok("Přijato".into())),
        (format!("  {longest}\t"), Ok(longest.clone())),
        ("x".into(), Ok("x".into())),
        ("ž".repeat(201), Err(TemplateRefusal::Title { chars: 201 })),
        ("".into(), Err(TemplateRefusal::Title { chars: 0 })),
        (" \n\t ".into(), Err(TemplateRefusal::Title { chars: 0 })),
    ];
    for (given, want) in cases {
        assert_eq!(check_title(&given), want, "{given:?}");
    }
}

#[test]
fn texts_take_the_three_languages_within_the_statement_limit() {
    let longest = "é".repeat(4096);
    let too_long = "e".repeat(4097);
    type Case<'a> = (
        Vec<(&'a str, &'a str)>,
        Result<Vec<(Language, &'a str)>, TemplateRefusal>,
    );
    let cases: Vec<Case<'_>> = vec![
        (
            vec![("cs", "Děkujeme")],
            Ok(vec![(Language::Cs, "Děkujeme")]),
        ),
        (
            vec![("uk", "Дякуємо"), ("en", " Thanks "), ("cs", "Díky")],
            Ok(vec![
                (Language::Cs, "Díky"),
                (Language::En, " Thanks "),
                (Language::Uk, "Дякуємо"),
            ]),
        ),
        (vec![("en", &longest)], Ok(vec![(Language::En, &longest)])),
        (
            vec![("en", &too_long)],
            Err(TemplateRefusal::TextTooLong {
                language: Language::En,
                chars: 4097,
            }),
        ),
        (vec![], Err(TemplateRefusal::NoText)),
        (
            vec![("cs", "  ")],
            Err(TemplateRefusal::TextEmpty(Language::Cs)),
        ),
        (
            vec![("uk", "")],
            Err(TemplateRefusal::TextEmpty(Language::Uk)),
        ),
        (
            vec![("cs", "Díky"), ("de", "Danke")],
            Err(TemplateRefusal::UnknownLanguage("de".into())),
        ),
        (
            vec![("CS", "Díky")],
            Err(TemplateRefusal::UnknownLanguage("CS".into())),
        ),
    ];
    for (given, want) in cases {
        let got = check_texts(given.iter().copied());
        let got = got
            .as_ref()
            .map(|t| t.iter().collect::<Vec<_>>())
            .map_err(Clone::clone);
        assert_eq!(got, want, "{given:?}");
    }
}

#[test]
fn applies_on_is_accepted_resolved_or_nothing() {
    assert_eq!(check_applies_on(None), Ok(None));
    assert_eq!(
        check_applies_on(Some("accepted")),
        Ok(Some(AppliesOn::Accepted))
    );
    assert_eq!(
        check_applies_on(Some("resolved")),
        Ok(Some(AppliesOn::Resolved))
    );
    for bad in ["open", "duplicate", "moved", "Accepted", ""] {
        assert_eq!(
            check_applies_on(Some(bad)),
            Err(TemplateRefusal::AppliesOnInvalid(bad.into())),
            "{bad}"
        );
    }
    for value in [AppliesOn::Accepted, AppliesOn::Resolved] {
        assert_eq!(AppliesOn::parse(value.as_str()), Ok(value));
    }
}

#[test]
fn a_category_takes_its_hundredth_template_and_no_more() {
    assert_eq!(check_room(0), Ok(()));
    assert_eq!(check_room(99), Ok(()));
    assert_eq!(check_room(100), Err(TemplateRefusal::TooMany));
    assert_eq!(check_room(1000), Err(TemplateRefusal::TooMany));
}

#[test]
fn each_refusal_has_its_catalogue_text() {
    let cases = [
        (
            TemplateRefusal::Title { chars: 0 },
            "reply-template-title-invalid",
        ),
        (TemplateRefusal::NoText, "reply-template-texts-empty"),
        (
            TemplateRefusal::UnknownLanguage("de".into()),
            "reply-template-language-unknown",
        ),
        (
            TemplateRefusal::TextEmpty(Language::En),
            "reply-template-text-empty",
        ),
        (
            TemplateRefusal::TextTooLong {
                language: Language::Uk,
                chars: 4097,
            },
            "reply-template-text-too-long",
        ),
        (
            TemplateRefusal::AppliesOnInvalid("open".into()),
            "reply-template-applies-on-invalid",
        ),
        (TemplateRefusal::TooMany, "reply-templates-too-many"),
    ];
    for (refusal, key) in cases {
        assert_eq!(refusal.message().key, key, "{refusal:?}");
    }
    let message = TemplateRefusal::TextTooLong {
        language: Language::Uk,
        chars: 4097,
    }
    .message();
    assert_eq!(message.get("language"), Some("uk"));
    assert_eq!(message.get("max"), Some("4096"));
    assert_eq!(
        TemplateRefusal::UnknownLanguage("de".into())
            .message()
            .get("value"),
        Some("\"de\"")
    );
}

#[test]
fn languages_read_their_keys_only() {
    for language in Language::ALL {
        assert_eq!(Language::parse(language.as_str()), Some(language));
    }
    assert_eq!(Language::parse("sk"), None);
}
