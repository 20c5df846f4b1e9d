//! platform-messages settings: `config/platform-messages.toml`, then `--config FILE`, then
//! `PLATFORM_MESSAGES__*`.

use serde::Deserialize;
use service_kit::auth::AuthSettings;
use service_kit::db::DatabaseSettings;
use service_kit::settings::{
    HttpSettings, I18nSettings, Sections, ServiceSettings, ServiceSpec, TelemetrySettings,
};

use crate::notify::{broker, MqttSettings};
use crate::store::CacheSettings;

/// How the loader finds this service's configuration.
pub const SPEC: ServiceSpec = service_kit::service_spec!("platform-messages", "PLATFORM_MESSAGES");

/// All settings of platform-messages (see config/platform-messages.toml for the defaults and
/// their meaning).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub http: HttpSettings,
    pub database: DatabaseSettings,
    #[serde(default)]
    pub auth: AuthSettings,
    pub telemetry: TelemetrySettings,
    #[serde(default)]
    pub i18n: I18nSettings,
    pub mqtt: MqttSettings,
    pub cache: CacheSettings,
}

impl ServiceSettings for Settings {
    const SPEC: ServiceSpec = SPEC;

    fn sections(&self) -> Sections<'_> {
        Sections::new(&self.http, &self.database, &self.telemetry, &self.i18n)
    }

    fn check(&self) -> Result<(), String> {
        broker::check_embedded_broker(self.mqtt.embedded_broker, broker::BUILT_IN)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // test code

    use super::*;
    use service_kit::settings::SettingsError;

    fn load(env: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        service_kit::settings::load_from_pairs(env)
    }

    #[test]
    fn every_list_setting_is_read_from_the_environment() {
        // Among them `http.cors_allowed_origins`, which service-kit requires.
        service_kit::settings::check_lists_from_environment::<Settings>().unwrap();
    }

    #[test]
    fn defaults_load_and_validate() {
        let settings = load(&[]).expect("defaults");
        assert!(settings.mqtt.embedded_broker);
        if cfg!(feature = "embedded-broker") {
            settings.validate().expect("valid defaults");
        } else {
            // The container image's build: the embedded default is refused, naming the feature.
            let err = settings.validate().unwrap_err().to_string();
            assert!(err.contains("mqtt.embedded_broker"), "{err}");
            assert!(err.contains("`embedded-broker`"), "{err}");
        }
        assert!(settings.mqtt.password.is_none());
    }

    #[test]
    fn an_external_broker_is_valid_in_every_build() {
        let settings = load(&[("PLATFORM_MESSAGES__MQTT__EMBEDDED_BROKER", "false")]).unwrap();
        settings
            .validate()
            .expect("valid without the embedded broker");
    }

    #[test]
    fn unknown_keys_are_refused_in_every_section() {
        for (key, named) in [
            ("PLATFORM_MESSAGES__MQTT__PASWORD", "pasword"),
            ("PLATFORM_MESSAGES__HTTP__PROT", "prot"),
            ("PLATFORM_MESSAGES__I18N__LOCALE", "locale"),
            ("PLATFORM_MESSAGES__NOTIFY__URL", "notify"),
        ] {
            let err = load(&[(key, "x")]).expect_err(key);
            assert!(err.to_string().contains(named), "{key}: {err}");
        }
    }

    #[test]
    fn the_cache_section_is_read_and_refuses_unknown_keys() {
        let settings = load(&[
            ("PLATFORM_MESSAGES__CACHE__MAX_CLIENTS", "7"),
            ("PLATFORM_MESSAGES__CACHE__MAX_STALENESS_MILLIS", "50"),
        ])
        .unwrap();
        assert_eq!(settings.cache.max_clients, 7);
        assert_eq!(settings.cache.max_staleness_millis, 50);
        let err = load(&[("PLATFORM_MESSAGES__CACHE__MAX_ENTRIES", "7")]).unwrap_err();
        assert!(err.to_string().contains("max_entries"), "{err}");
    }

    #[test]
    fn the_mqtt_password_is_a_secret() {
        let settings = load(&[("PLATFORM_MESSAGES__MQTT__PASSWORD", "hunter2-secret")]).unwrap();
        assert!(!format!("{settings:?}").contains("hunter2-secret"));
        let password = settings.mqtt.password.as_ref().expect("password");
        assert_eq!(
            secrecy::ExposeSecret::expose_secret(password),
            "hunter2-secret"
        );
    }

    #[test]
    fn the_default_locale_is_checked() {
        let settings = load(&[("PLATFORM_MESSAGES__I18N__DEFAULT_LOCALE", "de")]).unwrap();
        assert!(settings
            .validate()
            .unwrap_err()
            .to_string()
            .contains("i18n.default_locale"));
    }
}
