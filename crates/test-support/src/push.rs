//! A local stand-in push service for the web push tests: down (nothing listens), or answering
//! each endpoint as the test sets (a status, late, or never), keeping every request it received
//! with its answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::TcpStream;

use crate::lock;
use crate::port::TestServer;

/// How the push receiver answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushMode {
    Answer(u16),
    /// The answer after a delay.
    Slow(Duration, u16),
    /// The request is read and never answered.
    Silent,
}

/// One push request: the endpoint's name, its `Topic`, the status answered (`None`: never),
/// when, and when the client closed a request that was never answered.
#[derive(Debug, Clone)]
pub struct PushRequest {
    pub name: String,
    pub topic: String,
    pub status: Option<u16>,
    pub at: Instant,
    pub ended: Option<Instant>,
}

/// How the push receiver answers, and what it received.
pub struct PushState {
    mode: PushMode,
    by_endpoint: HashMap<String, PushMode>,
    requests: Vec<PushRequest>,
}

/// A local stand-in push service at `http://127.0.0.1:<port>/push/<name>`: down (nothing
/// listens), or answering each endpoint as the test sets (a status, late, or never).
pub type PushReceiver = TestServer<PushState>;

impl PushReceiver {
    /// Listening, answering 201.
    pub async fn start() -> Self {
        let state = PushState {
            mode: PushMode::Answer(201),
            by_endpoint: HashMap::new(),
            requests: Vec::new(),
        };
        TestServer::listen(state, exchange).await
    }

    pub fn endpoint(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/push/{name}", self.port())
    }

    /// How every endpoint without a mode of its own is answered.
    pub fn set_mode(&self, mode: PushMode) {
        self.state().mode = mode;
    }

    pub fn answer_endpoint(&self, name: &str, mode: PushMode) {
        self.state().by_endpoint.insert(name.to_owned(), mode);
    }

    pub fn requests(&self) -> Vec<PushRequest> {
        self.state().requests.clone()
    }

    pub fn requests_to(&self, name: &str) -> Vec<PushRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.name == name)
            .collect()
    }

    /// The topics of the requests to `name` answered 2xx.
    pub fn delivered_to(&self, name: &str) -> Vec<String> {
        self.requests_to(name)
            .into_iter()
            .filter(|r| r.status.is_some_and(|s| (200..300).contains(&s)))
            .map(|r| r.topic)
            .collect()
    }
}

/// Serves the HTTP/1.1 requests of one connection.
async fn exchange(state: Arc<Mutex<PushState>>, stream: TcpStream) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
        let (mut length, mut topic) = (0usize, String::new());
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).await? == 0 {
                return Ok(());
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                } else if name.eq_ignore_ascii_case("topic") {
                    topic = value.trim().to_owned();
                }
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).await?;
        let name = path.rsplit('/').next().unwrap_or("").to_owned();
        let mode = {
            let s = lock(&state);
            s.by_endpoint.get(&name).copied().unwrap_or(s.mode)
        };
        let status = match mode {
            PushMode::Answer(status) => status,
            PushMode::Slow(delay, status) => {
                tokio::time::sleep(delay).await;
                status
            }
            PushMode::Silent => {
                let index = {
                    let mut s = lock(&state);
                    s.requests.push(PushRequest {
                        name,
                        topic,
                        status: None,
                        at: Instant::now(),
                        ended: None,
                    });
                    s.requests.len() - 1
                };
                // Never answered: wait for the client to give up.
                let mut rest = Vec::new();
                let _ = reader.read_to_end(&mut rest).await;
                lock(&state).requests[index].ended = Some(Instant::now());
                return Ok(());
            }
        };
        lock(&state).requests.push(PushRequest {
            name,
            topic,
            status: Some(status),
            at: Instant::now(),
            ended: None,
        });
        write
            .write_all(
                format!("HTTP/1.1 {status} Answered\r\nContent-Length: 0\r\n\r\n").as_bytes(),
            )
            .await?;
    }
}
