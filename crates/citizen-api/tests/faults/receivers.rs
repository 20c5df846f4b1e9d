//! A mail server and a push receiver of the test's own, on ports of 127.0.0.1 that the test opens
//! and closes, switched between refusing, failing, slow and never answering (`deliveries.rs`,
//! `replicas.rs`).

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::JoinHandle;

// ---------------------------------------------------------------------------------------------
// A port the test opens and closes
// ---------------------------------------------------------------------------------------------

/// A port of 127.0.0.1 on which a server of the test listens, or nothing does (connections
/// refused), as the test switches it.
struct Port {
    port: u16,
    accepting: Mutex<Option<JoinHandle<()>>>,
}

impl Port {
    pub fn new() -> Self {
        Self {
            port: test_support::process::closed_port(),
            accepting: Mutex::new(None),
        }
    }

    /// Listens again (if it does not), each connection served by `serve` on a task of its own.
    pub async fn open<S, F>(&self, serve: S)
    where
        S: Fn(TcpStream) -> F + Send + Sync + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        if lock(&self.accepting).is_some() {
            return;
        }
        let listener = self.bind().await;
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream));
            }
        });
        *lock(&self.accepting) = Some(task);
    }

    /// Stops listening (connections already accepted go on).
    pub async fn close(&self) {
        let task = lock(&self.accepting).take();
        if let Some(task) = task {
            task.abort();
            let _ = task.await;
        }
    }

    pub async fn bind(&self) -> TcpListener {
        let address = SocketAddr::from(([127, 0, 0, 1], self.port));
        for _ in 0..100 {
            let socket = TcpSocket::new_v4().expect("a socket");
            socket.set_reuseaddr(true).expect("SO_REUSEADDR");
            if socket.bind(address).is_ok() {
                return socket.listen(1024).expect("listen");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("port {} could not be bound again", self.port);
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

// ---------------------------------------------------------------------------------------------
// The mail server
// ---------------------------------------------------------------------------------------------

/// One message the mail server received: the answer it gave to the end of its DATA (`None`:
/// none, never), when, and when the client closed a session that was never answered.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub message_id: String,
    pub subject: String,
    pub code: Option<u16>,
    pub at: Instant,
    pub ended: Option<Instant>,
}

#[derive(Default)]
struct SmtpState {
    /// The answer to the end of DATA: 250 accepts; 451 asks to try again later.
    data_code: u16,
    greeting_delay: Duration,
    /// Recipients refused for good at RCPT (550).
    refused: BTreeSet<String>,
    /// Recipients whose message is taken and never answered.
    silent: BTreeSet<String>,
    refusals: Vec<String>,
    mails: Vec<Mail>,
    sessions: usize,
    open_sessions: usize,
}

/// A local SMTP server whose behaviour the test sets: down (nothing listens), slow (a late
/// greeting), answering the end of DATA with 250 or 451, refusing a recipient (550), or never
/// answering a recipient's message. It keeps what it received with its answer.
#[derive(Clone)]
pub struct SmtpServer {
    port: Arc<Port>,
    state: Arc<Mutex<SmtpState>>,
}

impl SmtpServer {
    /// Listening, accepting every message.
    pub async fn start() -> Self {
        let server = Self {
            port: Arc::new(Port::new()),
            state: Arc::new(Mutex::new(SmtpState {
                data_code: 250,
                ..SmtpState::default()
            })),
        };
        server.open().await;
        server
    }

    /// `smtp://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port.port)
    }

    pub async fn open(&self) {
        let state = self.state.clone();
        self.port
            .open(move |stream| {
                let state = state.clone();
                async move {
                    let _ = session(state, stream).await;
                }
            })
            .await;
    }

    /// Nothing listens: connections are refused.
    pub async fn close(&self) {
        self.port.close().await;
    }

    pub fn answer_data_with(&self, code: u16) {
        lock(&self.state).data_code = code;
    }

    pub fn set_greeting_delay(&self, delay: Duration) {
        lock(&self.state).greeting_delay = delay;
    }

    pub fn refuse_recipient(&self, address: &str) {
        lock(&self.state).refused.insert(address.to_owned());
    }

    pub fn never_answer(&self, address: &str) {
        lock(&self.state).silent.insert(address.to_owned());
    }

    /// Every message received, in order.
    pub fn mails(&self) -> Vec<Mail> {
        lock(&self.state).mails.clone()
    }

    pub fn mails_to(&self, address: &str) -> Vec<Mail> {
        self.mails()
            .into_iter()
            .filter(|m| m.to == address)
            .collect()
    }

    /// The `Message-ID`s of the messages to `address` the server accepted (250), in order.
    pub fn accepted_to(&self, address: &str) -> Vec<String> {
        self.mails_to(address)
            .into_iter()
            .filter(|m| m.code == Some(250))
            .map(|m| m.message_id)
            .collect()
    }

    /// How many messages the server accepted (250).
    pub fn accepted_count(&self) -> usize {
        lock(&self.state)
            .mails
            .iter()
            .filter(|m| m.code == Some(250))
            .count()
    }

    pub fn recipients_refused(&self, address: &str) -> usize {
        lock(&self.state)
            .refusals
            .iter()
            .filter(|a| *a == address)
            .count()
    }

    /// Sessions open right now (a client connected and not gone).
    pub fn open_sessions(&self) -> usize {
        lock(&self.state).open_sessions
    }

    /// Sessions ever opened.
    pub fn sessions(&self) -> usize {
        lock(&self.state).sessions
    }
}

/// Counts an open session while it lives.
struct OpenSession(Arc<Mutex<SmtpState>>);

impl Drop for OpenSession {
    fn drop(&mut self) {
        lock(&self.0).open_sessions -= 1;
    }
}

/// One SMTP session: 220, EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT.
async fn session(state: Arc<Mutex<SmtpState>>, stream: TcpStream) -> std::io::Result<()> {
    let delay = {
        let mut s = lock(&state);
        s.sessions += 1;
        s.open_sessions += 1;
        s.greeting_delay
    };
    let _open = OpenSession(state.clone());
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    tokio::time::sleep(delay).await;
    write.write_all(b"220 fault-suite ESMTP\r\n").await?;
    let mut to = String::new();
    while let Some(line) = lines.next_line().await? {
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => write.write_all(b"250 fault-suite\r\n").await?,
            "RCPT" => {
                let address = line
                    .split_once('<')
                    .and_then(|(_, rest)| rest.split_once('>'))
                    .map(|(address, _)| address.to_owned())
                    .unwrap_or_default();
                let refused = {
                    let mut s = lock(&state);
                    let refused = s.refused.contains(&address);
                    if refused {
                        s.refusals.push(address.clone());
                    }
                    refused
                };
                if refused {
                    write.write_all(b"550 no such mailbox\r\n").await?;
                } else {
                    to = address;
                    write.write_all(b"250 OK\r\n").await?;
                }
            }
            "MAIL" | "RSET" | "NOOP" => write.write_all(b"250 OK\r\n").await?,
            "DATA" => {
                write.write_all(b"354 go ahead\r\n").await?;
                let mut message = String::new();
                while let Some(line) = lines.next_line().await? {
                    if line == "." {
                        break;
                    }
                    message.push_str(line.strip_prefix('.').unwrap_or(&line));
                    message.push_str("\r\n");
                }
                let (code, index) = {
                    let mut s = lock(&state);
                    let code = (!s.silent.contains(&to)).then_some(s.data_code);
                    s.mails.push(Mail {
                        to: to.clone(),
                        message_id: header(&message, "Message-ID").unwrap_or_default(),
                        subject: header(&message, "Subject").unwrap_or_default(),
                        code,
                        at: Instant::now(),
                        ended: None,
                    });
                    (code, s.mails.len() - 1)
                };
                let Some(code) = code else {
                    // Never answered: wait for the client to give up.
                    while lines.next_line().await.ok().flatten().is_some() {}
                    lock(&state).mails[index].ended = Some(Instant::now());
                    return Ok(());
                };
                write
                    .write_all(format!("{code} noted\r\n").as_bytes())
                    .await?;
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            }
            _ => write.write_all(b"502 not implemented\r\n").await?,
        }
    }
    Ok(())
}

/// A header of a message (unfolded), if present.
fn header(message: &str, name: &str) -> Option<String> {
    let head = message.split("\r\n\r\n").next()?;
    let mut unfolded: Vec<String> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with(' ') || line.starts_with('\t') {
            if let Some(last) = unfolded.last_mut() {
                last.push_str(line);
            }
        } else {
            unfolded.push(line.to_owned());
        }
    }
    unfolded.iter().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name)
            .then(|| value.trim().to_owned())
    })
}

// ---------------------------------------------------------------------------------------------
// The push receiver
// ---------------------------------------------------------------------------------------------

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

struct PushState {
    mode: PushMode,
    by_endpoint: HashMap<String, PushMode>,
    requests: Vec<PushRequest>,
}

/// A local stand-in push service at `http://127.0.0.1:<port>/push/<name>`: down (nothing
/// listens), or answering each endpoint as the test sets (a status, late, or never).
#[derive(Clone)]
pub struct PushReceiver {
    port: Arc<Port>,
    state: Arc<Mutex<PushState>>,
}

impl PushReceiver {
    /// Listening, answering 201.
    pub async fn start() -> Self {
        let receiver = Self {
            port: Arc::new(Port::new()),
            state: Arc::new(Mutex::new(PushState {
                mode: PushMode::Answer(201),
                by_endpoint: HashMap::new(),
                requests: Vec::new(),
            })),
        };
        receiver.open().await;
        receiver
    }

    pub fn endpoint(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/push/{name}", self.port.port)
    }

    pub async fn open(&self) {
        let state = self.state.clone();
        self.port
            .open(move |stream| {
                let state = state.clone();
                async move {
                    let _ = exchange(state, stream).await;
                }
            })
            .await;
    }

    pub async fn close(&self) {
        self.port.close().await;
    }

    /// How every endpoint without a mode of its own is answered.
    pub fn set_mode(&self, mode: PushMode) {
        lock(&self.state).mode = mode;
    }

    pub fn answer_endpoint(&self, name: &str, mode: PushMode) {
        lock(&self.state).by_endpoint.insert(name.to_owned(), mode);
    }

    pub fn requests(&self) -> Vec<PushRequest> {
        lock(&self.state).requests.clone()
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
