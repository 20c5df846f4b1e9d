//! `mqtts://` with a private CA, a user and a password: a Mosquitto started by the test (a child
//! process on a free port, with a CA and server certificate made by `openssl` for the test).
//! Skipped, and recorded like every other skip, when `mosquitto`, `mosquitto_passwd` or `openssl`
//! is not installed (a failure under `REQUIRE_MQTT=1`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use paho_mqtt::{AsyncClient, ConnectOptionsBuilder, SslOptionsBuilder};
use platform_messages::notify::{topic, Notice};
use platform_messages::Application;
use secrecy::SecretString;
use serde_json::json;
use service_kit::startup::ServiceApp;
use std::sync::Arc;
use test_support::{Backend, TestDatabase};

use crate::helpers::*;

const USER: &str = "platform-messages";
const PASSWORD: &str = "tls-test-password";

/// A Mosquitto with a TLS listener only, killed when dropped.
struct TlsMosquitto {
    port: u16,
    ca: PathBuf,
    child: Child,
    /// A test database's temporary folder holds the certificates and the configuration.
    _dir: Arc<TestDatabase>,
}

impl Drop for TlsMosquitto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Records the skip in `target/test-skips.txt` (as test_support does), or fails when MQTT tests
/// are required.
fn skip(reason: &str) {
    let required = std::env::var("REQUIRE_MQTT").is_ok_and(|v| v == "1" || v == "true");
    assert!(
        !required,
        "MQTT over TLS is required (REQUIRE_MQTT=1): {reason}"
    );
    let test = std::thread::current().name().unwrap_or("tls").to_owned();
    eprintln!("SKIPPED {test}: MQTT over TLS unavailable: {reason}");
    let path = test_support::skip_file();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let line = format!("{test}: MQTT over TLS unavailable ({reason})\n");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        use std::io::Write as _;
        let _ = f.write_all(line.as_bytes());
    }
}

fn run(dir: &Path, program: &str, args: &[&str]) {
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{program} {args:?} failed");
}

impl TlsMosquitto {
    async fn start() -> Option<Self> {
        for tool in ["mosquitto", "mosquitto_passwd", "openssl"] {
            let found = Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !found {
                skip(&format!("`{tool}` is not installed"));
                return None;
            }
        }
        let dir = fresh_database(Backend::Sqlite).await.unwrap();
        let d = dir.dir.path();
        let ssl = |args: &str| run(d, "openssl", &args.split(' ').collect::<Vec<_>>());
        ssl("req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=test-ca -keyout ca.key -out ca.pem");
        ssl("req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server.key -out server.csr");
        std::fs::write(d.join("ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n").unwrap();
        ssl("x509 -req -days 1 -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -extfile ext -out server.pem");
        run(
            d,
            "mosquitto_passwd",
            &["-b", "-c", "passwd", USER, PASSWORD],
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let conf = format!(
            "listener {port} 127.0.0.1\ncafile {0}/ca.pem\ncertfile {0}/server.pem\n\
             keyfile {0}/server.key\nallow_anonymous false\npassword_file {0}/passwd\n\
             persistence false\n",
            d.display()
        );
        std::fs::write(d.join("mosquitto.conf"), conf).unwrap();
        // Mosquitto started as root drops to the `mosquitto` user: let it read the files.
        run(d, "chmod", &["-R", "a+rX", "."]);
        run(d, "chmod", &["a+rx", &d.display().to_string()]);
        let child = Command::new("mosquitto")
            .args(["-c", "mosquitto.conf"])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let broker = Self {
            port,
            ca: d.join("ca.pem"),
            child,
            _dir: dir,
        };
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return Some(broker);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the TLS Mosquitto did not start on {port}");
    }

    /// A subscriber over TLS, trusting the test CA.
    async fn subscribe(
        &self,
        client_id: &str,
    ) -> (
        AsyncClient,
        paho_mqtt::AsyncReceiver<Option<paho_mqtt::Message>>,
    ) {
        let mut client =
            test_support::mqtt::client(&format!("ssl://127.0.0.1:{}", self.port), "tls-sub");
        let ssl = SslOptionsBuilder::new()
            .trust_store(&self.ca)
            .unwrap()
            .finalize();
        let options = ConnectOptionsBuilder::with_mqtt_version(paho_mqtt::MQTT_VERSION_3_1_1)
            .ssl_options(ssl)
            .user_name(USER)
            .password(PASSWORD)
            .finalize();
        let rx = client.get_stream(None);
        tokio::time::timeout(WAIT, client.connect(options))
            .await
            .unwrap()
            .unwrap();
        tokio::time::timeout(WAIT, client.subscribe(topic(client_id), 1))
            .await
            .unwrap()
            .unwrap();
        (client, rx)
    }
}

/// The service with `mqtt.url = mqtts://…`, the CA file and the credentials.
async fn service(
    broker: &TlsMosquitto,
    password: &str,
) -> (Application, platform_messages::Settings, Arc<TestDatabase>) {
    let db = fresh_database(Backend::Sqlite).await.unwrap();
    let mut s = settings(&db, &Broker::None);
    s.mqtt.url = format!("mqtts://127.0.0.1:{}", broker.port);
    s.mqtt.ca_file = Some(broker.ca.clone());
    s.mqtt.username = Some(USER.into());
    s.mqtt.password = Some(SecretString::from(password.to_owned()));
    (Application::build(&s).await.unwrap(), s, db)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notices_over_mqtts_with_a_private_ca_and_credentials() {
    let Some(broker) = TlsMosquitto::start().await else {
        return;
    };
    let (app, s, _db) = service(&broker, PASSWORD).await;
    let notifier = app.notifier();
    let base = format!("http://127.0.0.1:{}{}", app.port(), s.http.base_path);
    tokio::spawn(app.run_until(std::future::pending()));
    tokio::time::timeout(WAIT, notifier.wait_connected())
        .await
        .expect("connected over TLS");

    let client = unique_client();
    let (_sub, rx) = broker.subscribe(&client).await;
    let token = service_kit::auth::mint_dev_token(
        &s.auth,
        &service_kit::auth::DevTokenRequest {
            subject: "operator".into(),
            scopes: vec![MANAGE.into()],
            roles: vec![],
            client_id: None,
            email: None,
            locale: None,
            ttl: Duration::from_secs(600),
        },
    )
    .unwrap();
    let http = reqwest::Client::new();
    let created = http
        .post(format!("{base}/clients/{client}/messages"))
        .bearer_auth(token)
        .json(&json!({"text": "over TLS"}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let rest =
        test_support::http::get_json(&http, &format!("{base}/public/clients/{client}/messages"))
            .await;
    let message = tokio::time::timeout(WAIT, rx.recv())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let notice: Notice = serde_json::from_slice(message.payload()).unwrap();
    assert_eq!(notice.version, rest["version"].as_str().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_leaves_the_service_up_but_not_connected() {
    let Some(broker) = TlsMosquitto::start().await else {
        return;
    };
    let (app, _, _db) = service(&broker, "wrong").await;
    let notifier = app.notifier();
    tokio::spawn(app.run_until(std::future::pending()));
    let connected = tokio::time::timeout(Duration::from_secs(2), notifier.wait_connected()).await;
    assert!(connected.is_err(), "the broker refuses a wrong password");
    assert!(!notifier.is_connected());
}
