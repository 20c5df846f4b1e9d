//! A service's own binary run as a child process by a test: started on a free port with the
//! environment the test gives, watched for an early exit, its output kept for the failure
//! message, and ended with SIGTERM (which it must survive to exit 0) or SIGKILL.

use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

use crate::lock;

/// A free port of 127.0.0.1 on which nothing listens once this returns.
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("local address").port()
}

/// A copy of `binary` in `dir` that cannot find the folders it was built in: every build
/// script's output folder it names (`…/build/<crate>-<16 hex>/out`, anywhere: the target
/// directory may be another clone's) is renamed in the copy to a `…/BUILD/…` that does not
/// exist, as after the checkout was moved, renamed or cleaned. The copy's path and how many
/// folders it named.
pub fn without_build_folders(binary: &str, dir: &std::path::Path) -> (std::path::PathBuf, usize) {
    let mut bytes = std::fs::read(binary).expect("read the service binary");
    let mut renamed = 0;
    let mut at = 0;
    while let Some(found) = find(&bytes[at..], b"/build/") {
        let start = at + found;
        at = start + 1;
        if names_out_dir(&bytes[start + b"/build/".len()..]) {
            bytes[start + 1..start + 6].copy_from_slice(b"BUILD");
            renamed += 1;
        }
    }
    let name = std::path::Path::new(binary)
        .file_name()
        .expect("the binary's file name");
    let copy = dir.join(name);
    std::fs::write(&copy, &bytes).expect("write the copy");
    std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("make the copy executable");
    (copy, renamed)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `rest` starts with `<crate>-<16 hex digits>/out`, a build script's output folder.
fn names_out_dir(rest: &[u8]) -> bool {
    let Some(slash) = rest.iter().take(120).position(|&b| b == b'/') else {
        return false;
    };
    let (folder, after) = rest.split_at(slash);
    let Some(dash) = folder.iter().rposition(|&b| b == b'-') else {
        return false;
    };
    let (krate, hash) = (&folder[..dash], &folder[dash + 1..]);
    !krate.is_empty()
        && krate
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
        && hash.len() == 16
        && hash.iter().all(u8::is_ascii_hexdigit)
        && after.starts_with(b"/out")
}

/// A service binary running as a child process, its output kept for the failure message.
pub struct ServiceProcess {
    name: String,
    child: Child,
    output: Arc<Mutex<Vec<u8>>>,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
}

impl ServiceProcess {
    /// Starts `binary serve` on a free port with `env` (names with the service's prefix).
    pub fn start(binary: &str, env_prefix: &str, env: &[(String, String)]) -> Self {
        let port = closed_port();
        let mut command = Command::new(binary);
        command
            .arg("serve")
            .env(format!("{env_prefix}__HTTP__PORT"), port.to_string())
            .env(format!("{env_prefix}__HTTP__HOST"), "127.0.0.1")
            .env(format!("{env_prefix}__TELEMETRY__FORMAT"), "pretty")
            // A start-up error's message, not a backtrace, is the end of the log a failing test
            // shows (panics keep theirs).
            .env("RUST_LIB_BACKTRACE", "0")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().expect("start the service binary");
        let output = Arc::new(Mutex::new(Vec::new()));
        for stream in [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn AsyncRead + Unpin + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn AsyncRead + Unpin + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let output = output.clone();
            tokio::spawn(async move {
                let mut stream = stream;
                let mut buf = [0u8; 8192];
                while let Ok(n) = stream.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    let mut out = lock(&output);
                    out.extend_from_slice(&buf[..n]);
                    // Keep the last 64 KiB: enough for the end of the log.
                    let excess = out.len().saturating_sub(64 * 1024);
                    out.drain(..excess);
                }
            });
        }
        Self {
            name: binary.rsplit('/').next().unwrap_or(binary).to_owned(),
            child,
            output,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// The end of what the process wrote.
    pub fn log_tail(&self) -> String {
        let out = lock(&self.output);
        let text = String::from_utf8_lossy(&out);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    /// How often `needle` occurs in what the process wrote (its last 64 KiB).
    pub fn log_count(&self, needle: &str) -> usize {
        String::from_utf8_lossy(&lock(&self.output))
            .matches(needle)
            .count()
    }

    /// Panics with the log's end when the process has exited.
    pub fn assert_running(&mut self, when: &str) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!(
                "{} exited {when}: {status:?}\n--- its log ---\n{}",
                self.name,
                self.log_tail()
            );
        }
    }

    /// Waits (at most `within`) until `GET <path>` answers `200`, checking that the process
    /// lives meanwhile.
    pub async fn wait_ready(&mut self, path: &str, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            self.assert_running("before it was ready");
            if http_status(&self.base, path).await == Some(200) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{} not ready within {within:?}\n{}",
                self.name,
                self.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Sends `signal` (`TERM`, `KILL`, …) to the process, which must not have been waited for.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().expect("a process not waited for has a pid");
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -{signal} {pid}");
    }

    /// Waits (at most `within`) for the process to exit; panics with its log when it does not.
    pub async fn exited(&mut self, within: Duration) -> ExitStatus {
        tokio::time::timeout(within, self.child.wait())
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "{} did not exit within {within:?}\n{}",
                    self.name,
                    self.log_tail()
                )
            })
            .expect("wait for the child")
    }

    /// Kills the process (SIGKILL: no shutdown of its own) and waits for it to be gone.
    pub async fn kill(mut self) {
        self.assert_running("before SIGKILL");
        self.signal("KILL");
        self.exited(Duration::from_secs(10)).await;
    }

    /// Sends SIGTERM and expects a clean exit (status 0) within `within`.
    pub async fn terminate(mut self, within: Duration) {
        self.assert_running("before SIGTERM");
        self.signal("TERM");
        let status = self.exited(within).await;
        assert!(
            status.success(),
            "{} exited with {status:?} after SIGTERM\n--- its log ---\n{}",
            self.name,
            self.log_tail()
        );
    }
}

/// The status of `GET <base><path>` over a plain HTTP/1.1 connection, `None` when unreachable.
pub async fn http_status(base: &str, path: &str) -> Option<u16> {
    let authority = base.strip_prefix("http://")?;
    let mut stream = tokio::time::timeout(Duration::from_secs(2), TcpStream::connect(authority))
        .await
        .ok()?
        .ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    tokio::io::AsyncWriteExt::write_all(&mut stream, request.as_bytes())
        .await
        .ok()?;
    let mut head = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut head)).await;
    let text = String::from_utf8_lossy(&head);
    text.split_whitespace().nth(1)?.parse().ok()
}
