#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn title_limits_count_characters_at_the_edge() {
    assert_eq!(check_title(&"a".repeat(256)), Ok(()));
    // 256 two-byte letters: 512 bytes, still 256 characters.
    assert_eq!(check_title(&"ž".repeat(256)), Ok(()));
    assert_eq!(
        check_title(&"ž".repeat(257)),
        Err(ReportTextError::TooLong {
            field: "title",
            chars: 257,
            max: 256
        })
    );
    assert_eq!(
        check_title(" \t\n"),
        Err(ReportTextError::Empty { field: "title" })
    );
    assert_eq!(
        check_title(""),
        Err(ReportTextError::Empty { field: "title" })
    );
}

#[test]
fn an_address_is_optional_trimmed_and_limited_in_characters() {
    let longest = "ž".repeat(200);
    let cases: [(String, Result<Option<String>, ReportTextError>); 5] = [
        ("".into(), Ok(None)),
        (" \t\n".into(), Ok(None)),
        ("  Vodičkova 20 ".into(), Ok(Some("Vodičkova 20".into()))),
        (format!(" {longest} "), Ok(Some(longest.clone()))),
        (
            "ž".repeat(201),
            Err(ReportTextError::TooLong {
                field: "address",
                chars: 201,
                max: 200,
            }),
        ),
    ];
    for (given, want) in cases {
        assert_eq!(check_address(&given), want, "{given:?}");
    }
}

#[test]
fn description_limits_count_characters_at_the_edge() {
    assert_eq!(check_description(&"é".repeat(2048)), Ok(()));
    let err = check_description(&"x".repeat(2049)).unwrap_err();
    assert_eq!(err.field(), "description");
    assert_eq!(err.message().key, "report-field-too-long");
    assert_eq!(
        check_description("  ").unwrap_err().message().key,
        "report-field-empty"
    );
}

#[test]
fn order_defaults_values_and_errors() {
    let default = Order::parse(None, None, false).unwrap();
    assert_eq!(default.by, OrderBy::Date);
    assert_eq!(default.direction, Direction::Desc);
    let table = [
        (
            Some("date"),
            Some("asc"),
            false,
            Some((OrderBy::Date, Direction::Asc)),
        ),
        (
            Some("votes"),
            Some("desc"),
            false,
            Some((OrderBy::Votes, Direction::Desc)),
        ),
        (
            Some("location"),
            None,
            true,
            Some((OrderBy::Location, Direction::Asc)),
        ),
        (
            Some("location"),
            Some("desc"),
            true,
            Some((OrderBy::Location, Direction::Desc)),
        ),
        (Some("location"), None, false, None),
        (Some("Date"), None, false, None),
        (Some(""), None, false, None),
        (None, Some("ascending"), false, None),
    ];
    for (by, dir, loc, want) in table {
        let got = Order::parse(by, dir, loc).ok().map(|o| (o.by, o.direction));
        assert_eq!(got, want, "{by:?} {dir:?} {loc}");
    }
    let err = Order::parse(Some("location"), None, false).unwrap_err();
    assert_eq!(err.parameter, "orderBy");
    assert_eq!(err.message.key, "order-by-location-needs-location");
    let err = Order::parse(None, Some("up"), false).unwrap_err();
    assert_eq!(err.parameter, "orderDirection");
}

#[test]
fn statuses_parse_dedupe_and_refuse_unknown() {
    let raw = ["open", "resolved", "open"].map(String::from);
    assert_eq!(
        parse_statuses(&raw).unwrap(),
        vec![IssueStatus::Open, IssueStatus::Resolved]
    );
    assert!(parse_statuses(&[]).unwrap().is_empty());
    let err = parse_statuses(&["possible_duplicate".to_owned()]).unwrap_err();
    assert_eq!(err.parameter, "status");
    assert_eq!(err.message.key, "parameter-not-one-of");
}

#[test]
fn accepted_means_taken_on() {
    use IssueStatus::*;
    let table = [
        (None, false),
        (Some(Open), false),
        (Some(Moved), false),
        (Some(Accepted), true),
        (Some(Duplicate), true),
        (Some(Resolved), true),
    ];
    for (status, want) in table {
        assert_eq!(accepted(status), want, "{status:?}");
    }
}

#[test]
fn statement_limits_count_characters_at_the_edge() {
    let max = "ž".repeat(STATEMENT_MAX_CHARS);
    assert!(check_statement(&max).is_ok());
    assert!(check_statement("x").is_ok());
    for (text, field_error) in [
        ("".to_owned(), "empty"),
        ("  \n".to_owned(), "empty"),
        (format!("{max}a"), "long"),
    ] {
        let err = check_statement(&text).unwrap_err();
        assert_eq!(err.field(), "text");
        assert_eq!(
            matches!(err, ReportTextError::TooLong { .. }),
            field_error == "long"
        );
    }
}
