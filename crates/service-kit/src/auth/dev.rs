//! Dev tokens: HS256 tokens signed with `auth.dev_secret`, for local use only.

use std::time::Duration;

use anyhow::Context as _;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use secrecy::ExposeSecret;
use serde_json::{Map, Value};

use super::AuthSettings;

/// What a dev token says.
#[derive(Debug, Clone)]
pub struct DevTokenRequest {
    pub subject: String,
    pub scopes: Vec<String>,
    pub roles: Vec<String>,
    pub client_id: Option<String>,
    /// The `email` claim (e-mail notifications use it).
    pub email: Option<String>,
    /// The `locale` claim (the language of notifications).
    pub locale: Option<String>,
    pub ttl: Duration,
}

/// Arguments of a service's `dev-token` subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct DevTokenArgs {
    /// Account id of the token (`sub`).
    #[arg(long)]
    pub sub: String,
    /// A scope to grant; repeat the option for several.
    #[arg(long = "scope", value_name = "SCOPE")]
    pub scopes: Vec<String>,
    /// A role to grant; repeat the option for several.
    #[arg(long = "role", value_name = "ROLE")]
    pub roles: Vec<String>,
    /// Client application the token is issued to.
    #[arg(long)]
    pub client_id: Option<String>,
    /// The account's e-mail address (`email` claim).
    #[arg(long)]
    pub email: Option<String>,
    /// The account's language (`locale` claim), e.g. `cs` or `en`.
    #[arg(long)]
    pub locale: Option<String>,
    /// Lifetime of the token in minutes.
    #[arg(long, default_value_t = 60)]
    pub ttl_minutes: u64,
}

impl DevTokenArgs {
    pub fn to_request(&self) -> DevTokenRequest {
        let split = |values: &[String]| -> Vec<String> {
            values
                .iter()
                .flat_map(|v| v.split_whitespace())
                .map(str::to_owned)
                .collect()
        };
        DevTokenRequest {
            subject: self.sub.clone(),
            scopes: split(&self.scopes),
            roles: split(&self.roles),
            client_id: self.client_id.clone(),
            email: self.email.clone(),
            locale: self.locale.clone(),
            ttl: Duration::from_secs(self.ttl_minutes.saturating_mul(60)),
        }
    }

    /// Mints the token these arguments describe.
    pub fn mint(&self, settings: &AuthSettings) -> anyhow::Result<String> {
        mint_dev_token(settings, &self.to_request())
    }
}

/// Mints an HS256 token with `settings.dev_secret` that [`super::Authenticator`] accepts when the
/// same secret is configured. Sets `iss`/`aud` from the settings when configured, the roles under
/// the configured roles claim and the client id under the configured client id claim.
pub fn mint_dev_token(settings: &AuthSettings, req: &DevTokenRequest) -> anyhow::Result<String> {
    let secret = settings
        .dev_secret
        .as_ref()
        .map(|s| s.expose_secret())
        .filter(|s| !s.is_empty())
        .context("auth.dev_secret is not set; dev tokens are disabled")?;
    let subject = req.subject.trim();
    if subject.is_empty() {
        anyhow::bail!("the subject of a dev token must not be empty");
    }
    if req.ttl.is_zero() {
        anyhow::bail!("the lifetime of a dev token must be positive");
    }
    for scope in &req.scopes {
        if scope.is_empty() || scope.contains(char::is_whitespace) {
            anyhow::bail!("invalid scope {scope:?}: scopes are single words");
        }
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .context("system clock before 1970")?
        .as_secs();

    let mut claims = Map::new();
    claims.insert("sub".into(), subject.into());
    claims.insert("iat".into(), now.into());
    claims.insert("exp".into(), now.saturating_add(req.ttl.as_secs()).into());
    if let Some(issuer) = settings.issuer.as_deref().filter(|s| !s.trim().is_empty()) {
        claims.insert("iss".into(), issuer.trim().into());
    }
    if let Some(audience) = settings
        .audience
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        claims.insert("aud".into(), audience.trim().into());
    }
    if !req.scopes.is_empty() {
        claims.insert("scope".into(), req.scopes.join(" ").into());
    }
    if !req.roles.is_empty() {
        let roles = Value::from(req.roles.clone());
        insert_at_path(&mut claims, settings.roles_claim.trim(), roles)?;
    }
    if let Some(client_id) = req.client_id.as_deref().filter(|s| !s.trim().is_empty()) {
        let claim = match settings.client_id_claim.trim() {
            "" => "client_id",
            name => name,
        };
        claims.insert(claim.into(), client_id.trim().into());
    }

    for (claim, value) in [("email", &req.email), ("locale", &req.locale)] {
        if let Some(value) = value.as_deref().filter(|s| !s.trim().is_empty()) {
            claims.insert(claim.into(), value.trim().into());
        }
    }

    let mut header = Header::new(Algorithm::HS256);
    header.typ = Some("JWT".into());
    jsonwebtoken::encode(
        &header,
        &claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .context("signing the dev token")
}

/// Puts `value` under `name`, nesting objects for a dotted path like `realm_access.roles` (a name
/// that does not look like a path, e.g. a URL, is used as is).
fn insert_at_path(claims: &mut Map<String, Value>, name: &str, value: Value) -> anyhow::Result<()> {
    let is_path = name.contains('.')
        && name.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
    if !is_path {
        claims.insert(name.to_owned(), value);
        return Ok(());
    }
    let parts: Vec<&str> = name.split('.').collect();
    let Some((last, parents)) = parts.split_last() else {
        anyhow::bail!("empty roles claim name");
    };
    let mut current = claims;
    for part in parents {
        let entry = current
            .entry((*part).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        current = entry
            .as_object_mut()
            .with_context(|| format!("claim {part:?} is not an object"))?;
    }
    current.insert((*last).to_owned(), value);
    Ok(())
}
