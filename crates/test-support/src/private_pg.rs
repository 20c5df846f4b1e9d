//! A private PostgreSQL cluster for tests that stop, crash or restart the server, which they must
//! not do to the shared one (other tests run against it at the same time).
//!
//! [`PrivatePostgres::start`] runs `initdb` into a fresh folder under the system temp dir and
//! `pg_ctl start` on a free port of 127.0.0.1 (its Unix socket in that folder too). PostgreSQL
//! refuses to run as root, so when the test runs as root the folder is given to the `postgres`
//! OS user and every server command runs through `runuser -u postgres --`. The binaries are
//! looked up in `TEST_PG_BINDIR`, then `/usr/lib/postgresql/<newest>/bin`, then `pg_config
//! --bindir`; when none is there the test is skipped (recorded like the other skips, or a
//! failure under `REQUIRE_POSTGRES=1`). Dropping the handle stops the server (`-m immediate`)
//! and removes the folder.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;
use tokio::process::Command;

/// A PostgreSQL server of its own for one test; stopped and deleted on drop.
pub struct PrivatePostgres {
    bindir: PathBuf,
    root: PathBuf,
    port: u16,
    as_postgres_user: bool,
}

impl PrivatePostgres {
    /// Creates and starts a cluster (trust authentication, user `postgres`); `None` (with a
    /// recorded skip) when the PostgreSQL server binaries are not installed.
    pub async fn start(label: &str) -> Option<Self> {
        let bindir = match find_bindir() {
            Ok(dir) => dir,
            Err(reason) => {
                crate::skip("REQUIRE_POSTGRES", "a private PostgreSQL cluster", &reason);
                return None;
            }
        };
        let label: String = label
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .take(20)
            .collect();
        let root = std::env::temp_dir().join(format!(
            "private-pg-{label}-{}",
            uuid::Uuid::new_v4().simple()
        ));
        std::fs::create_dir_all(&root).expect("create the cluster folder");
        let as_postgres_user = std::fs::metadata(&root).expect("stat").uid() == 0;
        let cluster = Self {
            bindir,
            root,
            port: free_port(),
            as_postgres_user,
        };
        if as_postgres_user {
            if let Err(reason) = cluster.give_to_postgres_user().await {
                crate::skip("REQUIRE_POSTGRES", "a private PostgreSQL cluster", &reason);
                return None;
            }
        }
        let data = cluster.data_dir();
        cluster
            .run(
                "initdb",
                &[
                    "-D",
                    path_str(&data),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    "--no-sync",
                ],
            )
            .await;
        cluster.start_server().await;
        Some(cluster)
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// URL of the `postgres` database as superuser `postgres`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// `pg_ctl stop -m fast`: open sessions are terminated (SQLSTATE 57P01), then the server
    /// shuts down; returns once it is down.
    pub async fn stop(&self) {
        self.pg_ctl(&["stop", "-m", "fast", "-w", "-t", "30"]).await;
    }

    /// Starts the stopped server again on the same port; returns once it accepts connections.
    pub async fn start_server(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off",
            self.port,
            path_str(&self.root)
        );
        let log = self.root.join("server.log");
        self.pg_ctl(&[
            "start",
            "-w",
            "-t",
            "30",
            "-l",
            path_str(&log),
            "-o",
            &options,
        ])
        .await;
    }

    /// The server log so far (for a failing test's message).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.root.join("server.log")).unwrap_or_default()
    }

    fn data_dir(&self) -> PathBuf {
        self.root.join("data")
    }

    async fn pg_ctl(&self, args: &[&str]) {
        let data = self.data_dir();
        let mut all = vec!["-D", path_str(&data)];
        all.extend_from_slice(args);
        self.run("pg_ctl", &all).await;
    }

    fn command(&self, program: &str) -> Command {
        let program = self.bindir.join(program);
        let mut command = if self.as_postgres_user {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            Command::new(program)
        };
        command.kill_on_drop(true);
        command
    }

    async fn run(&self, program: &str, args: &[&str]) {
        let output = tokio::time::timeout(
            Duration::from_secs(60),
            self.command(program).args(args).output(),
        )
        .await
        .unwrap_or_else(|_| panic!("{program} {args:?} took over 60 s"))
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        check(program, args, &output, &self.log());
    }

    async fn give_to_postgres_user(&self) -> Result<(), String> {
        let runuser = Command::new("runuser").arg("--help").output().await;
        if !runuser.is_ok_and(|o| o.status.success()) {
            return Err(
                "running as root, and runuser (to run PostgreSQL as postgres) is missing".into(),
            );
        }
        let output = Command::new("chown")
            .arg("postgres:postgres")
            .arg(&self.root)
            .output()
            .await
            .map_err(|e| format!("cannot run chown: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "running as root and cannot give {} to the postgres user: {}",
                self.root.display(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(())
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let data = self.data_dir();
        let program = self.bindir.join("pg_ctl");
        let mut command = if self.as_postgres_user {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            std::process::Command::new(program)
        };
        let _ = command
            .arg("-D")
            .arg(&data)
            .args(["stop", "-m", "immediate", "-w"])
            .output();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn check(program: &str, args: &[&str], output: &Output, log: &str) {
    assert!(
        output.status.success(),
        "{program} {args:?} failed ({}):\n{}\n{}\nserver log:\n{log}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// A port that was free a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The folder with `initdb` and `pg_ctl`.
fn find_bindir() -> Result<PathBuf, String> {
    let has_tools = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Ok(dir) = std::env::var("TEST_PG_BINDIR") {
        let dir = PathBuf::from(dir);
        return if has_tools(&dir) {
            Ok(dir)
        } else {
            Err(format!(
                "no initdb/pg_ctl in TEST_PG_BINDIR={}",
                dir.display()
            ))
        };
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, dir)| has_tools(dir))
        .collect();
    versions.sort();
    if let Some((_, dir)) = versions.pop() {
        return Ok(dir);
    }
    let from_pg_config = std::process::Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    match from_pg_config {
        Some(dir) if has_tools(&dir) => Ok(dir),
        _ => Err("PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql-15 or set TEST_PG_BINDIR".into()),
    }
}
