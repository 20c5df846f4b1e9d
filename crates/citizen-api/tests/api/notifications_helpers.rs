//! Helpers of the notification suites: feed entries written straight into the store.

use chrono::{DateTime, Utc};
use citizen_api::app::notifications::Links;
use citizen_api::notify::worker::Worker;
use citizen_api::store::notifications::NewNotification;
use serde_json::Value;
use service_kit::clock::Clock;
use uuid::Uuid;

use crate::helpers::TestApp;

impl TestApp {
    /// Writes a feed entry for `subject` (sent at `sent_at`, written at the clock's now); its tag.
    pub async fn notify(
        &self,
        subject: &str,
        title: &str,
        sent_at: DateTime<Utc>,
        event: Option<Uuid>,
    ) -> Option<String> {
        let new = NewNotification {
            subject: subject.into(),
            event_id: event,
            title: title.into(),
            body: Some(format!("{title} body")),
            url: Some("https://example.org/reports/1".into()),
            icon: None,
            sent_at,
        };
        self.stores
            .notifications
            .add_notification(&new, self.clock.now())
            .await
            .unwrap()
            .map(|n| n.tag)
    }
}

impl TestApp {
    /// PUT /me/notifications/settings as `token`: (status, JSON body).
    pub async fn save_settings(
        &self,
        token: &str,
        enabled: bool,
        interval: impl serde::Serialize,
    ) -> (u16, Value) {
        let body = serde_json::json!({"enabled": enabled, "interval": interval});
        self.send_json(
            reqwest::Method::PUT,
            "/me/notifications/settings",
            token,
            &body,
        )
        .await
    }
}

/// The site the tests' workers link entries to.
pub const SITE: &str = "https://city.example";

/// Entries link to the pages under [`SITE`].
pub fn links() -> Links {
    Links::to_site(SITE)
}

/// The outbox worker in English over the app's stores, for tests that drive it.
pub fn worker(app: &TestApp) -> Worker {
    Worker::new(app.stores.clone(), i18n::Locale::En, links())
}

/// `subject`'s feed (GET /me/notifications), which must answer 200.
pub async fn feed(app: &TestApp, subject: &str) -> Value {
    let (status, body) = app
        .get_as("/me/notifications", Some(&app.token(subject, &[])))
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The `field` of each notification of a page.
pub fn fields(page: &Value, field: &str) -> Vec<String> {
    page["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n[field].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// A dev token (HS256 with the test secret) carrying `email` and `locale` claims when given.
pub fn token_with(subject: &str, email: Option<&str>, locale: Option<&str>) -> String {
    let now = chrono::Utc::now().timestamp();
    let mut claims = serde_json::json!({"sub": subject, "iat": now, "exp": now + 600});
    if let Some(email) = email {
        claims["email"] = email.into();
    }
    if let Some(locale) = locale {
        claims["locale"] = locale.into();
    }
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(crate::helpers::DEV_SECRET.as_bytes()),
    )
    .unwrap()
}

/// A browser's subscription keys: the private key and `{p256dh, auth}` in base64url.
pub fn browser_keys() -> (p256::SecretKey, Value) {
    use base64::Engine as _;
    let mut scalar = [0u8; 32];
    scalar[..16].copy_from_slice(&rand_bytes());
    scalar[16..].copy_from_slice(&rand_bytes());
    scalar[0] &= 0x7f; // below the group order
    let secret = p256::SecretKey::from_slice(&scalar).unwrap();
    let point =
        p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&secret.public_key(), false);
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let auth: [u8; 16] = rand_bytes();
    let keys =
        serde_json::json!({"p256dh": b64.encode(point.as_bytes()), "auth": b64.encode(auth)});
    (secret, keys)
}

fn rand_bytes() -> [u8; 16] {
    *Uuid::new_v4().as_bytes()
}
