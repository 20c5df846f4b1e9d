//! citizen-api settings: `config/citizen-api.toml`, then `--config FILE`, then `CITIZEN_API__*`.

pub mod open311;
pub mod votes;
pub mod web;

use serde::Deserialize;
use service_kit::auth::AuthSettings;
use service_kit::db::DatabaseSettings;
use service_kit::http::cache::HttpCacheSettings;
use service_kit::settings::{
    HttpSettings, I18nSettings, Sections, ServiceSettings, ServiceSpec, TelemetrySettings,
};

use crate::captcha::CaptchaSettings;
use crate::city::CitySettings;
use crate::media::MediaSettings;
use crate::rate_limit::RateLimitSettings;

/// How the loader finds this service's configuration.
pub const SPEC: ServiceSpec = service_kit::service_spec!("citizen-api", "CITIZEN_API");

/// All settings of citizen-api (see config/citizen-api.toml for the defaults and their meaning).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub http: HttpSettings,
    /// How long browsers and the reverse proxy may keep a public answer.
    #[serde(default)]
    pub http_cache: HttpCacheSettings,
    pub database: DatabaseSettings,
    #[serde(default)]
    pub auth: AuthSettings,
    pub telemetry: TelemetrySettings,
    #[serde(default)]
    pub i18n: I18nSettings,
    pub city: CitySettings,
    pub reports: ReportSettings,
    pub media: MediaSettings,
    pub captcha: CaptchaSettings,
    pub rate_limit: RateLimitSettings,
    pub votes: crate::settings::votes::VoteSettings,
    pub demo: DemoSettings,
    pub duplicates: DuplicateSettings,
    #[serde(default)]
    pub news: crate::news_read_model::NewsSettings,
    #[serde(default)]
    pub notifications: crate::notify::NotificationSettings,
    pub mqtt: service_kit::mqtt::MqttSettings,
    pub status_events: crate::notify::status_events::StatusEventSettings,
    pub privacy: crate::app::retention::PrivacySettings,
    /// The citizens' web app at `/` (docs/web-app.md).
    #[serde(default)]
    pub web: web::WebSettings,
    /// The Open311 GeoReport v2 facade (docs/open311.md).
    #[serde(default)]
    pub open311: open311::Open311Settings,
}

/// `reports.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSettings {
    /// Name of the default category, created at start when the database has none: new reports
    /// get their first issue there.
    pub default_category_name: String,
    /// Hours an `Idempotency-Key` of `POST /reports` is kept: a retry with it within this time
    /// is answered the first answer again (default 24, 1 to 720).
    #[serde(default = "default_idempotency_key_hours")]
    pub idempotency_key_hours: u32,
}

const fn default_idempotency_key_hours() -> u32 {
    24
}

impl ReportSettings {
    /// How long an `Idempotency-Key` is kept.
    pub fn idempotency_ttl(&self) -> chrono::TimeDelta {
        chrono::TimeDelta::hours(i64::from(self.idempotency_key_hours))
    }
}

/// `duplicates.*`: when a newly opened issue gets another issue as a possible duplicate.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateSettings {
    /// Most metres between the two reports' locations (0 turns suggestions off).
    pub radius_metres: f64,
    /// Most days between the two reports' filing times.
    pub window_days: u32,
    /// Least share of common words (0..=1, see `domain::duplicates::similarity`).
    pub min_similarity: f64,
}

impl DuplicateSettings {
    /// The domain rule; `None` when suggestions are off.
    pub fn rule(&self) -> Option<domain::duplicates::DuplicateRule> {
        (self.radius_metres > 0.0).then(|| domain::duplicates::DuplicateRule {
            radius_m: self.radius_metres,
            window_seconds: i64::from(self.window_days) * 86_400,
            min_similarity: self.min_similarity,
        })
    }

    fn validate(&self) -> Result<(), String> {
        if !(self.radius_metres.is_finite() && self.radius_metres >= 0.0) {
            return Err("duplicates.radius_metres must be a number >= 0".into());
        }
        if !(0.0..=1.0).contains(&self.min_similarity) {
            return Err("duplicates.min_similarity must be between 0 and 1".into());
        }
        Ok(())
    }
}

/// `demo.*`: the bundled demo data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoSettings {
    /// Load demo categories and reports when the database holds no report (make run). Off in
    /// production.
    pub load_when_empty: bool,
}

impl ServiceSettings for Settings {
    const SPEC: ServiceSpec = SPEC;

    fn sections(&self) -> Sections<'_> {
        Sections::new(&self.http, &self.database, &self.telemetry, &self.i18n)
    }

    fn check(&self) -> Result<(), String> {
        if self.reports.default_category_name.trim().is_empty() {
            return Err("reports.default_category_name must not be empty".into());
        }
        if !(1..=720).contains(&self.reports.idempotency_key_hours) {
            return Err("reports.idempotency_key_hours must be between 1 and 720".into());
        }
        self.media.validate()?;
        self.web.validate()?;
        self.open311.validate()?;
        self.votes.validate()?;
        self.notifications.delivery.validate()?;
        self.duplicates.validate()?;
        if !(1..=168).contains(&self.privacy.export_valid_hours) {
            return Err("privacy.export_valid_hours must be between 1 and 168".into());
        }
        if self.captcha.enabled && self.captcha.secret.is_none() {
            return Err(
                "captcha.secret (CITIZEN_API__CAPTCHA__SECRET) is required while captcha.enabled"
                    .into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // test code

    use super::*;
    use service_kit::settings::SettingsError;

    fn load(env: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let settings: Settings = service_kit::settings::load_from_pairs(env)?;
        settings.validate()?;
        Ok(settings)
    }

    #[test]
    fn every_list_setting_is_read_from_the_environment() {
        // `http.cors_allowed_origins`, every service's, is checked by service-kit.
        let keys = service_kit::settings::check_lists_from_environment::<Settings>().unwrap();
        let key = "notifications.webpush.allowed_hosts";
        assert!(keys.iter().any(|k| k == key), "{key} not walked: {keys:?}");
        // The value that stopped start-up (issue 32): now two hosts, and valid.
        let settings = load(&[(
            "CITIZEN_API__NOTIFICATIONS__WEBPUSH__ALLOWED_HOSTS",
            "web.push.apple.com,*.example.org",
        )])
        .unwrap();
        assert_eq!(
            settings.notifications.webpush.allowed_hosts,
            ["web.push.apple.com", "*.example.org"]
        );
    }

    #[test]
    fn defaults_load_and_validate() {
        let settings = load(&[]).expect("defaults");
        assert_eq!(settings.http.port, 8080);
        assert_eq!(settings.http.base_path, "/api/v1");
        assert!(
            !settings.captcha.enabled,
            "the embedded default is for local use"
        );
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let settings = load(&[
            ("CITIZEN_API__CAPTCHA__ENABLED", "true"),
            ("CITIZEN_API__CAPTCHA__SECRET", "captcha-hunter2"),
            ("CITIZEN_API__MEDIA__S3_SECRET_ACCESS_KEY", "s3-hunter2"),
            (
                "CITIZEN_API__NOTIFICATIONS__WEBPUSH__VAPID_PRIVATE_KEY",
                "vapid-hunter2",
            ),
            (
                "CITIZEN_API__NOTIFICATIONS__EMAIL__SMTP_URL",
                "smtps://u:hunter2@mail.example.org",
            ),
        ])
        .unwrap();
        let shown = format!("{settings:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn unknown_keys_are_refused_in_every_section() {
        for (key, named) in [
            ("CITIZEN_API__CITY__BOUNDARY", "boundary"),
            ("CITIZEN_API__MEDIA__BASE_URL", "base_url"),
            ("CITIZEN_API__REPORTS__DEFAULT", "default"),
            ("CITIZEN_API__VOTES__MAX", "max"),
        ] {
            let err = load(&[(key, "x")]).expect_err(key);
            assert!(err.to_string().contains(named), "{key}: {err}");
        }
    }

    #[test]
    fn values_are_checked() {
        for (key, value, named) in [
            (
                "CITIZEN_API__REPORTS__DEFAULT_CATEGORY_NAME",
                " ",
                "default_category_name",
            ),
            (
                "CITIZEN_API__MEDIA__PUBLIC_BASE_URL",
                "ftp://x",
                "public_base_url",
            ),
            (
                "CITIZEN_API__I18N__DEFAULT_LOCALE",
                "de",
                "i18n.default_locale",
            ),
            (
                "CITIZEN_API__NOTIFICATIONS__DELIVERY__LEASE_SECS",
                "5",
                "notifications.delivery.lease_secs",
            ),
            (
                "CITIZEN_API__NOTIFICATIONS__DELIVERY__MAX_ATTEMPTS",
                "0",
                "notifications.delivery.max_attempts",
            ),
        ] {
            let err = load(&[(key, value)]).expect_err(key);
            assert!(err.to_string().contains(named), "{key}: {err}");
        }
    }
}
