use super::*;

fn roles(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn win(from: Option<i64>, to: Option<i64>) -> Window<i64> {
    Window::new(from, to).unwrap()
}

#[test]
fn client_id_rules() {
    for ok in ["web", "citizen-app.prod", "A_1", &"a".repeat(64)] {
        assert_eq!(validate_client_id(ok), Ok(()), "{ok}");
    }
    for bad in [
        "",
        "-web",
        ".x",
        "a/b",
        "a+b",
        "a#",
        "a b",
        "é",
        &"a".repeat(65),
    ] {
        assert_eq!(
            validate_client_id(bad),
            Err(MessageRuleError::InvalidClientId),
            "{bad}"
        );
    }
}

#[test]
fn text_size_edges() {
    assert_eq!(validate_text_size(""), Err(MessageRuleError::EmptyText));
    assert_eq!(
        validate_text_size(" \n\t"),
        Err(MessageRuleError::EmptyText)
    );
    assert_eq!(validate_text_size(&"é".repeat(TEXT_MAX_CHARS)), Ok(()));
    assert_eq!(
        validate_text_size(&"x".repeat(TEXT_MAX_CHARS + 1)),
        Err(MessageRuleError::TextTooLong(TEXT_MAX_CHARS + 1))
    );
}

#[test]
fn text_rules_include_markdown_safety() {
    assert_eq!(
        validate_text("See [status](https://status.example.org)."),
        Ok(())
    );
    for bad in [
        "[x](javascript:alert(1))",
        "<b>hi</b>",
        "[x](JaVaScRiPt:alert(1))",
        "![i](data:image/png;base64,AA)",
    ] {
        let err = validate_text(bad).unwrap_err();
        assert!(
            matches!(err, MessageRuleError::UnsafeText(_)),
            "{bad}: {err:?}"
        );
        assert_eq!(err.code(), ErrorCode::UnsafeMessageText);
    }
    assert_eq!(
        validate_text("").unwrap_err().code(),
        ErrorCode::ValidationError
    );
}

#[test]
fn rule_errors_name_their_keys_and_arguments() {
    let unsafe_link = UnsafeMarkdown::UnsafeLink {
        destination: "javascript:x".into(),
    };
    type Case = (
        MessageRuleError,
        &'static str,
        &'static [(&'static str, &'static str)],
    );
    let cases: [Case; 11] = [
        (
            MessageRuleError::InvalidClientId,
            "client-id-invalid",
            &[("max", "64")],
        ),
        (MessageRuleError::EmptyText, "text-empty", &[]),
        (
            MessageRuleError::TextTooLong(4001),
            "text-too-long",
            &[("max", "4000"), ("got", "4001")],
        ),
        (
            MessageRuleError::UnsafeText(unsafe_link),
            "markdown-unsafe-link",
            &[("destination", "\"javascript:x\"")],
        ),
        (
            MessageRuleError::InvalidTitle,
            "title-invalid",
            &[("max", "200")],
        ),
        (
            MessageRuleError::UnknownKind("x".into()),
            "kind-unknown",
            &[("kind", "x")],
        ),
        (
            MessageRuleError::UnknownAudience("y".into()),
            "audience-unknown",
            &[("audience", "y")],
        ),
        (MessageRuleError::NoRoles, "audience-roles-empty", &[]),
        (
            MessageRuleError::RolesWithoutRolesAudience,
            "roles-without-audience",
            &[],
        ),
        (
            MessageRuleError::InvalidRoles,
            "roles-invalid",
            &[("max-roles", "20"), ("max-chars", "100")],
        ),
        (MessageRuleError::EmptyWindow, "window-empty", &[]),
    ];
    for (err, key, args) in cases {
        let message = err.message();
        assert_eq!(message.key, key, "{err}");
        let expected: Vec<(&str, String)> =
            args.iter().map(|(n, v)| (*n, (*v).to_owned())).collect();
        assert_eq!(message.args, expected, "{err}");
    }
}

#[test]
fn unsafe_text_display_keeps_the_markdown_reason() {
    let err = validate_text("<b>hi</b>").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("text is not safe Markdown: raw HTML is not allowed"),
        "{err}"
    );
}

#[test]
fn title_edges() {
    assert_eq!(validate_title(None), Ok(()));
    assert_eq!(validate_title(Some(&"t".repeat(TITLE_MAX_CHARS))), Ok(()));
    assert_eq!(
        validate_title(Some(&"t".repeat(TITLE_MAX_CHARS + 1))),
        Err(MessageRuleError::InvalidTitle)
    );
    assert_eq!(
        validate_title(Some("  ")),
        Err(MessageRuleError::InvalidTitle)
    );
}

#[test]
fn kind_parses_known_names_only() {
    assert_eq!("outage".parse::<Kind>(), Ok(Kind::Outage));
    assert_eq!(
        "Outage".parse::<Kind>(),
        Err(MessageRuleError::UnknownKind("Outage".into()))
    );
    for k in [Kind::Info, Kind::Maintenance, Kind::Outage] {
        assert_eq!(k.as_str().parse::<Kind>(), Ok(k));
    }
}

#[test]
fn audience_parsing() {
    assert_eq!(
        Audience::from_parts("everyone", vec![]),
        Ok(Audience::Everyone)
    );
    assert_eq!(
        Audience::from_parts("signed_in", vec![]),
        Ok(Audience::SignedIn)
    );
    assert_eq!(
        Audience::from_parts("roles", roles(&["b", "a", "b"])),
        Ok(Audience::Roles(roles(&["a", "b"])))
    );
    assert_eq!(
        Audience::from_parts("roles", vec![]),
        Err(MessageRuleError::NoRoles)
    );
    assert_eq!(
        Audience::from_parts("admins", vec![]),
        Err(MessageRuleError::UnknownAudience("admins".into()))
    );
    assert_eq!(
        Audience::from_parts("everyone", roles(&["a"])),
        Err(MessageRuleError::RolesWithoutRolesAudience)
    );
    assert_eq!(
        Audience::from_parts("roles", roles(&[""])),
        Err(MessageRuleError::InvalidRoles)
    );
    assert_eq!(
        Audience::from_parts("roles", roles(&["a b"])),
        Err(MessageRuleError::InvalidRoles)
    );
    let many: Vec<String> = (0..=ROLES_MAX).map(|i| format!("r{i}")).collect();
    assert_eq!(
        Audience::from_parts("roles", many),
        Err(MessageRuleError::InvalidRoles)
    );
}

#[test]
fn every_audience_viewer_combination() {
    let none: Vec<String> = vec![];
    let staff = roles(&["staff"]);
    let other = roles(&["other", "x"]);
    let anon = Viewer::Anonymous;
    let signed_plain = Viewer::SignedIn { roles: &none };
    let signed_staff = Viewer::SignedIn { roles: &staff };
    let signed_other = Viewer::SignedIn { roles: &other };
    let everyone = Audience::Everyone;
    let signed_in = Audience::SignedIn;
    let for_staff = Audience::Roles(roles(&["staff", "admin"]));
    let cases = [
        (&everyone, &anon, true),
        (&everyone, &signed_plain, true),
        (&everyone, &signed_staff, true),
        (&signed_in, &anon, false),
        (&signed_in, &signed_plain, true),
        (&signed_in, &signed_staff, true),
        (&for_staff, &anon, false),
        (&for_staff, &signed_plain, false),
        (&for_staff, &signed_staff, true),
        (&for_staff, &signed_other, false),
    ];
    for (audience, viewer, expected) in cases {
        assert_eq!(
            audience.admits(viewer),
            expected,
            "{audience:?} / {viewer:?}"
        );
    }
}

#[test]
fn window_is_half_open() {
    let w = win(Some(10), Some(20));
    assert!(!w.contains(9));
    assert!(w.contains(10), "valid_from itself is inside");
    assert!(w.contains(19));
    assert!(!w.contains(20), "valid_to itself is outside");
    assert!(win(None, Some(5)).contains(i64::MIN));
    assert!(win(Some(5), None).contains(i64::MAX));
    assert!(Window::<i64>::always().contains(0));
}

#[test]
fn empty_or_inverted_window_is_refused() {
    assert_eq!(
        Window::new(Some(10), Some(10)),
        Err(MessageRuleError::EmptyWindow)
    );
    assert_eq!(
        Window::new(Some(10), Some(9)),
        Err(MessageRuleError::EmptyWindow)
    );
    assert!(Window::new(Some(10), Some(11)).is_ok());
}

#[test]
fn visibility_combines_window_and_audience() {
    let m = Targeting {
        audience: Audience::SignedIn,
        window: win(Some(10), Some(20)),
    };
    let none: Vec<String> = vec![];
    let signed = Viewer::SignedIn { roles: &none };
    assert!(!m.visible_to(&signed, 9));
    assert!(m.visible_to(&signed, 10));
    assert!(!m.visible_to(&Viewer::Anonymous, 10));
    assert!(!m.visible_to(&signed, 20));
}

#[test]
fn next_change_is_the_next_boundary_strictly_after_t() {
    let ws = [
        win(Some(10), Some(20)),
        win(None, Some(15)),
        Window::always(),
    ];
    assert_eq!(next_change_at(&ws, 0), Some(10));
    assert_eq!(next_change_at(&ws, 10), Some(15));
    assert_eq!(next_change_at(&ws, 15), Some(20));
    assert_eq!(next_change_at(&ws, 20), None);
    assert_eq!(next_change_at(&[] as &[Window<i64>], 0), None);
}

#[test]
fn version_changes_at_every_boundary_and_write_only() {
    let ws = [win(Some(10), Some(20))];
    let v = |rev, t| Version::at(rev, &ws, t);
    assert_eq!(v(1, 0), v(1, 9), "nothing happens between boundaries");
    assert_ne!(v(1, 9), v(1, 10), "window start");
    assert_eq!(v(1, 10), v(1, 19));
    assert_ne!(v(1, 19), v(1, 20), "window end");
    assert_ne!(v(1, 5), v(2, 5), "a write");
    assert!(
        v(1, 9) < v(1, 10) && v(1, 20) < v(2, 0),
        "versions grow with state"
    );
}

#[test]
fn version_round_trips_through_text() {
    let v = Version {
        revision: 42,
        windows_passed: 3,
    };
    assert_eq!(v.to_string(), "42.3");
    assert_eq!("42.3".parse::<Version>(), Ok(v));
    assert!("42".parse::<Version>().is_err());
    assert!("a.b".parse::<Version>().is_err());
}
