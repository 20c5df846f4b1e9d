//! platform-messages settings: `config/platform-messages.toml`, then `--config FILE`, then
//! `PLATFORM_MESSAGES__*`.

use serde::Deserialize;
use service_kit::auth::AuthSettings;
use service_kit::db::DatabaseSettings;
use service_kit::settings::{
    HttpSettings, I18nSettings, ServiceSpec, SettingsError, TelemetrySettings,
};
use std::path::Path;

use crate::notify::MqttSettings;

/// How the loader finds this service's configuration.
pub const SPEC: ServiceSpec = ServiceSpec {
    name: "platform-messages",
    env_prefix: "PLATFORM_MESSAGES",
    defaults_toml: include_str!("../../../config/platform-messages.toml"),
    list_keys: &["http.cors_allowed_origins"],
};

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
}

impl Settings {
    /// Loads and validates the settings; the error names the offending key.
    pub fn load(file: Option<&Path>) -> Result<Self, SettingsError> {
        let settings: Self = service_kit::settings::load(&SPEC, file)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks values the type system cannot; the message names the key.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.http
            .validate()
            .and_then(|()| self.i18n.locale().map(drop))
            .map_err(|message| SettingsError {
                service: SPEC.name,
                message,
            })
    }
}
