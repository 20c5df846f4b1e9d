//! A Mosquitto of the test's own, for tests that kill the broker, which they must not do to the
//! machine's shared one (other tests use it at the same time).
//!
//! [`PrivateBroker::start`] runs `mosquitto -c <file>` listening on a free port of 127.0.0.1,
//! anonymous clients allowed and nothing kept on disk, so a broker killed and started again has
//! lost every session, subscription and queued message, as a broker pod replaced without a
//! volume has. The binary is `TEST_MOSQUITTO` or `mosquitto` on the `PATH` (or in `/usr/sbin`);
//! when there is none the test is skipped (recorded like the other skips, or a failure under
//! `REQUIRE_MQTT=1`). Dropping the handle kills the broker.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::net::TcpStream;
use tokio::process::{Child, Command};

use crate::process::closed_port;

/// A Mosquitto for one test; killed on drop.
pub struct PrivateBroker {
    binary: PathBuf,
    config: tempfile::NamedTempFile,
    port: u16,
    child: Option<Child>,
}

impl PrivateBroker {
    /// Starts a broker; `None` (with a recorded skip) when Mosquitto is not installed.
    pub async fn start() -> Option<Self> {
        let Some(binary) = find_mosquitto() else {
            crate::skip(
                "REQUIRE_MQTT",
                "a private MQTT broker",
                "mosquitto not found; install mosquitto or set TEST_MOSQUITTO",
            );
            return None;
        };
        let port = closed_port();
        let config = tempfile::NamedTempFile::new().expect("a temp file");
        std::fs::write(
            config.path(),
            format!(
                "listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n\
                 log_type error\nlog_type warning\n"
            ),
        )
        .expect("write the broker's configuration");
        let mut broker = Self {
            binary,
            config,
            port,
            child: None,
        };
        broker.start_again().await;
        Some(broker)
    }

    /// The broker's address, for [`crate::broker_away::FlappingBroker::to`].
    pub fn address(&self) -> (String, u16) {
        ("127.0.0.1".into(), self.port)
    }

    /// `mqtt://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("mqtt://127.0.0.1:{}", self.port)
    }

    /// Freezes the broker (SIGSTOP): its connections stay open and nothing is answered, as a
    /// broker that hangs before it dies; [`Self::kill`] ends it.
    pub fn freeze(&self) {
        let pid = self
            .child
            .as_ref()
            .and_then(Child::id)
            .expect("a running broker");
        let sent = std::process::Command::new("kill")
            .args(["-STOP", &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -STOP {pid}");
    }

    /// Kills the broker with SIGKILL (no goodbye to its clients, nothing saved) and waits until
    /// it is gone.
    pub async fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.start_kill();
            let _ = child.wait().await;
        }
    }

    /// Starts the (killed) broker again on the same port; returns once it accepts connections.
    pub async fn start_again(&mut self) {
        assert!(self.child.is_none(), "the broker is running");
        let mut child = Command::new(&self.binary)
            .arg("-c")
            .arg(self.config.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.binary.display()));
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).await.is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("mosquitto exited at start: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "mosquitto not listening within 10 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.child = Some(child);
    }
}

fn find_mosquitto() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("TEST_MOSQUITTO") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/local/sbin")])
        .map(|dir| dir.join("mosquitto"))
        .find(|p| p.is_file())
}
