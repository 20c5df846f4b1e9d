//! A user-facing text as a catalogue key with arguments, rendered per language by the services.
//!
//! The domain never formats text for people: an error says *which* message applies and with
//! which values (`Message::new("limit-out-of-range").arg("parameter", "limit")…`), and the
//! service renders it in the caller's language from the Fluent catalogues of `crates/i18n`.
//! Keys are written as string literals in `Message::new("…")` so the catalogue completeness test
//! can find every key in the source.

/// A catalogue key and its named arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The Fluent message id, lowercase words joined by `-`.
    pub key: &'static str,
    /// Named arguments (`{ $name }` in the catalogue), already formatted as text.
    pub args: Vec<(&'static str, String)>,
}

impl Message {
    /// A message without arguments.
    pub fn new(key: &'static str) -> Self {
        Self {
            key,
            args: Vec::new(),
        }
    }

    /// Adds the argument `name` (builder style).
    #[must_use]
    pub fn arg(mut self, name: &'static str, value: impl std::fmt::Display) -> Self {
        self.args.push((name, value.to_string()));
        self
    }

    /// The value of argument `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl std::fmt::Display for Message {
    /// For logs: the key and its arguments (people get the rendered catalogue text).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key)?;
        for (name, value) in &self.args {
            write!(f, " {name}={value:?}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Message;

    #[test]
    fn builds_and_displays() {
        let m = Message::new("limit-out-of-range")
            .arg("parameter", "limit")
            .arg("min", 1);
        assert_eq!(m.get("min"), Some("1"));
        assert_eq!(m.get("max"), None);
        assert_eq!(
            m.to_string(),
            "limit-out-of-range parameter=\"limit\" min=\"1\""
        );
    }
}
