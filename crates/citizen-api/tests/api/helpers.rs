//! The test harness: the real service on port 0 (on its own runtime, stopped when the
//! [`TestApp`] is dropped), real HTTP over a socket, dev tokens, and the stores over a second
//! pool to set up what the API cannot create yet (the officers' workflow).
#![allow(dead_code)] // each test module uses part of it

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, SubsecRound, TimeDelta, Utc};
use citizen_api::app::workflow;
use citizen_api::store::composition::Stores;
use citizen_api::store::{self, Category, Issue, NewCategory, NewReport, Statement, WorkflowError};
use citizen_api::{Application, Settings};
use domain::geo::{LocationParam, LonLat};
use domain::issues::Transition;
use secrecy::SecretString;
use serde::Serialize;
use serde_json::Value;
use service_kit::clock::ManualClock;
use service_kit::db::{Database, DatabaseSettings};
use service_kit::settings::ServiceSettings;
use test_support::{Backend, TestDatabase};
use uuid::Uuid;

pub use test_support::http::assert_error;

pub const DEV_SECRET: &str = "test-secret-for-citizen-api-0123456789";
pub const ACCESS_ALL: &str = "cityuser:report-categories:access-all";
pub const OFFICER: &str = "officer-1";

pub struct TestApp {
    pub base: String,
    pub root: String,
    pub http: reqwest::Client,
    pub settings: Settings,
    /// The service's stores over a pool of the test's own runtime.
    pub stores: Stores,
    /// When the test's reports are filed: a fixed second, moved on per filing.
    pub start: DateTime<Utc>,
    /// The application's clock (stands still unless a test moves it).
    pub clock: Arc<ManualClock>,
    pub db: Arc<TestDatabase>,
    /// Dropping it stops the application (its runtime ends with it).
    _stop: test_support::AppThread,
}

/// Production settings with the test database, port 0 and the dev secret.
pub fn settings(db: &TestDatabase) -> Settings {
    let mut s: Settings = service_kit::settings::load_from_pairs(&[]).expect("default settings");
    test_support::under_test(&mut s.http, &mut s.database, &db.url);
    s.auth.dev_secret = Some(SecretString::from(DEV_SECRET));
    s.i18n.default_locale = "en".into();
    s.media.dir = db.dir.path().join("media");
    s.captcha.enabled = false;
    // Tests run the vote expiry sweep themselves (`TestApp::expire_votes`).
    s.votes.expiry_sweep_seconds = 0;
    s.validate().expect("valid test settings");
    s
}

/// The service on a fresh database of `backend`; `None` when the backend is unavailable (for
/// `test_support::on_both_backends!`).
pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "citizen").await?);
    Some(spawn_on(db, |_| {}).await)
}

/// The service on `db` with settings adjusted by `configure`.
pub async fn spawn_on(db: Arc<TestDatabase>, configure: impl FnOnce(&mut Settings)) -> TestApp {
    test_support::init_test_log();
    let mut settings = settings(&db);
    configure(&mut settings);
    let start = Utc::now().trunc_subsecs(0) - TimeDelta::days(1);
    let clock = Arc::new(ManualClock::new(start));
    let (port, stop) =
        test_support::spawn_service(settings.clone(), clock.clone(), Application::port).await;
    let database = DatabaseSettings {
        max_connections: 2,
        ..settings.database.clone()
    };
    let pool = Database::connect(&database, store::SCHEMA)
        .await
        .expect("test pool");
    let root = format!("http://127.0.0.1:{port}");
    TestApp {
        base: format!("{root}{}", settings.http.base_path),
        root,
        http: reqwest::Client::new(),
        settings,
        stores: store::composition::for_database(&pool),
        start,
        clock,
        db,
        _stop: stop,
    }
}

impl TestApp {
    /// The files in the media folder.
    pub fn stored_files(&self) -> Vec<std::path::PathBuf> {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.push(path);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.settings.media.dir, &mut out);
        out
    }

    /// POST /reports with `form`, optionally signed in: (status, headers, JSON body).
    pub async fn post_report(
        &self,
        form: reqwest::multipart::Form,
        token: Option<&str>,
    ) -> (u16, reqwest::header::HeaderMap, Value) {
        let mut request = self
            .http
            .post(format!("{}/reports", self.base))
            .multipart(form);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        (
            status,
            headers,
            response.json().await.unwrap_or(Value::Null),
        )
    }
}

/// Sends `request`: its status and its JSON body (null when it has none).
pub async fn answer(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A filing form with a title and a description.
pub fn form(title: &str, description: &str) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new()
        .text("title", title.to_owned())
        .text("description", description.to_owned())
}

/// A file part.
pub fn file(bytes: Vec<u8>, name: &str) -> reqwest::multipart::Part {
    reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned())
}

/// A report to file through the store.
pub struct Filing {
    pub title: String,
    pub description: String,
    pub at: Option<(f64, f64)>,
    pub author: Option<String>,
    /// Seconds after the app's start instant.
    pub second: i64,
}

impl Filing {
    pub fn new(title: &str, second: i64) -> Self {
        Self {
            title: title.to_owned(),
            description: format!("{title}: description"),
            at: None,
            author: None,
            second,
        }
    }

    pub fn at(mut self, lon: f64, lat: f64) -> Self {
        self.at = Some((lon, lat));
        self
    }

    pub fn by(mut self, subject: &str) -> Self {
        self.author = Some(subject.to_owned());
        self
    }

    pub fn description(mut self, text: &str) -> Self {
        self.description = text.to_owned();
        self
    }
}

/// A filed report: its id and the id of its first issue.
#[derive(Debug, Clone, Copy)]
pub struct Filed {
    pub report: Uuid,
    pub issue: Uuid,
}

impl TestApp {
    /// Files `new` through the filing use case at second `second` of the test's clock.
    pub async fn file_new(&self, new: &NewReport, second: i64) {
        citizen_api::app::filing::file_report(self.stores.issues.as_ref(), new, self.time(second))
            .await
            .expect("file")
            .expect("a default category");
    }

    pub fn time(&self, second: i64) -> DateTime<Utc> {
        self.start + TimeDelta::seconds(second)
    }

    /// Files a report through the store (as the API does), at `start + filing.second`.
    pub async fn file(&self, filing: Filing) -> Filed {
        let id = Uuid::now_v7();
        let new = NewReport {
            id,
            author: filing.author,
            title: filing.title,
            description: filing.description,
            location: filing.at.map(|(lon, lat)| LocationParam {
                point: LonLat { lon, lat },
                radius_m: None,
            }),
            ..NewReport::default()
        };
        self.file_new(&new, filing.second).await;
        let found = self.stores.reports.report(id).await.unwrap().unwrap();
        Filed {
            report: id,
            issue: found.issues[0].id,
        }
    }

    pub async fn category(&self, name: &str, deadline_days: Option<u32>) -> Category {
        self.stores
            .categories
            .create_category(
                &NewCategory {
                    name: name.to_owned(),
                    is_default: false,
                    statement_deadline_days: deadline_days,
                },
                self.start,
            )
            .await
            .expect("category")
    }

    pub fn token(&self, subject: &str, scopes: &[&str]) -> String {
        test_support::dev_token(
            &self.settings.auth,
            subject,
            scopes,
            Duration::from_secs(600),
        )
    }

    /// GET `path` (under the base path) with an optional bearer token: (status, JSON body).
    pub async fn get_as(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.request(reqwest::Method::GET, path, token, None).await
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.get_as(path, None).await
    }

    /// A JSON request with a token: (status, JSON body).
    pub async fn send_json(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
        body: &Value,
    ) -> (u16, Value) {
        self.request(method, path, Some(token), Some(body)).await
    }

    /// A request with an optional token and JSON body: (status, JSON body or Null).
    pub async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let response = test_support::http::send(&self.http, method, &url, token, body).await;
        test_support::http::status_and_json(response).await
    }

    /// POST /me/vote-tokens: places `n` tokens of `token`'s holder on `target`.
    pub async fn vote(&self, token: &str, target: impl Serialize, n: u64) -> (u16, Value) {
        let body = serde_json::json!({"target": target, "count": n});
        self.send_json(reqwest::Method::POST, "/me/vote-tokens", token, &body)
            .await
    }

    /// The vote expiry sweep at the application's instant, as a replica runs it; how many
    /// tokens stopped counting.
    pub async fn expire_votes(&self) -> u64 {
        use service_kit::clock::Clock as _;
        citizen_api::app::vote_expiry::sweep(self.stores.votes.as_ref(), self.clock.now())
            .await
            .expect("the expiry sweep")
    }

    /// PATCH /me/vote-token-revoke: revokes `n` tokens of `token`'s holder on `target`.
    pub async fn revoke_votes(&self, token: &str, target: impl Serialize, n: u64) -> (u16, Value) {
        let body = serde_json::json!({"target": target, "count": n});
        let path = "/me/vote-token-revoke";
        self.send_json(reqwest::Method::PATCH, path, token, &body)
            .await
    }

    /// GET `url` (a whole URL) without a token: the response as it came.
    pub async fn get_url(&self, url: &str) -> reqwest::Response {
        self.http.get(url).send().await.unwrap()
    }

    /// GET `path` (under the base path) without a token: the response as it came.
    pub async fn get_response(&self, path: &str) -> reqwest::Response {
        self.get_url(&format!("{}{path}", self.base)).await
    }

    /// GET `path` (under the base path) with the header `name: value`: the response as it came.
    pub async fn get_with_header(&self, path: &str, name: &str, value: &str) -> reqwest::Response {
        let url = format!("{}{path}", self.base);
        test_support::http::get_with_header(&self.http, &url, name, value).await
    }

    /// How many rows the first page of the public list (GET /reports) has.
    pub async fn listed_reports(&self) -> usize {
        self.get_ok("/reports").await["reports"]
            .as_array()
            .unwrap()
            .len()
    }

    /// GET that must answer 200.
    pub async fn get_ok(&self, path: &str) -> Value {
        let (status, body) = self.get(path).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// The value of the first sample of `/metrics` whose line starts with `prefix` (0 when
    /// there is none yet).
    pub async fn metric(&self, prefix: &str) -> f64 {
        let text = test_support::http::metrics_text(&self.http, &self.root).await;
        test_support::metric_value(&text, prefix).unwrap_or(0.0)
    }
}

/// The officers' workflow through its use cases (below the API), always as [`OFFICER`]: for
/// tests that need an issue in some state, not the admin routes.
pub struct Desk<'a> {
    issues: &'a dyn citizen_api::store::IssueStore,
}

impl TestApp {
    pub fn desk(&self) -> Desk<'_> {
        Desk {
            issues: self.stores.issues.as_ref(),
        }
    }

    /// Accepts `issue` at `at` (through the use case, as [`OFFICER`]).
    pub async fn accept(&self, issue: Uuid, at: DateTime<Utc>) -> Issue {
        self.desk().status(issue, Transition::Accept, at).await
    }

    /// Adds a non-final statement without media to `issue` at `at`.
    pub async fn add_statement(&self, issue: Uuid, text: &str, at: DateTime<Utc>) -> Statement {
        self.desk().statement(issue, text, false, at).await
    }
}

impl Desk<'_> {
    /// `transition` on `issue` at `at`, refused or not.
    pub async fn try_status(
        &self,
        issue: Uuid,
        transition: Transition,
        at: DateTime<Utc>,
    ) -> Result<Issue, WorkflowError> {
        workflow::change_status(self.issues, issue, transition, OFFICER, at).await
    }

    /// `transition` on `issue` at `at`, which must be allowed.
    pub async fn status(&self, issue: Uuid, transition: Transition, at: DateTime<Utc>) -> Issue {
        self.try_status(issue, transition, at).await.unwrap()
    }

    /// Moves `issue` into `category`: the new issue.
    pub async fn move_to(&self, issue: Uuid, category: Uuid, at: DateTime<Utc>) -> Issue {
        workflow::move_issue(self.issues, issue, category, OFFICER, at)
            .await
            .unwrap()
    }

    /// A statement without media on `issue`.
    pub async fn statement(
        &self,
        issue: Uuid,
        text: &str,
        final_: bool,
        at: DateTime<Utc>,
    ) -> Statement {
        workflow::add_statement(self.issues, issue, text, final_, &[], OFFICER, at)
            .await
            .unwrap()
    }

    /// Marks `issue` a duplicate of `parent`.
    pub async fn duplicate_of(&self, issue: Uuid, parent: Uuid, at: DateTime<Utc>) -> Issue {
        workflow::mark_duplicate(self.issues, issue, parent, OFFICER, at)
            .await
            .unwrap()
    }
}

/// The `field` of each report row, as strings.
pub fn column(body: &Value, field: &str) -> Vec<String> {
    body["reports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| match &r[field] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// `f` of each element of the JSON array `list`.
pub fn each<'a, T>(list: &'a Value, f: impl FnMut(&'a Value) -> T) -> Vec<T> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(f)
        .collect()
}

/// The string `field` of each element of the JSON array `list`.
pub fn strs<'a>(list: &'a Value, field: &str) -> Vec<&'a str> {
    each(list, |v| v[field].as_str().unwrap())
}

/// The string `v` as an owned `String`.
pub fn string(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_owned()
}
