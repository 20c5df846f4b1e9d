//! The citizens' web app (docs/web-app.md): the files of `crates/citizen-api/web/`, embedded in
//! the binary and served at `/` when `web.enabled`. Every file but `index.html` is served at
//! `/assets/<name>.<hash>.<ext>` (the hash of its content, computed at start-up) and cached for
//! a year; the page is rendered once at start-up from its template (the hashed names and the
//! settings filled in) and answered with `no-cache`, an `ETag` and the Content-Security-Policy.

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use anyhow::Context as _;
use domain::i18n::Message;
use rust_embed::RustEmbed;
use service_kit::http::cache::{etag, none_match};
use service_kit::http::ConfigureApi;
use service_kit::ApiError;
use sha2::{Digest, Sha256};

use crate::settings::web::WebSettings;
use crate::settings::{self, Settings};

mod dev_sign_in;

use dev_sign_in::DevSignIn;

/// The app's files, in the binary in every build (`debug-embed`): `make run` needs no Node.
#[derive(RustEmbed)]
#[folder = "web/"]
struct Files;

/// The page's template: `{{asset:<path>}}` and `{{setting:<name>}}` are filled in at start-up.
const TEMPLATE: &str = "index.html";

/// The service worker (web push): served at `/sw.js` under its own name, since a worker's scope
/// is the folder of its script and its URL must not change between versions.
const SERVICE_WORKER: &str = "sw.js";

/// The client-side routes answered with the page (the app's router, `ROUTES` in app.js, draws
/// them): each page of the app can be shared and reloaded.
const PAGES: [&str; 13] = [
    "/",
    "/reports/{report_id}",
    "/news",
    "/news/{news_id}",
    "/projects",
    "/projects/{project_id}",
    "/notifications",
    "/account",
    "/figures",
    "/queue",
    "/queue/reports/{report_id}",
    "/queue/templates",
    "/editor",
];

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Whether `POST /dev/sign-in` is served: `web.dev_sign_in` and a non-empty `auth.dev_secret`.
pub fn dev_sign_in_available(settings: &Settings) -> bool {
    use secrecy::ExposeSecret as _;
    settings.web.dev_sign_in
        && settings
            .auth
            .dev_secret
            .as_ref()
            .is_some_and(|secret| !secret.expose_secret().is_empty())
}

/// The public URL of the site the app is served on (its pages are `<site>/`,
/// `<site>/reports/<id>`): `http.public_url` without the base path (without its path when it
/// does not end with the base path); `None` when `http.public_url` is empty.
pub fn site_url(http: &service_kit::settings::HttpSettings) -> Option<String> {
    let public = http.public_url.trim_end_matches('/');
    if public.is_empty() {
        return None;
    }
    let base = http.base_path.trim_end_matches('/');
    match public.strip_suffix(base) {
        Some(site) if !base.is_empty() => Some(site.to_owned()),
        _ => url::Url::parse(public)
            .ok()
            .map(|url| url.origin().ascii_serialization()),
    }
}

/// An embedded file as served.
struct Asset {
    body: web::Bytes,
    content_type: &'static str,
}

/// The rendered page and the assets by their hashed paths (below `/assets/`).
pub struct WebApp {
    page: web::Bytes,
    page_tag: String,
    csp: String,
    assets: HashMap<String, Asset>,
    service_worker: web::Bytes,
    /// `POST /dev/sign-in`, when available ([`dev_sign_in_available`]).
    dev_sign_in: Option<DevSignIn>,
}

impl WebApp {
    /// Hashes the embedded files and renders the page with the service's settings.
    pub fn new(all: &Settings) -> anyhow::Result<Self> {
        let settings = &all.web;
        let api_base = all.http.base_path.as_str();
        let dev_sign_in = dev_sign_in_available(all);
        let dev_sign_in_meta = if dev_sign_in { "on" } else { "" };
        let public_url = site_url(&all.http).unwrap_or_default();
        let mut assets = HashMap::new();
        let mut hashed = HashMap::new();
        for path in Files::iter() {
            if path == TEMPLATE || path == SERVICE_WORKER {
                continue;
            }
            let file = Files::get(&path).context("an embedded file vanished")?;
            let name = hashed_name(&path, &file.data);
            hashed.insert(path.to_string(), format!("/assets/{name}"));
            assets.insert(
                name,
                Asset {
                    body: web::Bytes::from(file.data.into_owned()),
                    content_type: content_type(&path),
                },
            );
        }
        let service_worker = Files::get(SERVICE_WORKER).context("web/sw.js is not embedded")?;
        let media_origin = settings::web::origin(&all.media.public_base_url)
            .map_err(|e| anyhow::anyhow!("media.public_base_url: {e}"))?;
        let template = Files::get(TEMPLATE).context("web/index.html is not embedded")?;
        let template =
            std::str::from_utf8(&template.data).context("web/index.html is not UTF-8")?;
        let page = render(template, |key| match key.split_once(':') {
            Some(("asset", path)) => hashed.get(path).cloned(),
            Some(("setting", "api_base")) => Some(api_base.to_owned()),
            Some(("setting", "streets_api_url")) => Some(settings.streets_api_url.clone()),
            Some(("setting", "platform_messages_url")) => {
                Some(settings.platform_messages_url.clone())
            }
            Some(("setting", "mqtt_websocket_url")) => Some(settings.mqtt_websocket_url.clone()),
            Some(("setting", "client_id")) => Some(settings.client_id.clone()),
            Some(("setting", "oidc_issuer")) => Some(settings.oidc_issuer.clone()),
            Some(("setting", "oidc_client_id")) => Some(settings.oidc_client_id.clone()),
            Some(("setting", "captcha_site_key")) => Some(settings.captcha_site_key.clone()),
            Some(("setting", "captcha_script_url")) => {
                Some(if settings.captcha_site_key.is_empty() {
                    String::new()
                } else {
                    settings.captcha_script_url.clone()
                })
            }
            Some(("setting", "media_origin")) => Some(media_origin.clone()),
            Some(("setting", "dev_sign_in")) => Some(dev_sign_in_meta.to_owned()),
            Some(("setting", "public_url")) => Some(public_url.clone()),
            _ => None,
        })?;
        let csp = csp(settings, &media_origin).map_err(anyhow::Error::msg)?;
        Ok(Self {
            page_tag: etag(page.as_bytes()),
            page: web::Bytes::from(page),
            csp,
            assets,
            service_worker: web::Bytes::from(service_worker.data.into_owned()),
            dev_sign_in: dev_sign_in.then(|| DevSignIn::new(&all.auth, &settings.client_id)),
        })
    }

    /// The routes of the app (at the root, beside the API's base path).
    pub fn configure(mut self) -> ConfigureApi {
        let dev_sign_in = self.dev_sign_in.take().map(web::Data::new);
        let app = web::Data::new(self);
        Arc::new(move |cfg: &mut web::ServiceConfig| {
            cfg.app_data(app.clone());
            for page in PAGES {
                cfg.route(page, web::get().to(serve_page));
            }
            cfg.route("/assets/{name:.+}", web::get().to(serve_asset));
            cfg.route("/sw.js", web::get().to(serve_service_worker));
            if let Some(minter) = &dev_sign_in {
                dev_sign_in::configure(cfg, minter.clone());
            }
        })
    }
}

/// The page's Content-Security-Policy: the platform's own origin for everything; besides it the
/// media origin for images (photos may be stored elsewhere, `media.public_base_url`), the other
/// services, the broker's WebSocket and the OIDC issuer for connections, and the CAPTCHA's
/// origins (with a site key only) for its script, frame and calls.
fn csp(settings: &WebSettings, media_origin: &str) -> Result<String, String> {
    let with = |origins: &[String]| {
        origins
            .iter()
            .fold(String::from("'self'"), |all, o| format!("{all} {o}"))
    };
    let mut connect = settings.connect_origins()?;
    let captcha = settings.captcha_sources()?;
    connect.extend(
        captcha
            .iter()
            .filter(|o| !connect.contains(o))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let images = vec![media_origin.to_owned()];
    let frames = if captcha.is_empty() {
        "'none'".to_owned()
    } else {
        captcha.join(" ")
    };
    Ok(format!(
        "default-src 'self'; script-src {}; style-src 'self'; img-src {}; connect-src {}; \
         frame-src {frames}; worker-src 'self'; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'",
        with(&captcha),
        with(&images),
        with(&connect),
    ))
}

/// `dir/name.ext` -> `dir/name.<first 10 hex digits of the SHA-256>.ext` (`LICENSE` ->
/// `LICENSE.<hash>`).
fn hashed_name(path: &str, body: &[u8]) -> String {
    let hash = hex::encode(&Sha256::digest(body)[..5]);
    let (dir, file) = path.rsplit_once('/').map_or(("", path), |(d, f)| (d, f));
    let named = match file.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}.{hash}.{ext}"),
        _ => format!("{file}.{hash}"),
    };
    if dir.is_empty() {
        named
    } else {
        format!("{dir}/{named}")
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("html") => "text/html; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        _ => "text/plain; charset=utf-8",
    }
}

/// Replaces every `{{key}}` of `template` by `value(key)`, HTML-escaped; an unknown key is an
/// error (a typo in the template fails the start, not the page).
fn render(template: &str, value: impl Fn(&str) -> Option<String>) -> anyhow::Result<String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .context("web/index.html: a `{{` without `}}`")?;
        let key = after[..end].trim();
        let filled =
            value(key).with_context(|| format!("web/index.html: unknown {{{{{key}}}}}"))?;
        out.push_str(&crate::notify::mail::escape(&filled));
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

async fn serve_page(app: web::Data<WebApp>, request: HttpRequest) -> HttpResponse {
    let matches = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .is_some_and(|value| none_match(value, &app.page_tag));
    let mut response = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, app.page_tag.clone()))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, app.csp.clone()))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "same-origin"));
    if matches {
        return response.finish();
    }
    response
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        ))
        .body(app.page.clone())
}

async fn serve_service_worker(app: web::Data<WebApp>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/javascript; charset=utf-8"))
        // Browsers check a worker for updates anyway; no-cache keeps that check cheap and sure.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(app.service_worker.clone())
}

async fn serve_asset(
    app: web::Data<WebApp>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let asset = app
        .assets
        .get(name.as_str())
        .ok_or_else(|| ApiError::not_found(Message::new("route-not-found")))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, asset.content_type))
        .insert_header((header::CACHE_CONTROL, IMMUTABLE))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(asset.body.clone()))
}

#[cfg(test)]
mod tests {
    use super::{hashed_name, render, site_url, Files};

    /// The text keys the app's files name: `t("key")` (and a detail page's `missing: "key"`,
    /// `key: "key"`) in the modules, `data-i18n="key"` (and `-label`, `-placeholder`) in the
    /// page; keys built at run time (`${…}`) are left out.
    fn keys_used() -> Vec<(String, String)> {
        let mut used = Vec::new();
        for path in Files::iter() {
            if !(path.ends_with(".js") || path.ends_with(".html")) || path.starts_with("vendor/") {
                continue;
            }
            let file = Files::get(&path).unwrap();
            let text = std::str::from_utf8(&file.data).unwrap();
            for opener in [
                "t(\"",
                "data-i18n=\"",
                "data-i18n-label=\"",
                "data-i18n-placeholder=\"",
                "missing: \"",
                "key: \"",
            ] {
                for (at, _) in text.match_indices(opener) {
                    let before = text[..at].chars().next_back().unwrap_or(' ');
                    if opener.starts_with('t') && (before.is_alphanumeric() || before == '_') {
                        continue; // `set("…")`, `get("…")`: not the text function
                    }
                    let rest = &text[at + opener.len()..];
                    let key = &rest[..rest.find('"').unwrap()];
                    if !key.contains("${") {
                        used.push((path.to_string(), key.to_owned()));
                    }
                }
            }
        }
        used
    }

    #[test]
    fn every_text_the_app_names_is_there_in_every_language() {
        let file = Files::get("texts.json").unwrap();
        let texts: serde_json::Value = serde_json::from_slice(&file.data).unwrap();
        let used = keys_used();
        assert!(
            used.len() > 100,
            "the scan finds the app's keys: {}",
            used.len()
        );
        for language in ["cs", "en", "uk"] {
            for (path, key) in &used {
                let found = key
                    .split('.')
                    .try_fold(&texts[language], |node, part| node.get(part));
                assert!(
                    found.is_some_and(serde_json::Value::is_string),
                    "{path}: {key} is missing in {language}"
                );
            }
        }
        // And the languages have the same texts.
        fn paths(value: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
            if let Some(object) = value.as_object() {
                for (key, child) in object {
                    paths(child, &format!("{prefix}{key}."), out);
                }
            } else {
                out.push(prefix.trim_end_matches('.').to_owned());
            }
        }
        let mut czech = Vec::new();
        paths(&texts["cs"], "", &mut czech);
        czech.sort();
        for language in ["en", "uk"] {
            let mut other = Vec::new();
            paths(&texts[language], "", &mut other);
            other.sort();
            assert_eq!(other, czech, "{language} has the keys cs has");
        }
    }

    #[test]
    fn names_carry_the_hash_before_the_extension() {
        let hash = &hashed_name("x", b"a")[2..];
        assert_eq!(hashed_name("app.js", b"a"), format!("app.{hash}.js"));
        assert_eq!(
            hashed_name("vendor/leaflet/LICENSE", b"a"),
            format!("vendor/leaflet/LICENSE.{hash}")
        );
        assert_ne!(hashed_name("app.js", b"b"), hashed_name("app.js", b"a"));
    }

    #[test]
    fn the_template_is_filled_escaped_and_unknown_keys_fail() {
        let page = render("<a href=\"{{ k }}\">", |k| (k == "k").then(|| "\"&".into())).unwrap();
        assert_eq!(page, "<a href=\"&quot;&amp;\">");
        assert!(render("{{nope}}", |_| None).is_err());
        assert!(render("{{open", |_| Some(String::new())).is_err());
    }

    #[test]
    fn the_site_is_the_public_url_without_the_base_path() {
        let http = |public_url: &str| service_kit::settings::HttpSettings {
            public_url: public_url.into(),
            ..Default::default()
        };
        assert_eq!(site_url(&http("")), None);
        for (public, site) in [
            ("https://city.example/api/v1", "https://city.example"),
            ("https://city.example/api/v1/", "https://city.example"),
            (
                "https://city.example/citizen/api/v1",
                "https://city.example/citizen",
            ),
            ("https://api.city.example/v2", "https://api.city.example"),
        ] {
            assert_eq!(site_url(&http(public)).as_deref(), Some(site), "{public}");
        }
    }
}
