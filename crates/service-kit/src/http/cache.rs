//! HTTP caching headers for a service's answers, so that browsers and a reverse proxy keep
//! public answers for a few seconds instead of each replica keeping a copy of its data.
//!
//! [`HttpCache`] wraps a service's routes (a scope):
//! - an answer that depends on who asks, to a request with `Authorization` or under one of the
//!   private path prefixes (`/me`, `/admin`), gets `Cache-Control: private, no-store`;
//! - a `200` to a `GET` of a public route (named by its pattern) gets a strong `ETag` (a hash
//!   of the body's bytes, so every replica gives the same answer the same tag),
//!   `Cache-Control: public, max-age=<max_age_seconds>` and `Vary: Accept-Language,
//!   Authorization`; when the request's `If-None-Match` names that tag the answer is a `304`
//!   without a body;
//! - anything else is left as the handler made it; a handler's own `Cache-Control` is kept
//!   (the city's boundary, which changes only with a deployment, keeps an hour).

use std::collections::HashSet;
use std::future::{ready, Ready};
use std::rc::Rc;
use std::sync::Arc;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{forward_ready, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::HttpResponse;
use futures::future::LocalBoxFuture;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// `http_cache.*`: how long browsers and proxies may keep a public answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpCacheSettings {
    /// `max-age` of public answers, in seconds: how stale an answer a citizen may be shown.
    pub max_age_seconds: u32,
}

impl Default for HttpCacheSettings {
    fn default() -> Self {
        Self { max_age_seconds: 5 }
    }
}

/// `Cache-Control` of answers that depend on who asks.
pub const PRIVATE: &str = "private, no-store";
/// `Vary` of public answers, unless a service names more ([`HttpCache::varying_also`]).
pub const VARY: &str = "Accept-Language, Authorization";

/// The caching policy of a service's routes (module docs).
#[derive(Clone)]
pub struct HttpCache(Arc<Policy>);

#[derive(Clone)]
struct Policy {
    /// `public, max-age=N`.
    public: HeaderValue,
    /// Full route patterns (base path included) whose `GET` answers are public.
    public_routes: HashSet<String>,
    /// Full path prefixes whose answers are private.
    private_prefixes: Vec<String>,
    /// `Vary` of public answers.
    vary: HeaderValue,
}

impl HttpCache {
    /// The policy for routes under `base_path`: `public_routes` and `private_prefixes` are
    /// relative to it (`/reports/{report_id}`, `/me`).
    pub fn new(
        settings: &HttpCacheSettings,
        base_path: &str,
        public_routes: &[&str],
        private_prefixes: &[&str],
    ) -> Self {
        let public =
            HeaderValue::from_str(&format!("public, max-age={}", settings.max_age_seconds))
                .unwrap_or_else(|_| HeaderValue::from_static("no-cache"));
        let base = base_path.trim_end_matches('/');
        Self(Arc::new(Policy {
            public,
            public_routes: public_routes.iter().map(|r| format!("{base}{r}")).collect(),
            private_prefixes: private_prefixes
                .iter()
                .map(|p| format!("{base}{p}"))
                .collect(),
            vary: HeaderValue::from_static(VARY),
        }))
    }

    /// The same policy, with public answers that also depend on the request headers `also`
    /// (for example `Accept`, where the answer's type is negotiated): `Vary` names them first.
    pub fn varying_also(self, also: &str) -> Self {
        let mut policy = Arc::unwrap_or_clone(self.0);
        if let Ok(vary) = HeaderValue::from_str(&format!("{also}, {VARY}")) {
            policy.vary = vary;
        }
        Self(Arc::new(policy))
    }
}

impl Policy {
    fn is_private_path(&self, path: &str) -> bool {
        self.private_prefixes.iter().any(|prefix| {
            path.strip_prefix(prefix.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }
}

/// The strong entity tag of a body: the first 128 bits of its SHA-256, in hex.
pub fn etag(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    format!("\"{}\"", hex::encode(&digest[..16]))
}

/// Whether `If-None-Match` names `tag` (or is `*`); tags compare weakly, as RFC 9110 says.
pub fn none_match(if_none_match: &HeaderValue, tag: &str) -> bool {
    let Ok(listed) = if_none_match.to_str() else {
        return false;
    };
    listed.split(',').map(str::trim).any(|candidate| {
        candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate) == tag
    })
}

fn set_private(headers: &mut HeaderMap) {
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE));
    }
}

impl<S, B> Transform<S, ServiceRequest> for HttpCache
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Transform = HttpCacheMiddleware<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(HttpCacheMiddleware {
            service: Rc::new(service),
            policy: self.0.clone(),
        }))
    }
}

pub struct HttpCacheMiddleware<S> {
    service: Rc<S>,
    policy: Arc<Policy>,
}

impl<S, B> Service<ServiceRequest> for HttpCacheMiddleware<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Self::Error>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let policy = self.policy.clone();
        let private =
            req.headers().contains_key(header::AUTHORIZATION) || policy.is_private_path(req.path());
        let get = req.method() == Method::GET;
        let if_none_match = req.headers().get(header::IF_NONE_MATCH).cloned();
        let call = self.service.call(req);
        Box::pin(async move {
            let mut res = call.await?;
            if private {
                set_private(res.headers_mut());
                return Ok(res.map_into_boxed_body());
            }
            let public = get
                && res.status() == StatusCode::OK
                && res
                    .request()
                    .match_pattern()
                    .is_some_and(|pattern| policy.public_routes.contains(&pattern));
            if !public {
                return Ok(res.map_into_boxed_body());
            }
            let (req, res) = res.into_parts();
            let (mut res, body) = res.into_parts();
            let bytes = match body.try_into_bytes() {
                Ok(bytes) => bytes,
                // A streamed body is left as it is.
                Err(body) => {
                    return Ok(ServiceResponse::new(
                        req,
                        res.set_body(body).map_into_boxed_body(),
                    ))
                }
            };
            let tag = etag(&bytes);
            let headers = res.headers_mut();
            if let Ok(value) = HeaderValue::from_str(&tag) {
                headers.insert(header::ETAG, value);
            }
            if !headers.contains_key(header::CACHE_CONTROL) {
                headers.insert(header::CACHE_CONTROL, policy.public.clone());
            }
            headers.insert(header::VARY, policy.vary.clone());
            if if_none_match.is_some_and(|listed| none_match(&listed, &tag)) {
                let mut not_modified = HttpResponse::NotModified().finish();
                for name in [header::ETAG, header::CACHE_CONTROL, header::VARY] {
                    if let Some(value) = res.headers().get(&name) {
                        not_modified.headers_mut().insert(name, value.clone());
                    }
                }
                return Ok(ServiceResponse::new(req, not_modified));
            }
            Ok(ServiceResponse::new(
                req,
                res.set_body(bytes).map_into_boxed_body(),
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_names_the_tag_weakly_or_by_star() {
        let tag = etag(b"{}");
        assert_eq!(tag.len(), 34);
        assert_eq!(etag(b"{}"), tag, "the same bytes, the same tag");
        assert_ne!(etag(b"{ }"), tag);
        for (header, matches) in [
            (tag.clone(), true),
            (format!("W/{tag}"), true),
            (format!("\"other\", {tag}"), true),
            ("*".to_owned(), true),
            ("\"other\"".to_owned(), false),
            (tag.trim_matches('"').to_owned(), false),
        ] {
            let value = HeaderValue::from_str(&header).unwrap_or(HeaderValue::from_static(""));
            assert_eq!(none_match(&value, &tag), matches, "{header}");
        }
    }

    #[test]
    fn private_prefixes_match_whole_segments() {
        let cache = HttpCache::new(
            &HttpCacheSettings::default(),
            "/api/v1",
            &["/reports"],
            &["/me", "/admin"],
        );
        for (path, private) in [
            ("/api/v1/me", true),
            ("/api/v1/me/reports", true),
            ("/api/v1/admin/reports", true),
            ("/api/v1/media/1", false),
            ("/api/v1/reports", false),
            ("/api/v1/administrators", false),
        ] {
            assert_eq!(cache.0.is_private_path(path), private, "{path}");
        }
    }
}
