//! The one spelling of a boolean in a query string or a form field.

/// A boolean parameter's value: exactly `true` or `false`, as the spec writes them. Anything
/// else (`1`, `yes`, `True`, an empty value) is `None`, which the caller refuses with its own
/// 400, so that a misspelt filter is an error rather than a silently ignored one.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_bool;

    #[test]
    fn only_the_two_spellings_are_booleans() {
        let cases = [
            ("true", Some(true)),
            ("false", Some(false)),
            ("", None),
            ("1", None),
            ("0", None),
            ("yes", None),
            ("True", None),
            ("FALSE", None),
            (" true", None),
            ("true ", None),
        ];
        for (value, want) in cases {
            assert_eq!(parse_bool(value), want, "{value:?}");
        }
    }
}
