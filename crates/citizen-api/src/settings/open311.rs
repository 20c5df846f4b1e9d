//! `open311.*`: the Open311 GeoReport v2 facade (docs/open311.md).

use serde::Deserialize;

/// `open311.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Open311Settings {
    /// Serve the facade under `<base>/open311/v2/`.
    pub enabled: bool,
    /// The city's jurisdiction id: a request may name it, leave it out or send it empty; any
    /// other value is a 404 (clients such as FixMyStreet always send one).
    pub jurisdiction_id: String,
    /// `discovery`'s `contact`: who integrators write to.
    pub contact: String,
    /// `discovery`'s `key_service`: where integrators ask for an API key.
    pub key_service: String,
    /// `discovery`'s `changeset`: when the facade's interface last changed (RFC 3339).
    pub changeset: String,
}

impl Default for Open311Settings {
    fn default() -> Self {
        Self {
            enabled: true,
            jurisdiction_id: "city.example".into(),
            contact: String::new(),
            key_service: String::new(),
            changeset: "2026-12-07T00:00:00Z".into(),
        }
    }
}

/// Longest `open311.jurisdiction_id`.
const JURISDICTION_MAX: usize = 100;

impl Open311Settings {
    pub fn validate(&self) -> Result<(), String> {
        let id = self.jurisdiction_id.trim();
        if id.is_empty()
            || id.len() > JURISDICTION_MAX
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        {
            return Err(format!(
                "open311.jurisdiction_id: 1 to {JURISDICTION_MAX} of A-Z a-z 0-9 . - _"
            ));
        }
        chrono::DateTime::parse_from_rfc3339(&self.changeset)
            .map_err(|e| format!("open311.changeset: not an RFC 3339 date-time ({e})"))?;
        Ok(())
    }

    /// Whether a request's `jurisdiction_id` (absent or as sent) is this city's.
    pub fn is_ours(&self, asked: Option<&str>) -> bool {
        match asked.map(str::trim) {
            None | Some("") => true,
            Some(id) => id == self.jurisdiction_id,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::*;

    #[test]
    fn absent_empty_and_the_citys_id_are_ours_anything_else_is_not() {
        let settings = Open311Settings::default();
        assert_eq!(settings.validate(), Ok(()));
        for asked in [None, Some(""), Some(" "), Some("city.example")] {
            assert!(settings.is_ours(asked), "{asked:?}");
        }
        for asked in [
            Some("other.example"),
            Some("city.example.org"),
            Some("CITY.EXAMPLE"),
        ] {
            assert!(!settings.is_ours(asked), "{asked:?}");
        }
    }

    #[test]
    fn values_are_checked() {
        let ok = Open311Settings::default();
        for (bad, named) in [
            (
                Open311Settings {
                    jurisdiction_id: String::new(),
                    ..ok.clone()
                },
                "open311.jurisdiction_id",
            ),
            (
                Open311Settings {
                    jurisdiction_id: "a b".into(),
                    ..ok.clone()
                },
                "open311.jurisdiction_id",
            ),
            (
                Open311Settings {
                    jurisdiction_id: "a".repeat(JURISDICTION_MAX + 1),
                    ..ok.clone()
                },
                "open311.jurisdiction_id",
            ),
            (
                Open311Settings {
                    changeset: "yesterday".into(),
                    ..ok.clone()
                },
                "open311.changeset",
            ),
        ] {
            assert!(bad.validate().unwrap_err().contains(named), "{named}");
        }
        let edge = Open311Settings {
            jurisdiction_id: "a".repeat(JURISDICTION_MAX),
            ..ok
        };
        assert_eq!(edge.validate(), Ok(()));
    }
}
