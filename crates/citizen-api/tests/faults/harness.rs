//! What the cases share: a platform of the case's own (a PostgreSQL cluster, a media folder and,
//! where the case needs one, a Mosquitto), citizen-api's own binary on it, citizens and officers
//! who talk to it over HTTP and keep every answer, and the checks of an answer under a fault.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reqwest::multipart::{Form, Part};
use reqwest::{Method, RequestBuilder};
use secrecy::SecretString;
use serde_json::{json, Value};
use sqlx::{Connection, PgConnection};
use test_support::process::ServiceProcess;
use test_support::{PrivateBroker, PrivatePostgres};
use uuid::Uuid;

use crate::media_images::images;

/// The secret the service under test verifies dev tokens with.
pub const DEV_SECRET: &str = "fault-suite-secret-0123456789abcdef";
/// The pool's acquire time-out the service is given (`database.acquire_timeout_seconds`).
pub const ACQUIRE_TIMEOUT_SECS: u64 = 2;
/// The longest an answer may take under a fault: the pool's acquire time-out, then the work of
/// the request itself (a filing stores its photo) on a loaded 2-core machine.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(ACQUIRE_TIMEOUT_SECS + 4);
/// `votes.max_count` of the service under test.
pub const MAX_VOTES: i64 = 10;
/// An officer who may work every report.
pub const MANAGER: &[&str] = &[
    "cityuser:reports:read",
    "cityuser:reports:manage",
    "cityuser:report-categories:access-all",
];

/// The cases start servers and load both cores: one runs at a time (each test has a runtime of
/// its own; tokio's mutex works across them).
pub async fn one_case_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
    static ONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    ONE.lock().await
}

/// The servers of one case, stopped and deleted when it ends.
pub struct Platform {
    pub pg: PrivatePostgres,
    pub broker: Option<PrivateBroker>,
    media: tempfile::TempDir,
}

impl Platform {
    /// A PostgreSQL cluster and a media folder, and a Mosquitto `with_broker`; `None` (a
    /// recorded skip) when PostgreSQL's or Mosquitto's binaries are not installed.
    pub async fn start(label: &str, with_broker: bool) -> Option<Self> {
        let pg = PrivatePostgres::start(label).await?;
        let broker = if with_broker {
            Some(PrivateBroker::start().await?)
        } else {
            None
        };
        Some(Self {
            pg,
            broker,
            media: tempfile::tempdir().expect("a media folder"),
        })
    }

    pub fn media_dir(&self) -> &Path {
        self.media.path()
    }

    /// citizen-api's binary on this platform, ready. `mqtt_url`: the broker it is given (none:
    /// a closed port, status events off); `extra`: more settings (keys without the prefix).
    pub async fn citizen_api(&self, mqtt_url: Option<String>, extra: &[(&str, String)]) -> Api {
        self.citizen_api_with(mqtt_url, extra, &[]).await
    }

    /// [`Platform::citizen_api`] with `raw` environment variables besides the settings (the
    /// test-only hooks of debug builds).
    pub async fn citizen_api_with(
        &self,
        mqtt_url: Option<String>,
        extra: &[(&str, String)],
        raw: &[(&str, String)],
    ) -> Api {
        let mut vars = self.settings_env(mqtt_url, extra);
        vars.extend(raw.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
        let mut process =
            ServiceProcess::start(env!("CARGO_BIN_EXE_citizen-api"), "CITIZEN_API", &vars);
        process.wait_ready("/readyz", Duration::from_secs(60)).await;
        Api {
            api: format!("{}/api/v1", process.base),
            process,
            http: reqwest::Client::new(),
        }
    }

    /// One of the binary's commands (`args`, e.g. `["sweep-uploads"]`) run to its end on this
    /// platform with the settings [`Platform::citizen_api`] gives the server.
    pub async fn citizen_api_command(&self, args: &[&str]) -> std::process::Output {
        tokio::process::Command::new(env!("CARGO_BIN_EXE_citizen-api"))
            .args(args)
            .envs(self.settings_env(None, &[]))
            .env("CITIZEN_API__TELEMETRY__FORMAT", "pretty")
            .stdin(std::process::Stdio::null())
            .output()
            .await
            .expect("run a citizen-api command")
    }

    /// The settings of the binary on this platform, as environment variables.
    fn settings_env(
        &self,
        mqtt_url: Option<String>,
        extra: &[(&str, String)],
    ) -> Vec<(String, String)> {
        let status_events = mqtt_url.is_some();
        let mqtt_url = mqtt_url.unwrap_or_else(|| {
            format!(
                "mqtt://127.0.0.1:{}",
                test_support::broker_away::closed_port()
            )
        });
        let common = [
            ("DATABASE__URL", self.pg.url()),
            ("DATABASE__MIGRATE_ON_START", "true".into()),
            ("DATABASE__MAX_CONNECTIONS", "5".into()),
            (
                "DATABASE__ACQUIRE_TIMEOUT_SECONDS",
                ACQUIRE_TIMEOUT_SECS.to_string(),
            ),
            ("AUTH__DEV_SECRET", DEV_SECRET.into()),
            ("MEDIA__DIR", path_string(self.media_dir())),
            ("RATE_LIMIT__ANONYMOUS_REPORTS_PER_HOUR", "0".into()),
            ("I18N__DEFAULT_LOCALE", "en".into()),
            ("HTTP__WORKERS", "2".into()),
            ("VOTES__MAX_COUNT", MAX_VOTES.to_string()),
            ("MQTT__URL", mqtt_url),
            ("MQTT__RETRY_MILLIS", "100".into()),
            ("MQTT__PUBLISH_TIMEOUT_MILLIS", "1000".into()),
            ("STATUS_EVENTS__ENABLED", status_events.to_string()),
            ("STATUS_EVENTS__POLL_MILLIS", "50".into()),
        ];
        common
            .iter()
            .chain(extra)
            .map(|(k, v)| (format!("CITIZEN_API__{k}"), v.clone()))
            .collect()
    }

    /// A connection to the cluster, for the checks after the fault.
    pub async fn sql(&self) -> PgConnection {
        let mut conn = PgConnection::connect(&self.pg.url())
            .await
            .expect("connect to the private cluster");
        sqlx::query("SET search_path TO citizen_api, public")
            .execute(&mut conn)
            .await
            .expect("search path");
        conn
    }

    /// The ids of every row of `table` (`reports`, `media`, …).
    pub async fn ids(&self, table: &str) -> BTreeSet<Uuid> {
        sqlx::query_scalar::<_, Uuid>(&format!("SELECT id FROM {table}"))
            .fetch_all(&mut self.sql().await)
            .await
            .unwrap_or_else(|e| panic!("the ids of {table}: {e}"))
            .into_iter()
            .collect()
    }

    /// The media ids of the files in the media folder.
    pub fn stored_files(&self) -> BTreeSet<Uuid> {
        files_under(self.media_dir())
    }
}

fn files_under(dir: &Path) -> BTreeSet<Uuid> {
    let mut found = BTreeSet::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path: PathBuf = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.parse().ok())
            {
                found.insert(id);
            }
        }
    }
    found
}

fn path_string(path: &Path) -> String {
    path.to_str().expect("temp paths are UTF-8").to_owned()
}

/// A dev token for `subject` with `scopes`, as the service under test accepts them.
pub fn token(subject: &str, scopes: &[&str]) -> String {
    let mut settings: citizen_api::Settings =
        service_kit::settings::load_from_pairs(&[]).expect("default settings");
    settings.auth.dev_secret = Some(SecretString::from(DEV_SECRET));
    test_support::dev_token(&settings.auth, subject, scopes, Duration::from_secs(3600))
}

/// citizen-api's binary under test.
pub struct Api {
    pub process: ServiceProcess,
    /// `<base>/api/v1`.
    pub api: String,
    pub http: reqwest::Client,
}

/// One answer as the client saw it: its status (`None`: no answer within [`ANSWER_WITHIN`], or
/// the connection failed), its body, and how long it took.
#[derive(Debug)]
pub struct Answer {
    pub what: String,
    pub status: Option<u16>,
    pub body: Value,
    pub took: Duration,
}

impl Answer {
    /// 2xx.
    pub fn acknowledged(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }

    /// The promise under a fault: an answer in time, either 2xx or 503 with the error body
    /// (`statusCode` 503, a `name` and a `userinfo`).
    pub fn check_under_fault(&self) {
        assert!(
            self.took <= ANSWER_WITHIN,
            "{} took {:?} (over {ANSWER_WITHIN:?})",
            self.what,
            self.took
        );
        match self.status {
            Some(s) if (200..300).contains(&s) => {}
            Some(503) => {
                assert_eq!(self.body["statusCode"], 503, "{self:?}");
                assert!(self.body["name"].is_string(), "{self:?}");
                assert!(self.body["userinfo"].is_string(), "{self:?}");
            }
            _ => panic!("under a fault, an answer other than 2xx or 503: {self:?}"),
        }
    }

    /// The `id` of a filed report.
    pub fn id(&self) -> Uuid {
        self.body["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no id in {self:?}"))
    }
}

impl Api {
    /// Sends `request` and keeps what came back.
    pub async fn send(&self, what: String, request: RequestBuilder) -> Answer {
        let started = Instant::now();
        let answer = request.timeout(ANSWER_WITHIN * 2).send().await;
        let (status, body) = match answer {
            Ok(response) => {
                let status = response.status().as_u16();
                let body = response.json().await.unwrap_or(Value::Null);
                (Some(status), body)
            }
            Err(_) => (None, Value::Null),
        };
        Answer {
            what,
            status,
            body,
            took: started.elapsed(),
        }
    }

    fn request(&self, method: Method, path: &str, token: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.api))
            .bearer_auth(token)
    }

    /// `POST /reports` by `token`'s citizen with one photo.
    pub async fn file(&self, token: &str, title: &str) -> Answer {
        self.send(format!("file {title}"), self.filing(Some(token), title))
            .await
    }

    /// The request of a filing with one photo, signed in with `token` or anonymous.
    pub fn filing(&self, token: Option<&str>, title: &str) -> RequestBuilder {
        let (photo, _) = images::jpeg();
        let form = Form::new()
            .text("title", title.to_owned())
            .text("description", "Filed while the platform is under a fault")
            .part(
                "media",
                Part::bytes(photo)
                    .file_name("photo.jpg")
                    .mime_str("image/jpeg")
                    .expect("mime"),
            );
        let request = self.http.post(format!("{}/reports", self.api));
        match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
        .multipart(form)
    }

    /// `POST /me/vote-tokens`.
    pub async fn place(&self, token: &str, target: Uuid, count: i64) -> Answer {
        let request = self
            .request(Method::POST, "/me/vote-tokens", token)
            .json(&json!({"target": target.to_string(), "count": count}));
        self.send(format!("place {count} on {target}"), request)
            .await
    }

    /// `PATCH /me/vote-token-revoke`.
    pub async fn revoke(&self, token: &str, target: Uuid, count: i64) -> Answer {
        let request = self
            .request(Method::PATCH, "/me/vote-token-revoke", token)
            .json(&json!({"target": target.to_string(), "count": count}));
        self.send(format!("revoke {count} on {target}"), request)
            .await
    }

    /// `POST /admin/issues/{issue}/{step}` (`accept`, `resolve`).
    pub async fn step(&self, token: &str, issue: Uuid, step: &str) -> Answer {
        let request = self.request(
            Method::POST,
            &format!("/admin/issues/{issue}/{step}"),
            token,
        );
        self.send(format!("{step} {issue}"), request).await
    }

    /// The first issue of `report` (an officer's read; outside the fault).
    pub async fn issue_of(&self, token: &str, report: Uuid) -> Uuid {
        let answer = self
            .send(
                format!("issues of {report}"),
                self.request(
                    Method::GET,
                    &format!("/admin/reports/{report}/issues"),
                    token,
                ),
            )
            .await;
        assert_eq!(answer.status, Some(200), "{answer:?}");
        answer.body["issues"][0]["issue_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no issue in {answer:?}"))
    }

    /// `GET path` with `token`: (status, body).
    pub async fn get(&self, token: &str, path: &str) -> (Option<u16>, Value) {
        let answer = self
            .send(
                format!("GET {path}"),
                self.request(Method::GET, path, token),
            )
            .await;
        (answer.status, answer.body)
    }
}

/// What happened to one kind of request in a case: the counts of the closing note.
#[derive(Debug, Default)]
pub struct Tally {
    pub sent: usize,
    pub acknowledged: usize,
    pub refused_503: usize,
    pub found: usize,
    pub lost: usize,
    pub twice: usize,
}

impl Tally {
    pub fn count(&mut self, answer: &Answer) {
        self.sent += 1;
        if answer.acknowledged() {
            self.acknowledged += 1;
        } else if answer.status == Some(503) {
            self.refused_503 += 1;
        }
    }

    /// Prints the counts (shown with `--nocapture`, and in the log of a failing case).
    pub fn report(&self, case: &str, kind: &str) {
        eprintln!(
            "{case}: {kind}: sent {}, acknowledged {}, refused with 503 {}, found afterwards {}, \
             lost {}, delivered twice {}",
            self.sent, self.acknowledged, self.refused_503, self.found, self.lost, self.twice
        );
    }
}
