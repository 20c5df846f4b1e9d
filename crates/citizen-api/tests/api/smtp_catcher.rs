//! A local SMTP server for the e-mail tests: speaks just enough SMTP (220, EHLO/HELO, MAIL,
//! RCPT, DATA, RSET, NOOP, QUIT) and keeps every message it accepts.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::TcpListener;

#[derive(Clone)]
pub struct SmtpCatcher {
    pub port: u16,
    messages: Arc<Mutex<Vec<String>>>,
    /// The answer to the end of DATA (250 accepts; 451 asks to retry; 550 refuses).
    data_reply: Arc<Mutex<u16>>,
}

impl SmtpCatcher {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let catcher = Self {
            port: listener.local_addr().unwrap().port(),
            messages: Arc::default(),
            data_reply: Arc::new(Mutex::new(250)),
        };
        let shared = catcher.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let shared = shared.clone();
                tokio::spawn(async move {
                    let _ = shared.session(stream).await;
                });
            }
        });
        catcher
    }

    /// `smtp://127.0.0.1:<port>` (plain SMTP: a local catcher).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn answer_data_with(&self, code: u16) {
        *self.data_reply.lock().unwrap() = code;
    }

    /// The accepted messages (headers and body as sent, dot-stuffing undone).
    pub fn messages(&self) -> Vec<String> {
        self.messages.lock().unwrap().clone()
    }

    async fn session(&self, stream: tokio::net::TcpStream) -> std::io::Result<()> {
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 catcher ESMTP\r\n").await?;
        while let Some(line) = lines.next_line().await? {
            let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
            match verb.as_str() {
                "EHLO" | "HELO" => write.write_all(b"250 catcher\r\n").await?,
                "MAIL" | "RCPT" | "RSET" | "NOOP" => write.write_all(b"250 OK\r\n").await?,
                "DATA" => {
                    write.write_all(b"354 go ahead\r\n").await?;
                    let mut message = String::new();
                    while let Some(line) = lines.next_line().await? {
                        if line == "." {
                            break;
                        }
                        let line = line.strip_prefix('.').unwrap_or(&line);
                        message.push_str(line);
                        message.push_str("\r\n");
                    }
                    let code = *self.data_reply.lock().unwrap();
                    if code == 250 {
                        self.messages.lock().unwrap().push(message);
                    }
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
}

/// A header of a captured message (unfolded), if present.
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
