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
use serde::Deserialize;
use service_kit::http::cache::{etag, none_match};
use service_kit::http::ConfigureApi;
use service_kit::ApiError;
use sha2::{Digest, Sha256};

/// The app's files, in the binary in every build (`debug-embed`): `make run` needs no Node.
#[derive(RustEmbed)]
#[folder = "web/"]
struct Files;

/// The page's template: `{{asset:<path>}}` and `{{setting:<name>}}` are filled in at start-up.
const TEMPLATE: &str = "index.html";

/// The client-side routes answered with the page (the app's router draws them).
const PAGES: [&str; 2] = ["/", "/reports/{report_id}"];

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

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
}

impl Default for WebSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            streets_api_url: "http://localhost:8082/api/v1".into(),
            platform_messages_url: "http://localhost:8081/api/v1".into(),
        }
    }
}

impl WebSettings {
    pub fn validate(&self) -> Result<(), String> {
        for (key, value) in [
            ("web.streets_api_url", &self.streets_api_url),
            ("web.platform_messages_url", &self.platform_messages_url),
        ] {
            origin(value).map_err(|e| format!("{key}: {e}"))?;
        }
        Ok(())
    }
}

/// `scheme://host[:port]` of an http(s) URL.
fn origin(value: &str) -> Result<String, String> {
    let url = url::Url::parse(value).map_err(|e| format!("not a URL ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err("must be an http or https URL with a host".into());
    }
    Ok(url.origin().ascii_serialization())
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
}

impl WebApp {
    /// Hashes the embedded files and renders the page; `api_base` is the API's base path.
    pub fn new(settings: &WebSettings, api_base: &str) -> anyhow::Result<Self> {
        let mut assets = HashMap::new();
        let mut hashed = HashMap::new();
        for path in Files::iter() {
            if path == TEMPLATE {
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
            _ => None,
        })?;
        let connect = [&settings.streets_api_url, &settings.platform_messages_url]
            .into_iter()
            .map(|url| origin(url).map_err(anyhow::Error::msg))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let csp = format!(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
             connect-src 'self' {}; object-src 'none'; base-uri 'none'; form-action 'self'; \
             frame-ancestors 'none'",
            connect.join(" ")
        );
        Ok(Self {
            page_tag: etag(page.as_bytes()),
            page: web::Bytes::from(page),
            csp,
            assets,
        })
    }

    /// The routes of the app (at the root, beside the API's base path).
    pub fn configure(self) -> ConfigureApi {
        let app = web::Data::new(self);
        Arc::new(move |cfg: &mut web::ServiceConfig| {
            cfg.app_data(app.clone());
            for page in PAGES {
                cfg.route(page, web::get().to(serve_page));
            }
            cfg.route("/assets/{name:.+}", web::get().to(serve_asset));
        })
    }
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
    use super::{hashed_name, origin, render};

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
    fn origins_are_of_http_urls_only() {
        assert_eq!(
            origin("http://localhost:8082/api/v1").unwrap(),
            "http://localhost:8082"
        );
        assert!(origin("javascript:alert(1)").is_err());
        assert!(origin("nope").is_err());
    }
}
