//! A local SMTP server for the e-mail tests: speaks just enough SMTP (220, EHLO/HELO, MAIL,
//! RCPT, DATA, RSET, NOOP, QUIT) and keeps every message it receives with its answer. The test
//! sets its behaviour: down (nothing listens), slow (a late greeting), answering the end of DATA
//! with 250, 451 or 550, refusing a recipient (550), or never answering a recipient's message.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::TcpStream;

use crate::lock;
use crate::port::TestServer;

/// One message the mail server received: the answer it gave to the end of its DATA (`None`:
/// none, never), when, and when the client closed a session that was never answered.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    /// Headers and body as sent, dot-stuffing undone.
    pub message: String,
    pub message_id: String,
    pub subject: String,
    pub code: Option<u16>,
    pub at: Instant,
    pub ended: Option<Instant>,
}

/// What the mail server answers, and what it received.
#[derive(Default)]
pub struct SmtpState {
    /// The answer to the end of DATA: 250 accepts; 451 asks to try again later; 550 refuses.
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
/// greeting), answering the end of DATA with 250, 451 or 550, refusing a recipient (550), or
/// never answering a recipient's message. It keeps what it received with its answer.
pub type SmtpServer = TestServer<SmtpState>;

impl SmtpServer {
    /// Listening, accepting every message.
    pub async fn start() -> Self {
        let state = SmtpState {
            data_code: 250,
            ..SmtpState::default()
        };
        TestServer::listen(state, session).await
    }

    /// `smtp://127.0.0.1:<port>` (plain SMTP: a local server).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port())
    }

    pub fn answer_data_with(&self, code: u16) {
        self.state().data_code = code;
    }

    pub fn set_greeting_delay(&self, delay: Duration) {
        self.state().greeting_delay = delay;
    }

    pub fn refuse_recipient(&self, address: &str) {
        self.state().refused.insert(address.to_owned());
    }

    pub fn never_answer(&self, address: &str) {
        self.state().silent.insert(address.to_owned());
    }

    /// Every message received, in order.
    pub fn mails(&self) -> Vec<Mail> {
        self.state().mails.clone()
    }

    /// The messages the server accepted (250), in order: headers and body as sent,
    /// dot-stuffing undone.
    pub fn messages(&self) -> Vec<String> {
        self.mails()
            .into_iter()
            .filter(|m| m.code == Some(250))
            .map(|m| m.message)
            .collect()
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
        self.state()
            .mails
            .iter()
            .filter(|m| m.code == Some(250))
            .count()
    }

    pub fn recipients_refused(&self, address: &str) -> usize {
        self.state()
            .refusals
            .iter()
            .filter(|a| *a == address)
            .count()
    }

    /// Sessions open right now (a client connected and not gone).
    pub fn open_sessions(&self) -> usize {
        self.state().open_sessions
    }

    /// Sessions ever opened.
    pub fn sessions(&self) -> usize {
        self.state().sessions
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
    write.write_all(b"220 test-support ESMTP\r\n").await?;
    let mut to = String::new();
    while let Some(line) = lines.next_line().await? {
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => write.write_all(b"250 test-support\r\n").await?,
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
                        message,
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
pub fn header(message: &str, name: &str) -> Option<String> {
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

/// The plain-text and HTML bodies of a message, decoded from their transfer encoding as a mail
/// client would (mail-parser), so assertions read the text the recipient reads.
pub fn text_parts(message: &str) -> (Option<String>, Option<String>) {
    let Some(parsed) = mail_parser::MessageParser::default().parse(message.as_bytes()) else {
        return (None, None);
    };
    (
        parsed.body_text(0).map(|text| text.into_owned()),
        parsed.body_html(0).map(|html| html.into_owned()),
    )
}
