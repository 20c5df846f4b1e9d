//! Layered settings: built-in defaults, an optional file, then environment variables (which win).
//!
//! Each service embeds its `config/<service>.toml` as defaults, may be given `--config FILE`, and
//! reads environment variables with its prefix, `__` separating levels:
//! `STREETS_API__DATABASE__URL` sets `database.url`. Unknown keys are refused so a typo in a key
//! stops start-up instead of being silently ignored. Secrets belong in the environment only.

mod lists;
mod public_url;

pub use lists::list_keys;

use config::{Config, Environment, File, FileFormat};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::path::Path;

/// What a service tells the loader about itself.
#[derive(Debug, Clone, Copy)]
pub struct ServiceSpec {
    /// The service name, e.g. `streets-api` (used in logs and messages).
    pub name: &'static str,
    /// The environment prefix without trailing separator, e.g. `STREETS_API`.
    pub env_prefix: &'static str,
    /// The built-in defaults (`config/<service>.toml`), embedded with `include_str!`.
    pub defaults_toml: &'static str,
}

/// The [`ServiceSpec`] of a service of this workspace, `name` and `env_prefix` being string
/// literals: its built-in defaults are `config/<name>.toml` at the workspace root, embedded at
/// build time.
#[macro_export]
macro_rules! service_spec {
    ($name:literal, $env_prefix:literal) => {
        $crate::settings::ServiceSpec {
            name: $name,
            env_prefix: $env_prefix,
            defaults_toml: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../config/",
                $name,
                ".toml"
            )),
        }
    };
}

/// The sections every service's settings have, which service-kit reads (start-up, `migrate`)
/// and checks ([`ServiceSettings::validate`]) alike for each.
#[derive(Debug, Clone, Copy)]
pub struct Sections<'a> {
    pub http: &'a HttpSettings,
    pub database: &'a crate::db::DatabaseSettings,
    pub telemetry: &'a TelemetrySettings,
    pub i18n: &'a I18nSettings,
}

impl<'a> Sections<'a> {
    pub fn new(
        http: &'a HttpSettings,
        database: &'a crate::db::DatabaseSettings,
        telemetry: &'a TelemetrySettings,
        i18n: &'a I18nSettings,
    ) -> Self {
        Self {
            http,
            database,
            telemetry,
            i18n,
        }
    }

    /// Checks values of these sections the type system cannot; the message names the key.
    fn check(&self) -> Result<(), String> {
        self.http.validate()?;
        self.i18n.locale()?;
        Ok(())
    }
}

/// A service's settings: where the loader finds them, the [`Sections`] every service has, and
/// what the types of its own sections cannot check. Loading and validating are the same for every
/// service; each says only what differs.
pub trait ServiceSettings: DeserializeOwned {
    /// How the loader finds this service's configuration.
    const SPEC: ServiceSpec;

    /// The sections every service has (`http`, `database`, `telemetry`, `i18n`).
    fn sections(&self) -> Sections<'_>;

    /// Checks values of the service's own sections the type system cannot (those of
    /// [`Sections`] are checked before); the message names the key.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// Loads ([`load`]) and validates the settings; the error names the offending key.
    fn load(file: Option<&Path>) -> Result<Self, SettingsError> {
        let settings: Self = load(&Self::SPEC, file)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks the [`Sections`], then [`ServiceSettings::check`], the error naming the service.
    fn validate(&self) -> Result<(), SettingsError> {
        self.sections()
            .check()
            .and_then(|()| self.check())
            .map_err(|message| Self::SPEC.error(message))
    }
}

/// Configuration that cannot be loaded; the message names the key and the source.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration for {service}: {message}")]
pub struct SettingsError {
    pub service: &'static str,
    pub message: String,
}

/// Loads `T` from defaults, the optional file and the environment (in that order of precedence).
pub fn load<T: DeserializeOwned>(
    spec: &ServiceSpec,
    file: Option<&Path>,
) -> Result<T, SettingsError> {
    load_from(spec, file, std::env::vars())
}

/// Like [`load`] but with the environment given explicitly (for tests).
pub fn load_from<T: DeserializeOwned>(
    spec: &ServiceSpec,
    file: Option<&Path>,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<T, SettingsError> {
    layered::<T>(spec, file, env)?
        .try_deserialize()
        .map_err(|e| spec.error(e.to_string()))
}

/// The three layers merged, before they are read into `T` (whose list settings decide which
/// environment values are split at commas).
fn layered<T: DeserializeOwned>(
    spec: &ServiceSpec,
    file: Option<&Path>,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<Config, SettingsError> {
    let mut builder =
        Config::builder().add_source(File::from_str(spec.defaults_toml, FileFormat::Toml));
    if let Some(path) = file {
        if !path.is_file() {
            return Err(spec.error(format!("config file {} does not exist", path.display())));
        }
        builder = builder.add_source(File::from(path).required(true));
    }
    let prefix = format!("{}__", spec.env_prefix);
    let env: config::Map<String, String> = env
        .into_iter()
        .filter(|(k, _)| k.starts_with(&prefix))
        .collect();
    let mut environment = Environment::with_prefix(spec.env_prefix)
        .prefix_separator("__")
        .separator("__")
        .try_parsing(true)
        .source(Some(env));
    // Every list-valued setting of `T` takes a comma-separated value from the environment.
    let lists = list_keys::<T>();
    if !lists.is_empty() {
        environment = environment.list_separator(",");
        for key in &lists {
            environment = environment.with_list_parse_key(key);
        }
    }
    builder
        .add_source(environment)
        .build()
        .map_err(|e| spec.error(e.to_string()))
}

/// `T` from its built-in defaults and the environment `env` alone (neither the process's
/// environment nor a file), not validated: how each service's tests load its settings.
pub fn load_from_pairs<T: ServiceSettings>(env: &[(&str, &str)]) -> Result<T, SettingsError> {
    let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string()));
    load_from(&T::SPEC, None, env)
}

/// The list settings of the [`Sections`] every service has, which each service's settings must
/// read from the environment like their own.
const SECTION_LISTS: [&str; 1] = ["http.cors_allowed_origins"];

/// Sets every list setting of `T` from the environment at once, as `<PREFIX>__A__B=x.example,
/// y.example`, and checks that each becomes those two items, that those of the [`Sections`] are
/// among them and that `T` still loads; the keys walked, or what went wrong. Each service's tests
/// call it with its own settings type.
pub fn check_lists_from_environment<T: ServiceSettings>() -> Result<Vec<String>, String> {
    let spec = &T::SPEC;
    let keys = list_keys::<T>();
    if let Some(missing) = SECTION_LISTS
        .into_iter()
        .find(|k| !keys.iter().any(|key| key == k))
    {
        return Err(format!("{missing} not walked: {keys:?}"));
    }
    let items = ["x.example".to_owned(), "y.example".to_owned()];
    let env: Vec<(String, String)> = keys
        .iter()
        .map(|key| {
            let var = format!(
                "{}__{}",
                spec.env_prefix,
                key.replace('.', "__").to_uppercase()
            );
            (var, items.join(","))
        })
        .collect();
    let config = layered::<T>(spec, None, env.clone()).map_err(|e| e.to_string())?;
    for key in &keys {
        let got: Vec<String> = config.get(key).map_err(|e| format!("{key}: {e}"))?;
        if got != items {
            return Err(format!("{key}: the environment gave {got:?}"));
        }
    }
    load_from::<T>(spec, None, env).map_err(|e| e.to_string())?;
    Ok(keys)
}

impl ServiceSpec {
    fn error(&self, message: String) -> SettingsError {
        SettingsError {
            service: self.name,
            message,
        }
    }
}

/// The JSON body limit of a route that registers none of its own (see [`crate::extract::BodyLimit`]).
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024;

/// The HTTP listener and request handling (`http.*`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpSettings {
    /// Address to bind, e.g. `0.0.0.0` in a container, `127.0.0.1` locally.
    pub host: String,
    /// Port to bind; 0 picks a free port (tests).
    pub port: u16,
    /// Prefix of every API route and of the docs, e.g. `/api/v1`.
    pub base_path: String,
    /// After SIGTERM: how long in-flight requests may take before they are cut.
    pub shutdown_grace_seconds: u64,
    /// A request that takes longer is answered 408 `REQUEST_TIMEOUT`.
    pub request_timeout_seconds: u64,
    /// Largest accepted request body; larger ones get 413 `PAYLOAD_TOO_LARGE`.
    pub max_body_bytes: usize,
    /// Origins allowed by CORS (`*` for any); empty disables CORS headers.
    #[serde(default)]
    pub cors_allowed_origins: Vec<String>,
    /// HTTP worker threads; 0 = one per CPU core.
    #[serde(default)]
    pub workers: usize,
    /// The public URL of the base path (`https://streets.example.city/api/v1`): every absolute
    /// link a service builds starts with it ([`crate::http::links::PublicBase`]). Empty: the
    /// listener's own address (`http://localhost:<port><base_path>` on `0.0.0.0`), which is
    /// right for `make run`. Never taken from a request.
    #[serde(default)]
    pub public_url: String,
    /// Build absolute links from the proxy's `Forwarded` / `X-Forwarded-Host` /
    /// `X-Forwarded-Proto` (else `Host`) instead of `public_url`, only behind a proxy that sets
    /// or clears them itself; answers then vary by them. Off by default: a client's own
    /// headers would choose the links of cacheable answers.
    #[serde(default)]
    pub trust_forwarded_headers: bool,
}

impl Default for HttpSettings {
    /// Loopback on a free port, base path `/api/v1`, one worker (tests and tools).
    fn default() -> Self {
        Self {
            host: "127.0.0.1".to_owned(),
            port: 0,
            base_path: "/api/v1".to_owned(),
            shutdown_grace_seconds: 5,
            request_timeout_seconds: 30,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            cors_allowed_origins: Vec::new(),
            workers: 1,
            public_url: String::new(),
            trust_forwarded_headers: false,
        }
    }
}

impl HttpSettings {
    /// The worker threads to start: `workers`, or one per CPU core when it is 0.
    pub fn effective_workers(&self) -> usize {
        match self.workers {
            0 => std::thread::available_parallelism().map_or(2, usize::from),
            n => n,
        }
    }

    /// Checks values the type system cannot; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if !self.base_path.starts_with('/') || self.base_path.ends_with('/') {
            return Err(format!(
                "http.base_path must start with '/' and not end with '/', got {:?}",
                self.base_path
            ));
        }
        if self.request_timeout_seconds == 0 {
            return Err("http.request_timeout_seconds must be at least 1".into());
        }
        if self.max_body_bytes == 0 {
            return Err("http.max_body_bytes must be at least 1".into());
        }
        public_url::check_public_url(&self.public_url)?;
        if self.trust_forwarded_headers && !self.public_url.is_empty() {
            return Err(
                "http.public_url and http.trust_forwarded_headers = true exclude each other: \
                 links come from one or the other"
                    .into(),
            );
        }
        Ok(())
    }
}

/// Languages (`i18n.*`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct I18nSettings {
    /// The language of error texts when `Accept-Language` names none we have: `en`, `cs` or `uk`.
    pub default_locale: String,
}

impl Default for I18nSettings {
    fn default() -> Self {
        Self {
            default_locale: "en".to_owned(),
        }
    }
}

impl I18nSettings {
    /// The configured default language; the error names the key.
    pub fn locale(&self) -> Result<i18n::Locale, String> {
        self.default_locale.parse().map_err(|_| {
            format!(
                "i18n.default_locale must be one of en, cs, uk; got {:?}",
                self.default_locale
            )
        })
    }
}

/// Logging (`telemetry.*`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelemetrySettings {
    /// `json` (production) or `pretty` (local).
    pub format: LogFormat,
    /// A `RUST_LOG`-style filter such as `info,sqlx=warn`; the `RUST_LOG` variable wins when set.
    pub filter: String,
}

/// Log output format.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Json,
    Pretty,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Sample {
        http: HttpSettings,
        #[serde(default)]
        auth: crate::auth::AuthSettings,
        #[allow(dead_code)] // read through Debug only
        database: Option<crate::db::DatabaseSettings>,
    }

    const SPEC: ServiceSpec = ServiceSpec {
        name: "sample",
        env_prefix: "SAMPLE",
        defaults_toml: r#"
            [http]
            host = "127.0.0.1"
            port = 8000
            base_path = "/api/v1"
            shutdown_grace_seconds = 5
            request_timeout_seconds = 30
            max_body_bytes = 1024
        "#,
    };

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn environment_wins_over_file_and_defaults() {
        let dir = std::env::temp_dir().join(format!("settings-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("override.toml");
        std::fs::write(&file, "[http]\nport = 9000\nhost = \"0.0.0.0\"\n").unwrap();
        let s: Sample = load_from(
            &SPEC,
            Some(&file),
            env(&[
                ("SAMPLE__HTTP__PORT", "9100"),
                (
                    "SAMPLE__HTTP__CORS_ALLOWED_ORIGINS",
                    "https://a.example,https://b.example",
                ),
            ]),
        )
        .unwrap();
        assert_eq!(s.http.port, 9100, "env beats the file");
        assert_eq!(s.http.host, "0.0.0.0", "file beats the defaults");
        assert_eq!(
            s.http.cors_allowed_origins,
            vec!["https://a.example", "https://b.example"]
        );
    }

    #[test]
    fn invalid_values_and_unknown_keys_name_the_key() {
        let err =
            load_from::<Sample>(&SPEC, None, env(&[("SAMPLE__HTTP__PORT", "eighty")])).unwrap_err();
        assert!(err.to_string().contains("http.port"), "{err}");
        let err =
            load_from::<Sample>(&SPEC, None, env(&[("SAMPLE__HTTP__PROT", "80")])).unwrap_err();
        assert!(err.to_string().contains("prot"), "{err}");
        let err =
            load_from::<Sample>(&SPEC, Some(Path::new("/nonexistent.toml")), env(&[])).unwrap_err();
        assert!(err.to_string().contains("/nonexistent.toml"), "{err}");
    }

    #[test]
    fn a_misspelt_auth_key_stops_start_up() {
        // `ISUER` instead of `ISSUER` must not silently switch the issuer check off.
        let err = load_from::<Sample>(
            &SPEC,
            None,
            env(&[("SAMPLE__AUTH__ISUER", "https://id.city.example")]),
        )
        .unwrap_err();
        assert!(err.to_string().contains("isuer"), "{err}");
        let ok: Sample = load_from(
            &SPEC,
            None,
            env(&[("SAMPLE__AUTH__ISSUER", "https://id.city.example")]),
        )
        .unwrap();
        assert_eq!(ok.auth.issuer.as_deref(), Some("https://id.city.example"));
    }

    #[test]
    fn secrets_never_show_in_debug_output() {
        let s: Sample = load_from(
            &SPEC,
            None,
            env(&[
                ("SAMPLE__AUTH__DEV_SECRET", "dev-secret-value"),
                (
                    "SAMPLE__DATABASE__URL",
                    "postgres://app:db-password@db/citizen",
                ),
                ("SAMPLE__DATABASE__MAX_CONNECTIONS", "4"),
                ("SAMPLE__DATABASE__MIGRATE_ON_START", "false"),
                ("SAMPLE__DATABASE__ACQUIRE_TIMEOUT_SECONDS", "5"),
            ]),
        )
        .unwrap();
        let printed = format!("{s:?} {s:#?}");
        assert!(!printed.contains("dev-secret-value"), "{printed}");
        assert!(!printed.contains("db-password"), "{printed}");
        assert!(
            printed.contains("postgres://app:***@db/citizen"),
            "{printed}"
        );
        let authenticator = crate::auth::Authenticator::new(&s.auth).unwrap();
        assert!(!format!("{authenticator:?}").contains("dev-secret-value"));
    }

    #[test]
    fn base_path_is_validated() {
        let mut s: Sample = load_from(&SPEC, None, env(&[])).unwrap();
        assert!(s.http.validate().is_ok());
        s.http.base_path = "/api/v1/".into();
        assert!(s.http.validate().unwrap_err().contains("http.base_path"));
    }
}
