//! Bearer-token authentication (JWKS / dev secret) and scopes.
//!
//! Every service verifies the `Authorization: Bearer <JWT>` of a request with one shared
//! [`Authenticator`]: tokens of the city's OpenID Connect provider are checked against the keys of
//! its JWKS (cached, refetched on an unknown `kid` and when the cache ages out); for local use a
//! token may instead be signed HS256 with a dev secret, which is off unless configured.
//!
//! Handlers take the caller as an actix extractor; the service registers its `Authenticator`
//! with `.app_data(authenticator.clone())`:
//!
//! ```ignore
//! async fn mine(Auth(principal): Auth) -> Result<String, ApiError> {
//!     principal.require_scope("reports:read")?;
//!     Ok(principal.subject)
//! }
//! ```

mod claims;
mod dev;
mod extract;
mod jwks;
mod scoped;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use domain::i18n::Message;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use crate::error::ApiError;

pub use dev::{mint_dev_token, DevTokenArgs, DevTokenRequest};
pub use extract::{bearer_token, verify_first, Auth, AuthRejection, MaybeAuth};
pub use scoped::{ScopeRule, Scoped};

use jwks::{JwksCache, KeyLookup};

/// The `auth` section of a service's settings.
/// Unknown keys are refused: a misspelt `issuer` must stop start-up, not switch the check off.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuthSettings {
    /// URL of the JWKS of the city's OpenID Connect provider.
    pub jwks_url: Option<String>,
    /// Required `iss` when set.
    pub issuer: Option<String>,
    /// Required `aud` (a string or one of an array) when set.
    pub audience: Option<String>,
    /// Claim holding the user's roles (array of strings or space-separated string); a dotted path
    /// such as `realm_access.roles` walks into nested objects. Default `roles`.
    pub roles_claim: String,
    /// Claim naming the client application (falls back to `client_id`). Default `azp`.
    pub client_id_claim: String,
    /// HS256 secret for local use only; off unless set.
    pub dev_secret: Option<SecretString>,
    /// How long fetched keys are used before the JWKS is fetched again. Default 300.
    pub jwks_cache_seconds: u64,
    /// Minimum time between two fetches of the JWKS (an unknown `kid` triggers a fetch, so this
    /// keeps a stream of forged tokens from hammering the provider). Default 10.
    pub jwks_min_refetch_seconds: u64,
    /// Allowed clock skew for `exp` and `nbf`. Default 30.
    pub leeway_seconds: u64,
}

impl Default for AuthSettings {
    fn default() -> Self {
        Self {
            jwks_url: None,
            issuer: None,
            audience: None,
            roles_claim: "roles".to_owned(),
            client_id_claim: "azp".to_owned(),
            dev_secret: None,
            jwks_cache_seconds: 300,
            jwks_min_refetch_seconds: 10,
            leeway_seconds: 30,
        }
    }
}

/// The authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The account id (`sub`).
    pub subject: String,
    /// From `scope` (space separated) and/or `scp` (string or array).
    pub scopes: BTreeSet<String>,
    /// From the configured roles claim.
    pub roles: BTreeSet<String>,
    /// From the configured client id claim, else `client_id`.
    pub client_id: Option<String>,
    /// The `email` claim, when the token carries a non-empty string there.
    pub email: Option<String>,
    /// The `locale` claim (a language tag such as `cs` or `en-GB`), when present.
    pub locale: Option<String>,
}

impl Principal {
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }

    pub fn has_role(&self, role: &str) -> bool {
        self.roles.contains(role)
    }

    /// 403 `FORBIDDEN` unless the token carries `scope`.
    pub fn require_scope(&self, scope: &str) -> Result<(), ApiError> {
        self.require_any_scope(&[scope])
    }

    /// 403 `FORBIDDEN` naming `scopes` unless the token carries one of them.
    pub fn require_any_scope(&self, scopes: &[&str]) -> Result<(), ApiError> {
        if scopes.iter().any(|scope| self.has_scope(scope)) {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                Message::new("scope-required").arg("scope", scopes.join(" or ")),
            ))
        }
    }
}

/// Why a bearer token was refused. Becomes a 401 `UNAUTHORIZED` (except [`AuthError::KeysUnavailable`],
/// a 503), whose text never contains the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error("missing bearer token")]
    MissingToken,
    #[error("the Authorization header must use the Bearer scheme")]
    WrongScheme,
    #[error("malformed token")]
    Malformed,
    #[error("token algorithm not accepted")]
    AlgorithmNotAccepted,
    #[error("token signed with an unknown key")]
    UnknownKey,
    #[error("invalid token signature")]
    BadSignature,
    #[error("token expired")]
    Expired,
    #[error("token not yet valid")]
    NotYetValid,
    #[error("token issuer not accepted")]
    WrongIssuer,
    #[error("token audience not accepted")]
    WrongAudience,
    /// The header marks extensions critical (`crit`, RFC 7515 §4.1.11); none is understood here.
    #[error("token requires extensions that are not understood")]
    CriticalExtension,
    #[error("token lacks the claim `{0}`")]
    MissingClaim(&'static str),
    #[error("token claim `{0}` is malformed")]
    InvalidClaim(&'static str),
    #[error("token authentication is not configured")]
    NotConfigured,
    #[error("the signing keys of the identity provider are unavailable")]
    KeysUnavailable,
}

impl From<AuthError> for ApiError {
    fn from(err: AuthError) -> Self {
        match err {
            // The token may well be fine: do not make the client throw it away.
            AuthError::KeysUnavailable => {
                ApiError::unavailable(anyhow::anyhow!("JWKS unavailable; token not verified"))
            }
            other => ApiError::unauthorized(other.message()),
        }
    }
}

impl AuthError {
    /// The catalogue text of this refusal.
    pub fn message(&self) -> Message {
        match self {
            Self::MissingToken => Message::new("token-missing"),
            Self::WrongScheme => Message::new("token-wrong-scheme"),
            Self::Malformed => Message::new("token-malformed"),
            Self::AlgorithmNotAccepted => Message::new("token-algorithm"),
            Self::UnknownKey => Message::new("token-unknown-key"),
            Self::BadSignature => Message::new("token-bad-signature"),
            Self::Expired => Message::new("token-expired"),
            Self::NotYetValid => Message::new("token-not-yet-valid"),
            Self::WrongIssuer => Message::new("token-wrong-issuer"),
            Self::WrongAudience => Message::new("token-wrong-audience"),
            Self::CriticalExtension => Message::new("token-critical-extension"),
            Self::MissingClaim(claim) => Message::new("token-missing-claim").arg("claim", claim),
            Self::InvalidClaim(claim) => Message::new("token-invalid-claim").arg("claim", claim),
            Self::NotConfigured => Message::new("token-not-configured"),
            Self::KeysUnavailable => Message::new("token-keys-unavailable"),
        }
    }
}

/// Verifies bearer tokens; cheap to clone (shared state inside).
#[derive(Clone)]
pub struct Authenticator {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: Option<String>,
    audience: Option<String>,
    roles_claim: String,
    client_id_claim: String,
    leeway: u64,
    dev_key: Option<DecodingKey>,
    jwks: Option<JwksCache>,
}

impl std::fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authenticator")
            .field("jwks", &self.inner.jwks.is_some())
            .field("dev_secret", &self.inner.dev_key.is_some())
            .field("issuer", &self.inner.issuer)
            .field("audience", &self.inner.audience)
            .finish_non_exhaustive()
    }
}

impl Authenticator {
    /// Builds the authenticator; keys are fetched lazily on the first token. With neither
    /// `jwks_url` nor `dev_secret` every token is refused (and a warning is logged).
    pub fn new(settings: &AuthSettings) -> anyhow::Result<Self> {
        let jwks = match settings.jwks_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => Some(JwksCache::new(
                url,
                Duration::from_secs(settings.jwks_cache_seconds),
                Duration::from_secs(settings.jwks_min_refetch_seconds),
            )?),
            _ => None,
        };
        let dev_key = match settings.dev_secret.as_ref().map(|s| s.expose_secret()) {
            Some(secret) if !secret.is_empty() => {
                tracing::warn!("auth: the HS256 dev secret is enabled; for local use only");
                Some(DecodingKey::from_secret(secret.as_bytes()))
            }
            _ => None,
        };
        if jwks.is_none() && dev_key.is_none() {
            tracing::warn!(
                "auth: neither auth.jwks_url nor auth.dev_secret is set; every token will be refused"
            );
        }
        if settings.roles_claim.trim().is_empty() {
            anyhow::bail!("auth.roles_claim must not be empty");
        }
        Ok(Self {
            inner: Arc::new(Inner {
                issuer: non_empty(settings.issuer.as_deref()),
                audience: non_empty(settings.audience.as_deref()),
                roles_claim: settings.roles_claim.trim().to_owned(),
                client_id_claim: settings.client_id_claim.trim().to_owned(),
                leeway: settings.leeway_seconds,
                dev_key,
                jwks,
            }),
        })
    }

    /// Verifies `bearer_token` (the token only, without the `Bearer ` prefix).
    pub async fn authenticate(&self, bearer_token: &str) -> Result<Principal, AuthError> {
        let result = self.verify(bearer_token.trim()).await;
        if let Err(err) = &result {
            tracing::debug!(error = %err, "auth: bearer token refused");
        }
        result
    }

    async fn verify(&self, token: &str) -> Result<Principal, AuthError> {
        if token.is_empty() {
            return Err(AuthError::MissingToken);
        }
        // An `alg` outside the known list (`none` included) fails here.
        let header = jsonwebtoken::decode_header(token).map_err(|err| {
            tracing::debug!(error = %err, "auth: unreadable token header");
            AuthError::Malformed
        })?;
        // RFC 7515 §4.1.11: a recipient must refuse a token naming critical extensions it does
        // not understand, and this one understands none (jsonwebtoken ignores `crit`).
        if header.crit.is_some() {
            return Err(AuthError::CriticalExtension);
        }
        let alg = header.alg;
        let inner = &self.inner;

        if alg == Algorithm::HS256 {
            // Only the dev secret verifies HMAC tokens; a JWKS key never does.
            let key = inner
                .dev_key
                .as_ref()
                .ok_or(AuthError::AlgorithmNotAccepted)?;
            return self.decode(token, alg, key);
        }
        if matches!(alg, Algorithm::HS384 | Algorithm::HS512) {
            return Err(AuthError::AlgorithmNotAccepted);
        }
        let Some(jwks) = inner.jwks.as_ref() else {
            return Err(if inner.dev_key.is_some() {
                AuthError::AlgorithmNotAccepted
            } else {
                AuthError::NotConfigured
            });
        };
        let candidates = match jwks.lookup(header.kid.as_deref(), alg).await? {
            KeyLookup::Found(keys) => keys,
            KeyLookup::WrongAlgorithm => return Err(AuthError::AlgorithmNotAccepted),
            KeyLookup::UnknownKey => return Err(AuthError::UnknownKey),
        };
        // Usually exactly one key (matched by kid); without a kid, any key fitting the algorithm.
        let mut last_err = AuthError::UnknownKey;
        for key in candidates.iter() {
            match self.decode(token, alg, &key.key) {
                Err(AuthError::BadSignature) => last_err = AuthError::BadSignature,
                other => return other,
            }
        }
        Err(last_err)
    }

    fn decode(
        &self,
        token: &str,
        alg: Algorithm,
        key: &DecodingKey,
    ) -> Result<Principal, AuthError> {
        let inner = &self.inner;
        let mut validation = Validation::new(alg);
        validation.leeway = inner.leeway;
        validation.validate_exp = true;
        validation.validate_nbf = true;
        let mut required = vec!["exp", "sub"];
        if let Some(issuer) = &inner.issuer {
            validation.set_issuer(&[issuer]);
            required.push("iss");
        }
        match &inner.audience {
            Some(audience) => {
                validation.set_audience(&[audience]);
                required.push("aud");
            }
            None => validation.validate_aud = false,
        }
        validation.set_required_spec_claims(&required);

        let data = jsonwebtoken::decode::<serde_json::Map<String, serde_json::Value>>(
            token,
            key,
            &validation,
        )
        .map_err(|err| map_jwt_error(err.kind()))?;
        claims::principal(&data.claims, &inner.roles_claim, &inner.client_id_claim)
    }
}

fn map_jwt_error(kind: &ErrorKind) -> AuthError {
    match kind {
        ErrorKind::InvalidSignature => AuthError::BadSignature,
        ErrorKind::ExpiredSignature => AuthError::Expired,
        ErrorKind::ImmatureSignature => AuthError::NotYetValid,
        ErrorKind::InvalidIssuer => AuthError::WrongIssuer,
        ErrorKind::InvalidAudience => AuthError::WrongAudience,
        ErrorKind::InvalidAlgorithm => AuthError::AlgorithmNotAccepted,
        ErrorKind::MissingRequiredClaim(claim) => match claim.as_str() {
            "exp" => AuthError::MissingClaim("exp"),
            "sub" => AuthError::MissingClaim("sub"),
            "iss" => AuthError::MissingClaim("iss"),
            "aud" => AuthError::MissingClaim("aud"),
            _ => AuthError::Malformed,
        },
        ErrorKind::InvalidClaimFormat(claim) => match claim.as_str() {
            "exp" => AuthError::InvalidClaim("exp"),
            "nbf" => AuthError::InvalidClaim("nbf"),
            _ => AuthError::Malformed,
        },
        other => {
            tracing::debug!(error = ?other, "auth: token rejected by the JWT library");
            AuthError::Malformed
        }
    }
}

fn non_empty(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}
