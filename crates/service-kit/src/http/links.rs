//! Where a service's absolute links point ([`PublicBase`]): `http.public_url`, else the
//! listener's own address, and only where an operator turns on `http.trust_forwarded_headers`
//! the proxy's `Forwarded` / `X-Forwarded-Host` / `X-Forwarded-Proto`.
//!
//! Links of public, cacheable answers must not depend on what a client sends: a client's own
//! `Forwarded: host=evil.example` would otherwise put its host into an answer a CDN or the
//! reverse proxy's cache hands to everyone (docs/deployment.md, "Public URL").

use actix_web::HttpRequest;
use std::borrow::Cow;
use std::net::SocketAddr;

use crate::settings::HttpSettings;

/// The request headers links depend on with `http.trust_forwarded_headers`, for `Vary`.
pub const FORWARDED_HEADERS: &str = "Forwarded, X-Forwarded-Host, X-Forwarded-Proto";

/// The absolute URL of a service's base path, which its absolute links start with.
#[derive(Debug, Clone)]
pub struct PublicBase(Base);

#[derive(Debug, Clone)]
enum Base {
    /// `http.public_url`, or the listener's address, without a trailing slash.
    Fixed(String),
    /// The request's scheme and host as the proxy gives them, then the base path.
    Forwarded { base_path: String },
}

impl PublicBase {
    /// From `http`: `public_url`; when empty, `http://<listener><base_path>` (`localhost` for
    /// an unspecified address such as `0.0.0.0`); with `trust_forwarded_headers`, the proxy's
    /// headers of each request.
    pub fn new(http: &HttpSettings, listener: SocketAddr) -> Self {
        if http.trust_forwarded_headers {
            return Self(Base::Forwarded {
                base_path: http.base_path.clone(),
            });
        }
        let url = if http.public_url.is_empty() {
            let host = match listener.ip() {
                ip if ip.is_unspecified() => "localhost".to_owned(),
                std::net::IpAddr::V6(ip) => format!("[{ip}]"),
                ip => ip.to_string(),
            };
            format!("http://{host}:{}{}", listener.port(), http.base_path)
        } else {
            http.public_url.trim_end_matches('/').to_owned()
        };
        Self(Base::Fixed(url))
    }

    /// A fixed base (tests and tools).
    pub fn fixed(url: &str) -> Self {
        Self(Base::Fixed(url.trim_end_matches('/').to_owned()))
    }

    /// The base path's absolute URL for `req`, without a trailing slash.
    pub fn url(&self, req: &HttpRequest) -> Cow<'_, str> {
        match &self.0 {
            Base::Fixed(url) => Cow::Borrowed(url),
            Base::Forwarded { base_path } => {
                let info = req.connection_info();
                Cow::Owned(format!("{}://{}{base_path}", info.scheme(), info.host()))
            }
        }
    }

    /// The request headers the links depend on, to name in `Vary`: none for a fixed base,
    /// [`FORWARDED_HEADERS`] with `http.trust_forwarded_headers` (`Host` is in every cache key).
    pub fn vary(&self) -> Option<&'static str> {
        match self.0 {
            Base::Fixed(_) => None,
            Base::Forwarded { .. } => Some(FORWARDED_HEADERS),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::*;
    use actix_web::test::TestRequest;

    fn settings(public_url: &str, trust: bool) -> HttpSettings {
        HttpSettings {
            public_url: public_url.to_owned(),
            trust_forwarded_headers: trust,
            ..HttpSettings::default()
        }
    }

    fn hostile() -> HttpRequest {
        TestRequest::get()
            .uri("/api/v1/collections")
            .insert_header(("Host", "streets.example.city"))
            .insert_header(("Forwarded", "host=evil.example;proto=https"))
            .insert_header(("X-Forwarded-Host", "evil2.example"))
            .insert_header(("X-Forwarded-Proto", "https"))
            .to_http_request()
    }

    #[test]
    fn the_base_is_the_setting_or_the_listener_whatever_the_request_says() {
        let cases = [
            (
                "https://s.example/api/v1",
                "0.0.0.0:8082",
                "https://s.example/api/v1",
            ),
            (
                "https://s.example/api/v1/",
                "0.0.0.0:8082",
                "https://s.example/api/v1",
            ),
            ("", "0.0.0.0:8082", "http://localhost:8082/api/v1"),
            ("", "127.0.0.1:4000", "http://127.0.0.1:4000/api/v1"),
            ("", "[::1]:4000", "http://[::1]:4000/api/v1"),
            ("", "[::]:4000", "http://localhost:4000/api/v1"),
        ];
        for (public_url, listener, expected) in cases {
            let listener: SocketAddr = listener.parse().unwrap();
            let base = PublicBase::new(&settings(public_url, false), listener);
            assert_eq!(base.url(&hostile()), expected, "{public_url:?} {listener}");
            assert_eq!(base.vary(), None);
        }
    }

    #[test]
    fn trusted_forwarded_headers_choose_the_base_and_vary() {
        let base = PublicBase::new(&settings("", true), "0.0.0.0:8082".parse().unwrap());
        // actix prefers RFC 7239 `Forwarded`, then `X-Forwarded-*`, then `Host`.
        assert_eq!(base.url(&hostile()), "https://evil.example/api/v1");
        let plain = TestRequest::get()
            .insert_header(("Host", "streets.example.city"))
            .to_http_request();
        assert_eq!(base.url(&plain), "http://streets.example.city/api/v1");
        assert_eq!(base.vary(), Some(FORWARDED_HEADERS));
    }

    #[test]
    fn public_url_and_trusted_headers_exclude_each_other() {
        let err = settings("https://a.example/api/v1", true)
            .validate()
            .unwrap_err();
        assert!(err.contains("http.trust_forwarded_headers"), "{err}");
        settings("https://a.example/api/v1", false)
            .validate()
            .unwrap();
        settings("", true).validate().unwrap();
    }
}
