//! The JWKS of the identity provider: fetched with reqwest, cached, refetched on an unknown `kid`
//! (at most once per `min_refetch`) and when older than `ttl`.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};

use super::AuthError;

/// Upper bound for a JWKS document; a real one is a few kilobytes.
const MAX_JWKS_BYTES: usize = 1024 * 1024;

/// One verification key of the JWKS with the algorithms it may verify.
pub(crate) struct VerifyKey {
    pub(crate) kid: Option<String>,
    pub(crate) algorithms: Vec<Algorithm>,
    pub(crate) key: DecodingKey,
}

struct Snapshot {
    keys: Vec<Arc<VerifyKey>>,
    fetched_at: Instant,
}

pub(crate) enum KeyLookup {
    /// Keys with the token's `kid` (or every key when it has none) that accept its algorithm.
    Found(Vec<Arc<VerifyKey>>),
    /// The key exists but is of another type than the token's algorithm.
    WrongAlgorithm,
    UnknownKey,
}

pub(crate) struct JwksCache {
    url: String,
    client: reqwest::Client,
    ttl: Duration,
    min_refetch: Duration,
    current: RwLock<Option<Arc<Snapshot>>>,
    /// Held while fetching (one fetch at a time); holds the time of the last attempt.
    fetch: tokio::sync::Mutex<Option<Instant>>,
}

impl JwksCache {
    pub(crate) fn new(url: &str, ttl: Duration, min_refetch: Duration) -> anyhow::Result<Self> {
        let parsed = reqwest::Url::parse(url).with_context(|| format!("auth.jwks_url {url:?}"))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            anyhow::bail!("auth.jwks_url must be an http(s) URL, got {url:?}");
        }
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(10))
            .build()
            .context("building the HTTP client for the JWKS")?;
        Ok(Self {
            url: url.to_owned(),
            client,
            ttl,
            min_refetch,
            current: RwLock::new(None),
            fetch: tokio::sync::Mutex::new(None),
        })
    }

    pub(crate) async fn lookup(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<KeyLookup, AuthError> {
        let mut snapshot = self.snapshot(false).await?;
        let mut result = find(&snapshot, kid, alg);
        if matches!(result, KeyLookup::UnknownKey) {
            // The provider may have rotated its keys since we fetched them.
            let refreshed = self.snapshot(true).await?;
            if !Arc::ptr_eq(&refreshed, &snapshot) {
                snapshot = refreshed;
                result = find(&snapshot, kid, alg);
            }
        }
        Ok(result)
    }

    fn cached(&self) -> Option<Arc<Snapshot>> {
        match self.current.read() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    fn store(&self, snapshot: Arc<Snapshot>) {
        match self.current.write() {
            Ok(mut guard) => *guard = Some(snapshot),
            Err(poisoned) => *poisoned.into_inner() = Some(snapshot),
        }
    }

    /// The current keys; fetches when there are none, they aged out, or `refetch` (unknown kid)
    /// is asked, but never more often than `min_refetch`. A failed fetch keeps the old keys.
    async fn snapshot(&self, refetch: bool) -> Result<Arc<Snapshot>, AuthError> {
        let before = self.cached();
        if let Some(snap) = &before {
            if !refetch && snap.fetched_at.elapsed() < self.ttl {
                return Ok(snap.clone());
            }
        }
        let mut last_attempt = self.fetch.lock().await;
        let now_cached = self.cached();
        // Someone else fetched while we waited for the lock: use theirs.
        if let Some(snap) = &now_cached {
            let changed = before.as_ref().is_none_or(|b| !Arc::ptr_eq(b, snap));
            if changed {
                return Ok(snap.clone());
            }
        }
        if let (Some(at), Some(snap)) = (*last_attempt, &now_cached) {
            if at.elapsed() < self.min_refetch {
                return Ok(snap.clone());
            }
        }
        if let (Some(at), None) = (*last_attempt, &now_cached) {
            // Never fetched successfully yet; still do not hammer a provider that is down.
            if at.elapsed() < self.min_refetch {
                return Err(AuthError::KeysUnavailable);
            }
        }
        *last_attempt = Some(Instant::now());
        match self.fetch_keys().await {
            Ok(keys) => {
                tracing::debug!(url = %self.url, keys = keys.len(), "auth: JWKS fetched");
                let snap = Arc::new(Snapshot {
                    keys,
                    fetched_at: Instant::now(),
                });
                self.store(snap.clone());
                Ok(snap)
            }
            Err(err) => {
                tracing::warn!(url = %self.url, error = format!("{err:#}"), "auth: fetching the JWKS failed");
                now_cached.ok_or(AuthError::KeysUnavailable)
            }
        }
    }

    async fn fetch_keys(&self) -> anyhow::Result<Vec<Arc<VerifyKey>>> {
        let mut response = self
            .client
            .get(&self.url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await?
            .error_for_status()?;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            if body.len() + chunk.len() > MAX_JWKS_BYTES {
                anyhow::bail!("JWKS larger than {MAX_JWKS_BYTES} bytes");
            }
            body.extend_from_slice(&chunk);
        }
        parse_jwks(&body)
    }
}

/// Parses a JWKS document, skipping keys that cannot verify signatures (encryption keys,
/// symmetric keys, unknown types); a document with no usable key is an error.
pub(crate) fn parse_jwks(body: &[u8]) -> anyhow::Result<Vec<Arc<VerifyKey>>> {
    #[derive(serde::Deserialize)]
    struct RawSet {
        keys: Vec<serde_json::Value>,
    }
    let raw: RawSet = serde_json::from_slice(body).context("JWKS is not a JSON key set")?;
    let total = raw.keys.len();
    let keys: Vec<_> = raw
        .keys
        .into_iter()
        .filter_map(|value| match verify_key(value) {
            Ok(key) => Some(Arc::new(key)),
            Err(err) => {
                tracing::debug!(error = format!("{err:#}"), "auth: JWKS key skipped");
                None
            }
        })
        .collect();
    if keys.is_empty() && total > 0 {
        anyhow::bail!("none of the {total} keys of the JWKS can verify signatures");
    }
    Ok(keys)
}

fn verify_key(value: serde_json::Value) -> anyhow::Result<VerifyKey> {
    let jwk: Jwk = serde_json::from_value(value).context("unsupported or malformed JWK")?;
    if matches!(jwk.common.public_key_use, Some(ref u) if *u != PublicKeyUse::Signature) {
        anyhow::bail!("key is not for signatures");
    }
    // Algorithms follow from the key type only: never HMAC for a key of the JWKS.
    let by_type: Vec<Algorithm> = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => vec![
            Algorithm::RS256,
            Algorithm::RS384,
            Algorithm::RS512,
            Algorithm::PS256,
            Algorithm::PS384,
            Algorithm::PS512,
        ],
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => vec![Algorithm::ES256],
            EllipticCurve::P384 => vec![Algorithm::ES384],
            _ => anyhow::bail!("unsupported EC curve"),
        },
        AlgorithmParameters::OctetKeyPair(okp) => match okp.curve {
            EllipticCurve::Ed25519 => vec![Algorithm::EdDSA],
            _ => anyhow::bail!("unsupported OKP curve"),
        },
        AlgorithmParameters::OctetKey(_) => anyhow::bail!("symmetric key in the JWKS"),
    };
    // A key that names its algorithm is restricted to it.
    let algorithms = match jwk.common.key_algorithm {
        None => by_type,
        Some(KeyAlgorithm::UNKNOWN_ALGORITHM) => anyhow::bail!("unknown `alg`"),
        Some(named) => {
            let named: Algorithm = named
                .to_string()
                .parse()
                .context("`alg` is not a signature algorithm")?;
            if !by_type.contains(&named) {
                anyhow::bail!("`alg` {named:?} does not fit the key type");
            }
            vec![named]
        }
    };
    let key = DecodingKey::from_jwk(&jwk).context("invalid key material")?;
    Ok(VerifyKey {
        kid: jwk.common.key_id.clone(),
        algorithms,
        key,
    })
}

fn find(snapshot: &Snapshot, kid: Option<&str>, alg: Algorithm) -> KeyLookup {
    let matching: Vec<&Arc<VerifyKey>> = match kid {
        Some(kid) => snapshot
            .keys
            .iter()
            .filter(|k| k.kid.as_deref() == Some(kid))
            .collect(),
        None => snapshot.keys.iter().collect(),
    };
    if matching.is_empty() {
        return KeyLookup::UnknownKey;
    }
    let fitting: Vec<Arc<VerifyKey>> = matching
        .into_iter()
        .filter(|k| k.algorithms.contains(&alg))
        .cloned()
        .collect();
    if fitting.is_empty() {
        KeyLookup::WrongAlgorithm
    } else {
        KeyLookup::Found(fitting)
    }
}
