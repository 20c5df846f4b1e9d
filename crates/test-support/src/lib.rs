//! Helpers for tests that talk to real services.
//!
//! * [`postgres`] gives every test a fresh PostgreSQL database (cloned from a template that has
//!   PostGIS and pg_trgm), or `None` with a recorded skip when PostgreSQL is unreachable.
//! * [`mqtt_broker`] tells whether the MQTT broker answers.
//! * [`database`] gives a test a fresh database of either [`Backend`] (SQLite in a temporary
//!   folder removed afterwards), and [`on_both_backends!`] runs a suite's tests on both.
//! * [`init_test_log`] shows the service's logs in a test when `TEST_LOG=1`.
//! * [`PrivatePostgres`] starts a PostgreSQL cluster of the test's own, which it may stop and
//!   start again without disturbing the shared server.
//! * [`PrivateBroker`] runs a Mosquitto of the test's own, which it may kill and start again.
//! * [`process::ServiceProcess`] runs a service's own binary as a child process.
//! * [`spawn_app_thread`] runs the application under test on a runtime and thread of its own,
//!   stopped when the test drops it ([`spawn_service`]: a service of the platform on a clock of
//!   the test's own); [`http`] holds the plumbing of the services' HTTP tests.
//! * [`dev_token`] mints a dev token a service under test accepts.
//! * [`mqtt::client`] (feature `mqtt`) is an MQTT client of a test's own.
//! * [`webpush::vapid_claims`] checks a web push request's VAPID header.
//! * [`smtp::SmtpServer`] and [`push::PushReceiver`] are a mail server and a push service of the
//!   test's own, which it may take down and bring back and make refuse, fail, lag or never answer.
//!
//! With `REQUIRE_POSTGRES=1` / `REQUIRE_MQTT=1` (set by CI) an unreachable service fails the test
//! instead of skipping it. Skips are appended to `target/test-skips.txt`, which `make test` prints
//! after the run, because the test harness hides the output of passing tests.
#![allow(clippy::expect_used, clippy::unwrap_used)] // test code: a failure here is a test failure

mod app_thread;
pub mod broker_away;
pub mod http;
#[cfg(feature = "mqtt")]
pub mod mqtt;
mod port;
mod private_broker;
mod private_pg;
pub mod process;
pub mod push;
mod service;
pub mod smtp;
pub mod snapshot;
pub mod webpush;

pub use app_thread::{spawn_app_thread, AppThread, Stopped};
pub use port::TestServer;
pub use private_broker::PrivateBroker;
pub use private_pg::PrivatePostgres;
pub use service::{dev_token, spawn_service, under_test};

use sqlx::{Connection, Executor, PgConnection};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};
use tokio::sync::OnceCell;

/// Server URL used for tests (`TEST_DATABASE_URL`), pointing at an existing admin database.
pub fn admin_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

/// MQTT broker for tests (`TEST_MQTT_HOST`, `TEST_MQTT_PORT`).
pub fn mqtt_address() -> (String, u16) {
    let host = std::env::var("TEST_MQTT_HOST").unwrap_or_else(|_| "127.0.0.1".into());
    let port = std::env::var("TEST_MQTT_PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(1883);
    (host, port)
}

/// The value behind `m`, even if a thread panicked holding it (a test's panic is reported on
/// its own; the helpers go on).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// Records a skipped test in [`skip_file`], or fails it when `requirement_var` is `1` (or
/// `true`): `what` is the missing service or tool, `reason` why it is missing.
pub fn skip(requirement_var: &str, what: &str, reason: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("unknown")
        .to_string();
    if required(requirement_var) {
        panic!("{what} is required ({requirement_var}=1) but unavailable: {reason}");
    }
    eprintln!("SKIPPED {test}: {what} unavailable: {reason}");
    let path = skip_file();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(f, "{test}: {what} unavailable ({reason})");
    }
}

/// Where skips are recorded: `<workspace>/target/test-skips.txt`.
pub fn skip_file() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.join("../../target/test-skips.txt")
}

/// A fresh database for one test.
pub struct TestPostgres {
    /// URL of the fresh database.
    pub url: String,
    /// Its name.
    pub name: String,
}

const TEMPLATE: &str = "citizen_services_test_template";

static TEMPLATE_READY: OnceCell<Result<(), String>> = OnceCell::const_new();

async fn ensure_template() -> Result<(), String> {
    let mut admin = PgConnection::connect(&admin_url())
        .await
        .map_err(|e| e.to_string())?;
    // Serialise template creation across test processes.
    admin
        .execute("SELECT pg_advisory_lock(727274)")
        .await
        .map_err(|e| e.to_string())?;
    let result = async {
        let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(TEMPLATE)
            .fetch_one(&mut admin)
            .await
            .map_err(|e| e.to_string())?;
        if !exists {
            admin.execute(format!("CREATE DATABASE {TEMPLATE}").as_str()).await.map_err(|e| e.to_string())?;
            let mut tmpl = PgConnection::connect(&with_database(&admin_url(), TEMPLATE))
                .await
                .map_err(|e| e.to_string())?;
            let ext = tmpl
                .execute("CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pg_trgm;")
                .await;
            let _ = tmpl.close().await;
            if let Err(e) = ext {
                let _ = admin.execute(format!("DROP DATABASE {TEMPLATE}").as_str()).await;
                return Err(format!("PostGIS/pg_trgm not installable ({e}); install postgresql-15-postgis-3"));
            }
        }
        sweep_stale_databases(&mut admin).await;
        Ok(())
    }
    .await;
    let _ = admin.execute("SELECT pg_advisory_unlock(727274)").await;
    let _ = admin.close().await;
    result
}

/// How old a test database must be before a later test run drops it. Longer than any test run,
/// so a database another running test process still uses is never taken away from it.
const STALE_AFTER_SECS: u64 = 30 * 60;

/// Test databases are not dropped when their test ends (the service under test may still hold
/// connections to them); instead the first test of each process drops those left over from
/// runs that ended long ago, so repeated runs do not fill the disk. A database whose name
/// carries no creation time (an older naming) is dropped only if nothing is connected to it.
async fn sweep_stale_databases(admin: &mut PgConnection) {
    let Ok(names) = sqlx::query_scalar::<_, String>(
        "SELECT datname FROM pg_database WHERE datname LIKE 'cstest\\_%'",
    )
    .fetch_all(&mut *admin)
    .await
    else {
        return;
    };
    let now = unix_now();
    for name in names {
        let sql = match created_at(&name) {
            Some(t) if now.saturating_sub(t) < STALE_AFTER_SECS => continue,
            Some(_) => format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            None => format!("DROP DATABASE IF EXISTS {name}"),
        };
        // Another process may be sweeping too, or the database may be in use: ignore refusals.
        let _ = admin.execute(sql.as_str()).await;
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The creation time in a test database name `cstest_<label>_<unix seconds>_<random>`.
fn created_at(name: &str) -> Option<u64> {
    let mut parts = name.rsplitn(3, '_');
    let _random = parts.next()?;
    parts.next()?.parse().ok()
}

/// Replaces the database name (the path) of a PostgreSQL URL.
pub fn with_database(url: &str, database: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    let mut out = format!("{}/{}", &base[..path_start], database);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// A fresh database with PostGIS and pg_trgm, or `None` (recorded as a skip) when PostgreSQL
/// is unreachable. Panics instead of skipping when `REQUIRE_POSTGRES=1`.
pub async fn postgres(label: &str) -> Option<TestPostgres> {
    let ready = TEMPLATE_READY.get_or_init(ensure_template).await;
    if let Err(reason) = ready {
        skip("REQUIRE_POSTGRES", "PostgreSQL", reason);
        return None;
    }
    let label: String = label
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(20)
        .collect();
    // At most 7 + 20 + 1 + 10 + 1 + 16 = 55 characters: PostgreSQL names stop at 63.
    let random = uuid::Uuid::new_v4().simple().to_string();
    let name = format!(
        "cstest_{}_{}_{}",
        label.to_lowercase(),
        unix_now(),
        &random[random.len() - 16..]
    );
    let mut admin = PgConnection::connect(&admin_url())
        .await
        .expect("admin connection");
    admin
        .execute("SELECT pg_advisory_lock(727275)")
        .await
        .expect("lock");
    let created = admin
        .execute(format!("CREATE DATABASE {name} TEMPLATE {TEMPLATE}").as_str())
        .await;
    let _ = admin.execute("SELECT pg_advisory_unlock(727275)").await;
    let _ = admin.close().await;
    created.expect("create test database");
    Some(TestPostgres {
        url: with_database(&admin_url(), &name),
        name,
    })
}

/// `true` when the MQTT broker accepts TCP connections; otherwise records a skip (or panics
/// when `REQUIRE_MQTT=1`).
pub async fn mqtt_broker() -> bool {
    let (host, port) = mqtt_address();
    match tokio::time::timeout(
        std::time::Duration::from_secs(2),
        tokio::net::TcpStream::connect((host.as_str(), port)),
    )
    .await
    {
        Ok(Ok(_)) => true,
        Ok(Err(e)) => {
            skip(
                "REQUIRE_MQTT",
                "MQTT broker",
                &format!("{host}:{port}: {e}"),
            );
            false
        }
        Err(_) => {
            skip(
                "REQUIRE_MQTT",
                "MQTT broker",
                &format!("{host}:{port}: connect timed out"),
            );
            false
        }
    }
}

/// The storage backends every behaviour suite runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh database for one test; a SQLite file lives in a temporary folder that is removed
/// when this is dropped.
pub struct TestDatabase {
    pub backend: Backend,
    pub url: String,
    /// The temporary folder (SQLite file; tests may put other files there too).
    pub dir: tempfile::TempDir,
}

/// A fresh database of `backend`, or `None` when PostgreSQL is unreachable (skip recorded;
/// a failure under `REQUIRE_POSTGRES=1`).
pub async fn database(backend: Backend, label: &str) -> Option<TestDatabase> {
    let dir = tempfile::tempdir().expect("temporary folder");
    let url = match backend {
        Backend::Sqlite => format!(
            "sqlite://{}",
            dir.path().join(format!("{label}.db")).display()
        ),
        Backend::Postgres => postgres(label).await?.url,
    };
    Some(TestDatabase { backend, url, dir })
}

/// A deterministic generator (xorshift) for generated test data, so a failure can be replayed
/// from its seed.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The order of a name search, the rule of the SQL backends: whole name 0, name prefix 1, a
/// later word starts with `q` 2 (`LIKE 'q%' OR LIKE '% q%'`), for folded `name` and `q`. Written
/// out independently of `domain::text::match_rank`, as the reference tests compare it with.
pub fn name_rank(name: &str, q: &str) -> Option<u8> {
    if name == q {
        Some(0)
    } else if name.starts_with(q) {
        Some(1)
    } else if name.contains(&format!(" {q}")) {
        Some(2)
    } else {
        None
    }
}

/// The value on the first line of a Prometheus text exposition that starts with `prefix`
/// (`news_reads_total{source="memory"`), if any.
pub fn metric_value(exposition: &str, prefix: &str) -> Option<f64> {
    exposition
        .lines()
        .find(|l| l.starts_with(prefix))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

/// With `TEST_LOG=1` (or `true`), installs a readable log subscriber that the test harness
/// captures per test (`RUST_LOG` filters it, default `info`). Without it, tests stay quiet.
pub fn init_test_log() {
    if !required("TEST_LOG") {
        return;
    }
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_test_writer()
        .compact()
        .try_init();
}

/// Runs each listed test function (`async fn name(app: App)`) against SQLite and PostgreSQL.
/// `$spawn` is an `async fn(Backend) -> Option<App>` returning `None` when the backend is
/// unavailable (the skip is recorded), e.g. `on_both_backends!(crate::helpers::spawn_app; a, b)`.
#[macro_export]
macro_rules! on_both_backends {
    ($spawn:path; $($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let app = $spawn($crate::Backend::Sqlite).await.expect("SQLite is always available");
                    super::$name(app).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(app) = $spawn($crate::Backend::Postgres).await else { return };
                    super::$name(app).await;
                }
            )*
        }
    };
}

#[cfg(test)]
mod tests {
    use super::{created_at, with_database};

    #[test]
    fn replaces_the_database_name() {
        assert_eq!(
            with_database("postgres://u@h:5432/postgres", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(with_database("postgres://u@h", "x"), "postgres://u@h/x");
        assert_eq!(
            with_database("postgres://u@h/db?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
    }

    #[test]
    fn creation_time_is_read_from_test_database_names() {
        for (name, expected) in [
            (
                "cstest_streets_1763884800_0123456789abcdef",
                Some(1_763_884_800),
            ),
            (
                "cstest_store_error_57p01_1763884800_0123456789abcdef",
                Some(1_763_884_800),
            ),
            ("cstest_streets_0123456789abcdef0123456789abcdef", None),
            ("cstest_x", None),
        ] {
            assert_eq!(created_at(name), expected, "{name}");
        }
    }
}
