//! Rendering in every language, the fallbacks, and every domain error's message.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::error_code::ErrorCode;
use domain::geo::{CoordinateError, LocationError};
use domain::i18n::Message;
use domain::limits::{self, Page};
use domain::markdown::UnsafeMarkdown;
use domain::messages::MessageRuleError;
use i18n::{error_title, render, Catalogues, Locale};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn catalogues_are_shared_between_threads() {
    assert_send_sync::<Catalogues>();
    let handle = std::thread::spawn(|| render(Locale::Cs, &Message::new("token-expired")));
    assert_eq!(handle.join().unwrap(), "Platnost tokenu vypršela.");
}

#[test]
fn examples_in_both_languages() {
    let cases: Vec<(Message, &str, &str)> = vec![
        (
            Message::new("token-missing"),
            "missing bearer token",
            "Chybí token typu Bearer.",
        ),
        (Message::new("token-expired"), "token expired", "Platnost tokenu vypršela."),
        (
            Message::new("not-ready").arg("checks", "database"),
            "not ready: database",
            "Služba není připravena: database",
        ),
        (
            Message::new("route-not-found"),
            "no route matches this path",
            "Tato cesta neexistuje.",
        ),
        (
            Message::new("request-timeout"),
            "the request took too long",
            "Požadavek trval příliš dlouho.",
        ),
        (
            Message::new("json-syntax").arg("reason", "EOF at line 1"),
            "the body is not valid JSON: EOF at line 1",
            "Tělo požadavku není platný JSON: EOF at line 1",
        ),
        (
            Message::new("scope-required").arg("scope", "platform:messages:manage"),
            "this operation requires the scope `platform:messages:manage`",
            "Tato operace vyžaduje oprávnění (scope) `platform:messages:manage`.",
        ),
        (
            Message::new("street-not-found").arg("id", "abc"),
            "no street \"abc\"",
            "Ulice „abc“ neexistuje.",
        ),
        (
            Message::new("database-not-migrated").arg("service", "streets-api"),
            "the database schema is older than this version of streets-api; run `streets-api migrate`",
            "Schéma databáze je starší než tato verze služby streets-api; spusťte `streets-api migrate`.",
        ),
        (
            Message::new("body-too-large").arg("limit", 1_048_576),
            "the request body is too large (at most 1048576 bytes)",
            "Tělo požadavku je příliš velké (nejvýše 1048576 bajtů).",
        ),
        (
            Message::new("body-too-large").arg("limit", 1),
            "the request body is too large (at most 1 byte)",
            "Tělo požadavku je příliš velké (nejvýše 1 bajt).",
        ),
        (
            Message::new("multipart-file-too-large")
                .arg("field", "photo")
                .arg("limit", 3),
            "the file in the form field \"photo\" is too large (at most 3 bytes)",
            "Soubor v poli formuláře „photo“ je příliš velký (nejvýše 3 bajty).",
        ),
        (
            Message::new("q-too-short").arg("min", 2),
            "q must have at least 2 characters",
            "Parametr q musí mít alespoň 2 znaky.",
        ),
        (
            Message::new("q-too-short").arg("min", 1.5),
            "q must have at least 1.5 characters",
            "Parametr q musí mít alespoň 1.5 znaku.",
        ),
        (
            Message::new("client-id-missing"),
            "client_id is required: give ?client_id= or use a token issued to a client application",
            "Parametr client_id je povinný: zadejte ?client_id= nebo použijte token vydaný klientské aplikaci.",
        ),
    ];
    for (message, en, cs) in cases {
        assert_eq!(render(Locale::En, &message), en, "{message}");
        assert_eq!(render(Locale::Cs, &message), cs, "{message}");
    }
}

#[test]
fn examples_in_ukrainian() {
    let tags_not_own = "не належить до Ваших сповіщень; нічого не позначено як прочитане.";
    let cases: Vec<(Message, String)> = vec![
        (
            Message::new("token-expired"),
            "Термін дії токена минув.".into(),
        ),
        (
            Message::new("street-not-found").arg("id", "abc"),
            "Вулиці «abc» не існує.".into(),
        ),
        (
            Message::new("report-outside-city"),
            "Зазначене місце розташоване за межами території міста.".into(),
        ),
        (
            Message::new("scope-required").arg("scope", "platform:messages:manage"),
            "Ця операція потребує дозволу (scope) `platform:messages:manage`.".into(),
        ),
        (
            Message::new("limit-out-of-range")
                .arg("parameter", "limit")
                .arg("min", 1)
                .arg("max", 100)
                .arg("value", 0),
            "Параметр limit має бути в межах від 1 до 100, отримано 0.".into(),
        ),
        // Plural forms: one (1, 21), few (2–4, 22–24), many (0, 5–20, 25…), other (fractions).
        (
            Message::new("body-too-large").arg("limit", 1),
            "Тіло запиту завелике (щонайбільше 1 байт).".into(),
        ),
        (
            Message::new("body-too-large").arg("limit", 21),
            "Тіло запиту завелике (щонайбільше 21 байт).".into(),
        ),
        (
            Message::new("body-too-large").arg("limit", 3),
            "Тіло запиту завелике (щонайбільше 3 байти).".into(),
        ),
        (
            Message::new("body-too-large").arg("limit", 12),
            "Тіло запиту завелике (щонайбільше 12 байтів).".into(),
        ),
        (
            Message::new("body-too-large").arg("limit", 1_048_576),
            "Тіло запиту завелике (щонайбільше 1048576 байтів).".into(),
        ),
        (
            Message::new("q-too-short").arg("min", 1.5),
            "Параметр q має містити щонайменше 1.5 символу.".into(),
        ),
        (
            Message::new("rate-limit-reports").arg("seconds", 22),
            "З Вашої адреси надійшло забагато звернень; спробуйте ще раз через 22 секунди.".into(),
        ),
        (
            Message::new("rate-limit-reports").arg("seconds", 11),
            "З Вашої адреси надійшло забагато звернень; спробуйте ще раз через 11 секунд.".into(),
        ),
        (
            Message::new("notification-tags-not-own").arg("count", 1),
            format!("Один тег {tags_not_own}"),
        ),
        (
            Message::new("notification-tags-not-own").arg("count", 21),
            format!("21 тег {tags_not_own}"),
        ),
        (
            Message::new("notification-tags-not-own").arg("count", 3),
            format!("3 теги {}", tags_not_own.replace("належить", "належать")),
        ),
        (
            Message::new("notification-digest-title").arg("count", 1),
            "Одне нове сповіщення".into(),
        ),
        (
            Message::new("notification-digest-title").arg("count", 5),
            "5 нових сповіщень".into(),
        ),
        (
            Message::new("notification-report-status-body")
                .arg("title", "Яма")
                .arg("status", "accepted"),
            "Звернення «Яма» прийнято.".into(),
        ),
        (
            Message::new("notification-report-status-body")
                .arg("title", "Яма")
                .arg("status", "open"),
            "Звернення «Яма» тепер має статус open.".into(),
        ),
    ];
    for (message, uk) in cases {
        let rendered = Catalogues::global().render_checked(Locale::Uk, &message);
        assert_eq!(rendered.locale, Some(Locale::Uk), "{message}: {rendered:?}");
        assert_eq!(rendered.text, uk, "{message}");
    }
}

#[test]
fn error_titles() {
    assert_eq!(
        error_title(Locale::Cs, ErrorCode::RequestTimeout),
        "Požadavek trval příliš dlouho."
    );
    assert_eq!(
        error_title(Locale::En, ErrorCode::StreetNotFound),
        "The street does not exist."
    );
    assert_eq!(
        error_title(Locale::Uk, ErrorCode::ReportOutsideCity),
        "Місце, зазначене у зверненні, розташоване за межами міста."
    );
    for code in ErrorCode::ALL {
        let en = error_title(Locale::En, *code);
        let cs = error_title(Locale::Cs, *code);
        let uk = error_title(Locale::Uk, *code);
        assert_ne!(en, cs, "{code} is not translated");
        assert!(uk != en && uk != cs, "{code} is not translated to uk");
        assert!(
            [&en, &cs, &uk].iter().all(|t| !t.starts_with("error-")),
            "{code}"
        );
    }
}

#[test]
fn no_isolation_marks() {
    let text = render(Locale::Cs, &Message::new("message-not-found").arg("id", 7));
    assert_eq!(text, "Zpráva 7 pro tohoto klienta neexistuje.");
    assert!(!text.contains(['\u{2068}', '\u{2069}']));
}

#[test]
fn a_missing_argument_falls_back_to_english_then_to_the_key() {
    let message = Message::new("text-too-long").arg("max", 4000);
    let rendered = Catalogues::global().render_checked(Locale::Cs, &message);
    assert_eq!(rendered.text, "text-too-long");
    assert_eq!(rendered.locale, None);
    assert_eq!(rendered.problems.len(), 2, "{:?}", rendered.problems);
    assert!(
        rendered.problems[0].starts_with("cs: text-too-long"),
        "{rendered:?}"
    );
    assert!(rendered.problems[0].contains("got"), "{rendered:?}");

    // A catalogue whose Czech text needs an argument the English one does not: English it is.
    let catalogues =
        Catalogues::from_sources(["hello = Hello!\n", "hello = Ahoj, { $name }!\n", ""]);
    let rendered = catalogues.render_checked(Locale::Cs, &Message::new("hello"));
    assert_eq!(rendered.text, "Hello!");
    assert_eq!(rendered.locale, Some(Locale::En));
    assert_eq!(rendered.problems.len(), 1);
    let czech = catalogues.render(Locale::Cs, &Message::new("hello").arg("name", "Jano"));
    assert_eq!(czech, "Ahoj, Jano!");
}

#[test]
fn an_unknown_key_falls_back_to_english_then_to_the_key() {
    let rendered = Catalogues::global().render_checked(Locale::Cs, &Message::new("no-such-key"));
    assert_eq!(rendered.text, "no-such-key");
    assert_eq!(rendered.locale, None);
    assert_eq!(
        rendered.problems,
        [
            "cs: no message \"no-such-key\"",
            "en: no message \"no-such-key\""
        ]
    );
    assert_eq!(
        render(Locale::En, &Message::new("no-such-key")),
        "no-such-key"
    );

    let catalogues = Catalogues::from_sources(["only-english = Only English\n", "", ""]);
    let rendered = catalogues.render_checked(Locale::Cs, &Message::new("only-english"));
    assert_eq!(
        (rendered.text.as_str(), rendered.locale),
        ("Only English", Some(Locale::En))
    );
}

#[test]
fn broken_catalogues_report_problems_instead_of_panicking() {
    let catalogues = Catalogues::from_sources(["a = A\na = again\n", "b = { \n", ""]);
    assert_eq!(
        catalogues.problems().len(),
        2,
        "{:?}",
        catalogues.problems()
    );
    assert_eq!(catalogues.render(Locale::Cs, &Message::new("a")), "A");
}

/// Every domain error, its Display (English, for logs) and its message.
fn domain_errors() -> Vec<(String, Message)> {
    let mut errors: Vec<(String, Message)> = Vec::new();
    let limit_errors = [
        Page::parse(Some("abc"), None).unwrap_err(),
        Page::parse(Some("0"), None).unwrap_err(),
        Page::parse(None, Some("1001")).unwrap_err(),
        limits::parse_f64_in("radius", Some("x"), 0.0, 5000.0).unwrap_err(),
        limits::parse_f64_in("radius", Some("5000.5"), 0.0, 5000.0).unwrap_err(),
        limits::parse_q(Some("")).unwrap_err(),
        limits::parse_q(Some(&"x".repeat(201))).unwrap_err(),
    ];
    for err in limit_errors {
        errors.push((err.to_string(), err.message));
    }
    for err in [CoordinateError::Longitude, CoordinateError::Latitude] {
        errors.push((err.to_string(), err.message()));
    }
    let location = [
        LocationError::Shape,
        LocationError::Radius,
        LocationError::Coordinate(CoordinateError::Latitude),
    ];
    for err in location {
        errors.push((err.to_string(), err.message()));
    }
    let markdown = [
        UnsafeMarkdown::RawHtml { html: "<b>".into() },
        UnsafeMarkdown::UnsafeLink {
            destination: "java\tscript:x".into(),
        },
        UnsafeMarkdown::ProtocolRelativeLink {
            destination: "//evil.example".into(),
        },
        UnsafeMarkdown::HeadingAttribute {
            attribute: "onclick=x".into(),
        },
    ];
    for err in markdown.clone() {
        errors.push((err.to_string(), err.message()));
    }
    let rules = [
        MessageRuleError::InvalidClientId,
        MessageRuleError::EmptyText,
        MessageRuleError::TextTooLong(4001),
        MessageRuleError::InvalidTitle,
        MessageRuleError::UnknownKind("Outage".into()),
        MessageRuleError::UnknownAudience("admins".into()),
        MessageRuleError::NoRoles,
        MessageRuleError::RolesWithoutRolesAudience,
        MessageRuleError::InvalidRoles,
        MessageRuleError::EmptyWindow,
    ];
    for err in rules {
        errors.push((err.to_string(), err.message()));
    }
    for err in markdown {
        let rule = MessageRuleError::UnsafeText(err.clone());
        errors.push((err.to_string(), rule.message()));
    }
    errors
}

#[test]
fn every_domain_error_renders_in_every_locale() {
    let errors = domain_errors();
    assert_eq!(errors.len(), 30);
    for (display, message) in &errors {
        for locale in Locale::ALL {
            let rendered = Catalogues::global().render_checked(locale, message);
            assert_eq!(rendered.locale, Some(locale), "{message}: {rendered:?}");
            assert!(rendered.problems.is_empty(), "{message}: {rendered:?}");
            let text = &rendered.text;
            assert!(
                !text.contains("{$") && !text.contains("{ $"),
                "{message}: {text}"
            );
            assert_ne!(text, message.key);
        }
        // The English text is the one the domain logs (and answered before localization);
        // a limit error's Display is for logs only and shows the key.
        if !display.contains(message.key) {
            assert_eq!(&render(Locale::En, message), display, "{message}");
        }
    }
}

#[test]
fn limit_errors_read_as_before() {
    let cases = [
        (
            Page::parse(Some("abc"), None),
            "limit must be an integer, got \"abc\"",
        ),
        (
            Page::parse(Some("0"), None),
            "limit must be between 1 and 100, got 0",
        ),
        (
            limits::parse_f64_in("radius", Some("5000.5"), 0.0, 5000.0).map(|_| Page::default()),
            "radius must be between 0 and 5000, got 5000.5",
        ),
        (
            limits::parse_q(Some("")).map(|_| Page::default()),
            "q must have at least 1 character",
        ),
    ];
    for (result, english) in cases {
        let err = result.unwrap_err();
        assert_eq!(render(Locale::En, &err.message), english);
    }
    let err = Page::parse(Some("0"), None).unwrap_err();
    assert_eq!(
        render(Locale::Cs, &err.message),
        "Parametr limit musí být v rozmezí 1 až 100, zadáno 0."
    );
    let err = MessageRuleError::TextTooLong(4001);
    assert_eq!(
        render(Locale::Cs, &err.message()),
        "Text zprávy smí mít nejvýše 4000 znaků, má 4001."
    );
}
