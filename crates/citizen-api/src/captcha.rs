//! CAPTCHA verification of anonymous filings against a reCAPTCHA-v3-compatible `siteverify`
//! endpoint.
//!
//! The token is POSTed as a form (`secret`, `response`, `remoteip`) and the answer
//! `{success, score, action, hostname, "error-codes"}` is checked: `success` must be true,
//! `score` at least `min_score` when the answer has a score (reCAPTCHA v2, hCaptcha and
//! Turnstile answer without one: then `success` alone decides, as those services pass or fail a
//! challenge rather than score it), and `action`/`hostname` equal to the configured ones when
//! set. Every failure is 403 `CAPTCHA_VERIFICATION_FAILED` with a message key of its own; the
//! real cause (the verifier's error codes, the score, a transport error) goes to the log at
//! warn, never to the client.

use std::net::IpAddr;
use std::time::Duration;

use domain::error_code::ErrorCode;
use domain::i18n::Message;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use service_kit::ApiError;

/// Google's reCAPTCHA `siteverify`.
pub const DEFAULT_VERIFY_URL: &str = "https://www.google.com/recaptcha/api/siteverify";

/// Largest verifier answer read (a real one is a few hundred bytes).
const MAX_ANSWER_BYTES: usize = 64 << 10;

/// `captcha.*`: verification of anonymous filings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptchaSettings {
    /// Verify `captchaToken` of anonymous filings. `false` only for local use (the embedded
    /// default); the Helm chart always turns it on. A warning is logged at start while off.
    #[serde(default = "default_enabled")]
    pub enabled: bool,
    /// reCAPTCHA-v3-compatible `siteverify` endpoint.
    #[serde(default = "default_verify_url")]
    pub verify_url: String,
    /// The site's secret, sent to the verifier; from the environment only
    /// (`CITIZEN_API__CAPTCHA__SECRET`). Required when `enabled`.
    #[serde(default)]
    pub secret: Option<SecretString>,
    /// Lowest accepted score (0.0 to 1.0) of a v3 answer; answers without a score are judged
    /// by `success` alone.
    #[serde(default = "default_min_score")]
    pub min_score: f64,
    /// How long to wait for the verifier; a slower or unreachable verifier fails the check.
    #[serde(default = "default_timeout_millis")]
    pub timeout_millis: u64,
    /// When set, the answer's `action` must equal it (the action the front end executes).
    #[serde(default)]
    pub expected_action: Option<String>,
    /// When set, the answer's `hostname` must equal it (the site the token was made on).
    #[serde(default)]
    pub expected_hostname: Option<String>,
}

const fn default_enabled() -> bool {
    true
}

fn default_verify_url() -> String {
    DEFAULT_VERIFY_URL.to_owned()
}

const fn default_min_score() -> f64 {
    0.5
}

const fn default_timeout_millis() -> u64 {
    3000
}

impl Default for CaptchaSettings {
    fn default() -> Self {
        Self {
            enabled: default_enabled(),
            verify_url: default_verify_url(),
            secret: None,
            min_score: default_min_score(),
            timeout_millis: default_timeout_millis(),
            expected_action: None,
            expected_hostname: None,
        }
    }
}

/// The verifier's answer (fields we read; others are ignored).
#[derive(Debug, Deserialize)]
struct Answer {
    success: bool,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    hostname: Option<String>,
    #[serde(default, rename = "error-codes")]
    error_codes: Vec<String>,
}

/// Checks CAPTCHA tokens; cheap to clone and shared by every worker.
#[derive(Debug, Clone)]
pub struct CaptchaVerifier {
    settings: CaptchaSettings,
    client: reqwest::Client,
}

/// 403 `CAPTCHA_VERIFICATION_FAILED` with `message`; logs `cause` at warn.
fn failed(message: Message, cause: &str) -> ApiError {
    tracing::warn!(reason = message.key, cause, "CAPTCHA verification failed");
    ApiError::new(ErrorCode::CaptchaVerificationFailed, message)
}

/// A request to the verifier that failed: timed out, or could not connect or read.
fn transport_failed(err: reqwest::Error) -> ApiError {
    let cause = format!("{err:#}");
    if err.is_timeout() {
        failed(Message::new("captcha-timeout"), &cause)
    } else {
        failed(Message::new("captcha-unavailable"), &cause)
    }
}

impl CaptchaVerifier {
    /// A verifier for `settings`; refuses a configuration that could never pass (enabled
    /// without a secret, a score outside 0..=1, no timeout, a verify URL that is not http(s)).
    pub fn new(settings: &CaptchaSettings) -> anyhow::Result<Self> {
        if settings.enabled {
            if settings.secret.is_none() {
                anyhow::bail!("captcha.secret is required while captcha.enabled is true");
            }
            let url = &settings.verify_url;
            if !(url.starts_with("https://") || url.starts_with("http://")) {
                anyhow::bail!("captcha.verify_url must be an http(s) URL, got {url:?}");
            }
        }
        if !(0.0..=1.0).contains(&settings.min_score) {
            anyhow::bail!(
                "captcha.min_score must be between 0 and 1, got {}",
                settings.min_score
            );
        }
        if settings.timeout_millis == 0 {
            anyhow::bail!("captcha.timeout_millis must be at least 1");
        }
        let timeout = Duration::from_millis(settings.timeout_millis);
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()?;
        Ok(Self {
            settings: settings.clone(),
            client,
        })
    }

    /// Whether tokens are checked at all.
    pub fn enabled(&self) -> bool {
        self.settings.enabled
    }

    /// Logs once, at start, that anonymous filings go unchecked.
    pub fn warn_if_disabled(&self) {
        if !self.settings.enabled {
            tracing::warn!(
                "captcha.enabled is false: anonymous reports are accepted without a CAPTCHA \
                 check (local use only)"
            );
        }
    }

    /// Checks `token` (the form's `captchaToken`) for a filing from `remote_ip`; `Ok` when
    /// verification is off.
    pub async fn verify(
        &self,
        token: Option<&str>,
        remote_ip: Option<IpAddr>,
    ) -> Result<(), ApiError> {
        if !self.settings.enabled {
            return Ok(());
        }
        let Some(token) = token.map(str::trim).filter(|t| !t.is_empty()) else {
            return Err(failed(
                Message::new("captcha-missing"),
                "no captchaToken in the form",
            ));
        };
        let answer = self.ask(token, remote_ip).await?;
        if !answer.success {
            let codes = answer.error_codes.join(",");
            return Err(failed(
                Message::new("captcha-rejected"),
                &format!("error-codes: [{codes}]"),
            ));
        }
        if let Some(score) = answer.score {
            if score < self.settings.min_score {
                let cause = format!("score {score} below {}", self.settings.min_score);
                return Err(failed(Message::new("captcha-low-score"), &cause));
            }
        }
        if let Some(expected) = &self.settings.expected_action {
            if answer.action.as_deref() != Some(expected.as_str()) {
                let cause = format!("action {:?}, expected {expected:?}", answer.action);
                return Err(failed(Message::new("captcha-wrong-action"), &cause));
            }
        }
        if let Some(expected) = &self.settings.expected_hostname {
            if answer.hostname.as_deref() != Some(expected.as_str()) {
                let cause = format!("hostname {:?}, expected {expected:?}", answer.hostname);
                return Err(failed(Message::new("captcha-wrong-hostname"), &cause));
            }
        }
        Ok(())
    }

    /// POSTs the token and reads the answer.
    async fn ask(&self, token: &str, remote_ip: Option<IpAddr>) -> Result<Answer, ApiError> {
        let secret = self
            .settings
            .secret
            .as_ref()
            .map(|s| s.expose_secret().to_owned())
            .unwrap_or_default();
        let mut form = vec![("secret", secret), ("response", token.to_owned())];
        if let Some(ip) = remote_ip {
            form.push(("remoteip", ip.to_string()));
        }
        let response = self
            .client
            .post(&self.settings.verify_url)
            .form(&form)
            .send()
            .await
            .map_err(transport_failed)?;
        let status = response.status();
        if !status.is_success() {
            return Err(failed(
                Message::new("captcha-unavailable"),
                &format!("verifier answered {status}"),
            ));
        }
        if response
            .content_length()
            .is_some_and(|n| n > MAX_ANSWER_BYTES as u64)
        {
            return Err(failed(
                Message::new("captcha-malformed-answer"),
                "answer too large",
            ));
        }
        let bytes = response.bytes().await.map_err(transport_failed)?;
        if bytes.len() > MAX_ANSWER_BYTES {
            return Err(failed(
                Message::new("captcha-malformed-answer"),
                "answer too large",
            ));
        }
        serde_json::from_slice(&bytes)
            .map_err(|err| failed(Message::new("captcha-malformed-answer"), &format!("{err}")))
    }
}
