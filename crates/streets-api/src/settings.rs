//! streets-api settings: `config/streets-api.toml`, then `--config FILE`, then `STREETS_API__*`.

use serde::Deserialize;
use service_kit::db::DatabaseSettings;
use service_kit::http::cache::HttpCacheSettings;
use service_kit::settings::{
    HttpSettings, I18nSettings, Sections, ServiceSettings, ServiceSpec, TelemetrySettings,
};

/// How the loader finds this service's configuration.
pub const SPEC: ServiceSpec = service_kit::service_spec!("streets-api", "STREETS_API");

/// All settings of streets-api.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub http: HttpSettings,
    pub database: DatabaseSettings,
    pub telemetry: TelemetrySettings,
    #[serde(default)]
    pub i18n: I18nSettings,
    pub demo: DemoSettings,
    pub cache: crate::store::CacheSettings,
    pub features: crate::ogc::FeaturesSettings,
    pub http_cache: HttpCacheSettings,
}

/// `demo.*`: the bundled demo data set.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoSettings {
    /// Load the bundled demo streets when the database holds no street.
    pub load_when_empty: bool,
}

impl ServiceSettings for Settings {
    const SPEC: ServiceSpec = SPEC;

    fn sections(&self) -> Sections<'_> {
        Sections::new(&self.http, &self.database, &self.telemetry, &self.i18n)
    }

    fn check(&self) -> Result<(), String> {
        self.features.validate()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::Settings;

    #[test]
    fn every_list_setting_is_read_from_the_environment() {
        // Among them `http.cors_allowed_origins`, which service-kit requires.
        service_kit::settings::check_lists_from_environment::<Settings>().unwrap();
    }
}
