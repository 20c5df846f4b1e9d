//! `web.*`: what the page is told (its `<meta name="app:…">` elements) and which origins its
//! Content-Security-Policy allows.

use serde::Deserialize;

/// `web.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebSettings {
    /// Serve the web app at `/`.
    pub enabled: bool,
    /// The base URL of streets-api the browser calls (its origin is allowed by the CSP).
    pub streets_api_url: String,
    /// The base URL of platform-messages the browser calls (its origin is allowed by the CSP).
    pub platform_messages_url: String,
    /// The `ws://` or `wss://` URL of the MQTT broker's WebSocket listener the browser
    /// subscribes to for announcements (its origin is allowed by the CSP); empty: none, the
    /// page fetches the announcements on load only.
    pub mqtt_websocket_url: String,
    /// The web app's client id at platform-messages: the announcements it shows.
    pub client_id: String,
    /// The OpenID Connect issuer the page signs citizens in with (authorization code with
    /// PKCE; its origin is allowed by the CSP); empty: no OIDC sign-in.
    pub oidc_issuer: String,
    /// The page's client id at the OIDC issuer (required with `oidc_issuer`).
    pub oidc_client_id: String,
    /// The CAPTCHA site key the page's widget uses for anonymous filings (with
    /// `captcha.enabled`).
    pub captcha_site_key: String,
    /// The CAPTCHA widget's script (reCAPTCHA v3's API, or one of a compatible service), loaded
    /// with `?render=<site key>` by an anonymous citizen's filing form; with a site key only.
    pub captcha_script_url: String,
    /// Further origins the widget loads from or talks to (reCAPTCHA: `www.gstatic.com`): with a
    /// site key, the CSP allows the script's origin and these as script, frame and connect
    /// sources, and nothing of the CAPTCHA without one.
    pub captcha_origins: Vec<String>,
    /// `POST /dev/sign-in` mints dev tokens for the page when `auth.dev_secret` is set too:
    /// for the embedded default only, the Helm chart refuses it.
    pub dev_sign_in: bool,
}

impl Default for WebSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            streets_api_url: "http://localhost:8082/api/v1".into(),
            platform_messages_url: "http://localhost:8081/api/v1".into(),
            mqtt_websocket_url: String::new(),
            client_id: "citizen-web".into(),
            oidc_issuer: String::new(),
            oidc_client_id: String::new(),
            captcha_site_key: String::new(),
            captcha_script_url: "https://www.google.com/recaptcha/api.js".into(),
            captcha_origins: vec!["https://www.gstatic.com".into()],
            dev_sign_in: true,
        }
    }
}

/// Longest `web.captcha_site_key`.
const SITE_KEY_MAX: usize = 200;

impl WebSettings {
    pub fn validate(&self) -> Result<(), String> {
        for (key, value) in [
            ("web.streets_api_url", &self.streets_api_url),
            ("web.platform_messages_url", &self.platform_messages_url),
        ] {
            origin(value).map_err(|e| format!("{key}: {e}"))?;
        }
        if !self.mqtt_websocket_url.is_empty() {
            ws_origin(&self.mqtt_websocket_url)
                .map_err(|e| format!("web.mqtt_websocket_url: {e}"))?;
        }
        domain::messages::validate_client_id(&self.client_id).map_err(|_| {
            "web.client_id: 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit"
                .to_owned()
        })?;
        if !self.oidc_issuer.is_empty() {
            origin(&self.oidc_issuer).map_err(|e| format!("web.oidc_issuer: {e}"))?;
        }
        if self.oidc_issuer.is_empty() != self.oidc_client_id.trim().is_empty() {
            return Err(
                "web.oidc_issuer and web.oidc_client_id are set together or not at all".into(),
            );
        }
        if self.captcha_site_key.len() > SITE_KEY_MAX
            || self.captcha_site_key.chars().any(char::is_control)
        {
            return Err(format!(
                "web.captcha_site_key: at most {SITE_KEY_MAX} bytes, no control characters"
            ));
        }
        origin(&self.captcha_script_url).map_err(|e| format!("web.captcha_script_url: {e}"))?;
        for value in &self.captcha_origins {
            origin(value).map_err(|e| format!("web.captcha_origins: {value}: {e}"))?;
        }
        Ok(())
    }

    /// The origins the CAPTCHA widget needs (its script's and `captcha_origins`), each once;
    /// none without a site key.
    pub(crate) fn captcha_sources(&self) -> Result<Vec<String>, String> {
        if self.captcha_site_key.is_empty() {
            return Ok(Vec::new());
        }
        let mut origins = vec![origin(&self.captcha_script_url)?];
        for value in &self.captcha_origins {
            origins.push(origin(value)?);
        }
        let mut seen = std::collections::HashSet::new();
        origins.retain(|o| seen.insert(o.clone()));
        Ok(origins)
    }

    /// The origins the page's `connect-src` allows beside `'self'`: the other services', the
    /// broker's WebSocket and the OIDC issuer's, each once.
    pub(crate) fn connect_origins(&self) -> Result<Vec<String>, String> {
        let mut origins = vec![
            origin(&self.streets_api_url)?,
            origin(&self.platform_messages_url)?,
        ];
        if !self.mqtt_websocket_url.is_empty() {
            origins.push(ws_origin(&self.mqtt_websocket_url)?);
        }
        if !self.oidc_issuer.is_empty() {
            origins.push(origin(&self.oidc_issuer)?);
        }
        let mut seen = std::collections::HashSet::new();
        origins.retain(|o| seen.insert(o.clone()));
        Ok(origins)
    }
}

/// `scheme://host[:port]` of an http(s) URL.
pub(crate) fn origin(value: &str) -> Result<String, String> {
    origin_of(value, &["http", "https"])
}

/// `scheme://host[:port]` of a ws(s) URL.
fn ws_origin(value: &str) -> Result<String, String> {
    origin_of(value, &["ws", "wss"])
}

fn origin_of(value: &str, schemes: &[&str]) -> Result<String, String> {
    let url = url::Url::parse(value).map_err(|e| format!("not a URL ({e})"))?;
    if !schemes.contains(&url.scheme()) || url.host().is_none() {
        return Err(format!(
            "must be an {} URL with a host",
            schemes.join(" or ")
        ));
    }
    Ok(url.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::*;

    #[test]
    fn origins_are_of_their_schemes_only() {
        assert_eq!(
            origin("http://localhost:8082/api/v1").unwrap(),
            "http://localhost:8082"
        );
        assert!(origin("javascript:alert(1)").is_err());
        assert!(origin("nope").is_err());
        assert!(origin("ws://localhost:1885/mqtt").is_err());
        assert_eq!(
            ws_origin("wss://city.example/mqtt").unwrap(),
            "wss://city.example"
        );
        assert!(ws_origin("https://city.example/mqtt").is_err());
    }

    #[test]
    fn connect_src_names_each_origin_once() {
        let settings = WebSettings {
            oidc_issuer: "https://login.example/realms/city".into(),
            oidc_client_id: "citizen-web".into(),
            platform_messages_url: "http://localhost:8082/messages".into(),
            mqtt_websocket_url: "ws://localhost:1885/mqtt".into(),
            ..WebSettings::default()
        };
        assert_eq!(
            settings.connect_origins().unwrap(),
            [
                "http://localhost:8082",
                "ws://localhost:1885",
                "https://login.example"
            ]
        );
    }

    #[test]
    fn the_captcha_origins_count_with_a_site_key_only() {
        let off = WebSettings::default();
        assert!(off.captcha_sources().unwrap().is_empty());
        let google = WebSettings {
            captcha_site_key: "site-key".into(),
            ..off.clone()
        };
        assert_eq!(
            google.captcha_sources().unwrap(),
            ["https://www.google.com", "https://www.gstatic.com"]
        );
        let own = WebSettings {
            captcha_site_key: "site-key".into(),
            captcha_script_url: "http://127.0.0.1:9000/captcha.js".into(),
            captcha_origins: vec!["http://127.0.0.1:9000".into()],
            ..off
        };
        assert_eq!(own.captcha_sources().unwrap(), ["http://127.0.0.1:9000"]);
    }

    #[test]
    fn values_are_checked() {
        let ok = WebSettings::default();
        assert_eq!(ok.validate(), Ok(()));
        for (bad, named) in [
            (
                WebSettings {
                    mqtt_websocket_url: "http://localhost:1885".into(),
                    ..ok.clone()
                },
                "web.mqtt_websocket_url",
            ),
            (
                WebSettings {
                    client_id: "-web".into(),
                    ..ok.clone()
                },
                "web.client_id",
            ),
            (
                WebSettings {
                    client_id: "a".repeat(65),
                    ..ok.clone()
                },
                "web.client_id",
            ),
            (
                WebSettings {
                    oidc_issuer: "ftp://login.example".into(),
                    oidc_client_id: "x".into(),
                    ..ok.clone()
                },
                "web.oidc_issuer",
            ),
            (
                WebSettings {
                    oidc_issuer: "https://login.example".into(),
                    ..ok.clone()
                },
                "web.oidc_client_id",
            ),
            (
                WebSettings {
                    oidc_client_id: "x".into(),
                    ..ok.clone()
                },
                "web.oidc_client_id",
            ),
            (
                WebSettings {
                    captcha_site_key: "k".repeat(SITE_KEY_MAX + 1),
                    ..ok.clone()
                },
                "web.captcha_site_key",
            ),
            (
                WebSettings {
                    captcha_script_url: "javascript:alert(1)".into(),
                    ..ok.clone()
                },
                "web.captcha_script_url",
            ),
            (
                WebSettings {
                    captcha_origins: vec!["gstatic.com".into()],
                    ..ok.clone()
                },
                "web.captcha_origins",
            ),
        ] {
            let err = bad.validate().unwrap_err();
            assert!(err.contains(named), "{named}: {err}");
        }
        let at_the_edge = WebSettings {
            captcha_site_key: "k".repeat(SITE_KEY_MAX),
            client_id: "a".repeat(64),
            ..ok
        };
        assert_eq!(at_the_edge.validate(), Ok(()));
    }
}
