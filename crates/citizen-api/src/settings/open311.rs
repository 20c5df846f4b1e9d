//! `open311.*`: the Open311 GeoReport v2 facade (docs/open311.md).

use std::collections::BTreeMap;

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
    /// The integrators' keys, by integrator name (`open311.api_keys.fixmystreet = "<secret>"`,
    /// or `CITIZEN_API__OPEN311__API_KEYS__FIXMYSTREET`): filing (`POST requests`) and the
    /// updates (`servicerequestupdates`) need one; the name is what the audit trail records
    /// (`open311:<name>`). None: the facade only reads.
    pub api_keys: BTreeMap<String, String>,
    /// Filings one integrator's key may make per hour (0: no limit), per replica.
    pub filings_per_hour: u32,
    /// Filings one key may make at once before the hourly rate applies (≥ 1).
    pub filings_burst: u32,
}

impl Default for Open311Settings {
    fn default() -> Self {
        Self {
            enabled: true,
            jurisdiction_id: "city.example".into(),
            contact: String::new(),
            key_service: String::new(),
            changeset: "2026-12-07T00:00:00Z".into(),
            api_keys: BTreeMap::new(),
            filings_per_hour: 600,
            filings_burst: 60,
        }
    }
}

/// Longest `open311.jurisdiction_id`.
const JURISDICTION_MAX: usize = 100;
/// Shortest integrator key: a guessable key would let anyone file as the integrator.
pub const API_KEY_MIN_CHARS: usize = 16;

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
        for (name, key) in &self.api_keys {
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            {
                return Err(format!(
                    "open311.api_keys: the integrator name {name:?} is not 1 or more of \
                     A-Z a-z 0-9 - _"
                ));
            }
            if key.trim().chars().count() < API_KEY_MIN_CHARS {
                return Err(format!(
                    "open311.api_keys.{name}: at least {API_KEY_MIN_CHARS} characters"
                ));
            }
        }
        if self.filings_per_hour > 0 && self.filings_burst == 0 {
            return Err("open311.filings_burst must be at least 1".into());
        }
        Ok(())
    }

    /// The integrator whose key `key` is; every key is compared, in time independent of where
    /// a match is.
    pub fn integrator(&self, key: &str) -> Option<&str> {
        let key = key.trim();
        let mut found = None;
        for (name, known) in &self.api_keys {
            if constant_time_eq(known.trim().as_bytes(), key.as_bytes()) {
                found = Some(name.as_str());
            }
        }
        found
    }

    /// Whether a request's `jurisdiction_id` (absent or as sent) is this city's.
    pub fn is_ours(&self, asked: Option<&str>) -> bool {
        match asked.map(str::trim) {
            None | Some("") => true,
            Some(id) => id == self.jurisdiction_id,
        }
    }
}

/// Whether `a` and `b` are equal, comparing every byte of the longer (a key's length is no
/// secret worth keeping; its bytes are).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut differ = u8::from(a.len() != b.len());
    for i in 0..a.len().max(b.len()) {
        differ |= a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
    }
    differ == 0
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
    fn a_key_names_its_integrator() {
        let mut settings = Open311Settings::default();
        settings
            .api_keys
            .insert("fixmystreet".into(), "k".repeat(API_KEY_MIN_CHARS));
        settings
            .api_keys
            .insert("other".into(), "o".repeat(API_KEY_MIN_CHARS + 4));
        assert_eq!(settings.validate(), Ok(()));
        let key = "k".repeat(API_KEY_MIN_CHARS);
        assert_eq!(settings.integrator(&key), Some("fixmystreet"));
        assert_eq!(
            settings.integrator(&"o".repeat(API_KEY_MIN_CHARS + 4)),
            Some("other")
        );
        for wrong in [
            "",
            "k",
            &"k".repeat(API_KEY_MIN_CHARS + 1),
            &"K".repeat(API_KEY_MIN_CHARS),
        ] {
            assert_eq!(settings.integrator(wrong), None, "{wrong:?}");
        }
        settings
            .api_keys
            .insert("short".into(), "s".repeat(API_KEY_MIN_CHARS - 1));
        assert!(settings
            .validate()
            .unwrap_err()
            .contains("open311.api_keys.short"));
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
