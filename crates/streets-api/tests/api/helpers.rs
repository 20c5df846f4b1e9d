//! `spawn_app`: the real application on port 0 with a fresh database per test.

use secrecy::ExposeSecret;
use serde_json::Value;
use service_kit::settings::ServiceSettings;
use service_kit::startup::ServiceApp;
use std::sync::Arc;
use streets_api::store::{ReadModelStreets, StreetStore};
use streets_api::{Application, Settings};
use streets_import::ImportedStreet;

pub use test_support::http::assert_error;
pub use test_support::Backend;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub store: Arc<dyn StreetStore>,
    pub model: Arc<ReadModelStreets>,
    pub database_url: String,
    pub _dir: tempfile::TempDir,
    pub shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    pub server: tokio::task::JoinHandle<anyhow::Result<()>>,
}

/// Settings as in production, with a fresh database and port 0.
pub fn test_settings(database_url: &str) -> Settings {
    let mut settings = Settings::load(None).expect("default settings load");
    test_support::under_test(&mut settings.http, &mut settings.database, database_url);
    settings.demo.load_when_empty = false;
    // Tests import through other processes (the CLI) and read right after: confirm the import
    // generation on every read, so the read model is never behind (tests/api/read_model.rs
    // checks the staleness bound with its own values).
    settings.cache.max_staleness_millis = 0;
    settings
}

/// A database URL for `backend`, or `None` when PostgreSQL is unreachable (skip recorded).
pub async fn database_url(backend: Backend, dir: &tempfile::TempDir) -> Option<String> {
    match backend {
        Backend::Sqlite => Some(format!(
            "sqlite://{}",
            dir.path().join("streets.db").display()
        )),
        Backend::Postgres => test_support::postgres("streets").await.map(|db| db.url),
    }
}

/// Starts the application; `None` when the backend is unavailable (the skip is recorded).
pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = database_url(backend, &dir).await?;
    Some(spawn_with(test_settings(&url), dir).await)
}

/// Starts the application with the read model off: every read goes to the database.
pub async fn spawn_app_on_database(backend: Backend) -> Option<TestApp> {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = database_url(backend, &dir).await?;
    let mut settings = test_settings(&url);
    settings.cache.max_entries = 0;
    Some(spawn_with(settings, dir).await)
}

/// Runs the listed suite on both backends twice: answered from the read model (the default),
/// and, in a module `from_the_database`, with every read answered by the database
/// (`cache.max_entries = 0`).
macro_rules! on_both_backends_and_the_database {
    ($($name:ident),* $(,)?) => {
        test_support::on_both_backends!(crate::helpers::spawn_app; $($name),*);

        /// The same suite with every read answered by the database (`cache.max_entries = 0`).
        mod from_the_database {
            use super::*;

            test_support::on_both_backends!(crate::helpers::spawn_app_on_database; $($name),*);
        }
    };
}
pub(crate) use on_both_backends_and_the_database;

pub async fn spawn_with(settings: Settings, dir: tempfile::TempDir) -> TestApp {
    test_support::init_test_log();
    let app = Application::build(&settings)
        .await
        .expect("application builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    let store = app.store();
    let model = app.read_model();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async move {
        let _ = rx.await;
    }));
    TestApp {
        address,
        client: reqwest::Client::new(),
        store,
        model,
        database_url: settings.database.url.expose_secret().to_owned(),
        _dir: dir,
        shutdown: Some(tx),
        server,
    }
}

impl TestApp {
    pub fn url(&self, path_and_query: &str) -> String {
        format!("{}/api/v1{}", self.address, path_and_query)
    }

    /// GET a path at the root (`/healthz`, `/readyz`, `/metrics`, unknown paths).
    pub async fn get_root(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .expect("request")
    }

    /// GET a path under the base path with the header `name: value`.
    pub async fn get_with(&self, path: &str, name: &str, value: &str) -> reqwest::Response {
        test_support::http::get_with_header(&self.client, &self.url(path), name, value).await
    }

    /// The `/metrics` text.
    pub async fn metrics(&self) -> String {
        test_support::http::metrics_text(&self.client, &self.address).await
    }

    /// GET a path under the base path; returns status and JSON body.
    pub async fn get(&self, path_and_query: &str) -> (u16, Value) {
        let response = self
            .client
            .get(self.url(path_and_query))
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        let body = response.json::<Value>().await.expect("JSON body");
        (status, body)
    }

    /// GET that must succeed with an array of features.
    pub async fn streets(&self, path_and_query: &str) -> Vec<Value> {
        let (status, body) = self.get(path_and_query).await;
        assert_eq!(status, 200, "{path_and_query}: {body}");
        body.as_array().expect("array").clone()
    }

    /// The I_GM_U numbers of a street list.
    pub async fn numbers(&self, path_and_query: &str) -> Vec<i64> {
        self.streets(path_and_query)
            .await
            .iter()
            .map(number)
            .collect()
    }

    /// Replaces the streets through the service (so its read model is rebuilt before this
    /// returns).
    pub async fn seed(&self, streets: &[ImportedStreet]) {
        self.store.replace_all_streets(streets).await.expect("seed");
    }

    /// The value of a metric line starting with `prefix` (e.g. `streets_reads_total{source="memory"`).
    pub async fn metric(&self, prefix: &str) -> u64 {
        let metrics = self.metrics().await;
        test_support::metric_value(&metrics, prefix)
            .map(|v| v as u64)
            .unwrap_or_else(|| panic!("no metric {prefix} in\n{metrics}"))
    }
}

/// The first bounding box of a collection's spatial extent.
pub fn extent_bbox(collection: &Value) -> Vec<f64> {
    collection["extent"]["spatial"]["bbox"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

pub fn number(feature: &Value) -> i64 {
    feature["properties"]["I_GM_U"].as_i64().expect("I_GM_U")
}

pub fn street(number: i64, name: &str, lines: Vec<Vec<[f64; 2]>>) -> ImportedStreet {
    ImportedStreet {
        number,
        name: name.to_string(),
        lines,
    }
}

/// A short east-west street at `lon`, `lat`.
pub fn short_street(number: i64, name: &str, lon: f64, lat: f64) -> ImportedStreet {
    street(number, name, vec![vec![[lon, lat], [lon + 0.0005, lat]]])
}
