//! `POST /dev/sign-in`: the web app's local sign-in for the embedded default (docs/web-app.md,
//! "Dev sign-in"). It mints a dev token (HS256 with `auth.dev_secret`, the same as
//! `citizen-api dev-token`) for the subject the page names; it exists only while
//! `web.dev_sign_in` and `auth.dev_secret` are both set, and it is no part of the API (nor of
//! its OpenAPI description): a deployment signs citizens in with the city's OIDC provider.

use std::time::Duration;

use actix_web::{web, HttpResponse};
use domain::i18n::Message;
use serde::{Deserialize, Serialize};
use service_kit::auth::{mint_dev_token, AuthSettings, DevTokenRequest};
use service_kit::extract::Json;
use service_kit::ApiError;

/// How long a dev token of the page lives.
pub const TOKEN_TTL: Duration = Duration::from_secs(8 * 3600);
/// Longest `sub`, in characters.
pub const MAX_SUB_CHARS: usize = 255;
/// Most scopes, and the longest scope, in characters.
pub const MAX_SCOPES: usize = 32;
pub const MAX_SCOPE_CHARS: usize = 100;
/// Longest `email`, in characters (RFC 5321's path limit).
pub const MAX_EMAIL_CHARS: usize = 254;
/// The languages a token's `locale` may name (those of the notifications).
const LOCALES: [&str; 3] = ["cs", "en", "uk"];

/// What the page asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignIn {
    /// The account id (`sub`).
    sub: String,
    /// Scopes to grant (officers' scopes for trying the officers' side).
    #[serde(default)]
    scopes: Vec<String>,
    /// The `email` claim (e-mail notifications need it).
    #[serde(default)]
    email: Option<String>,
    /// The `locale` claim (the language of notifications).
    #[serde(default)]
    locale: Option<String>,
}

#[derive(Debug, Serialize)]
struct Token {
    access_token: String,
    token_type: &'static str,
    expires_in: u64,
}

/// The minter: the auth settings with the secret, and the page's client id (the token's `azp`).
pub struct DevSignIn {
    auth: AuthSettings,
    client_id: String,
}

impl DevSignIn {
    pub fn new(auth: &AuthSettings, client_id: &str) -> Self {
        Self {
            auth: auth.clone(),
            client_id: client_id.to_owned(),
        }
    }
}

/// Registers `POST /dev/sign-in` (a root route, beside the page).
pub fn configure(cfg: &mut web::ServiceConfig, minter: web::Data<DevSignIn>) {
    cfg.service(
        web::resource("/dev/sign-in")
            .app_data(minter)
            .route(web::post().to(sign_in)),
    );
}

async fn sign_in(
    minter: web::Data<DevSignIn>,
    Json(body): Json<SignIn>,
) -> Result<HttpResponse, ApiError> {
    let request = check(body, &minter.client_id)?;
    let token = mint_dev_token(&minter.auth, &request).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(Token {
            access_token: token,
            token_type: "Bearer",
            expires_in: TOKEN_TTL.as_secs(),
        }))
}

/// The token request, or the 400 naming what is wrong.
fn check(body: SignIn, client_id: &str) -> Result<DevTokenRequest, ApiError> {
    let sub = body.sub.trim();
    if sub.is_empty() || sub.chars().count() > MAX_SUB_CHARS || sub.chars().any(char::is_control) {
        return Err(ApiError::validation(
            Message::new("dev-sign-in-sub").arg("max", MAX_SUB_CHARS),
        ));
    }
    let scope_ok = |scope: &String| {
        !scope.is_empty()
            && scope.chars().count() <= MAX_SCOPE_CHARS
            && scope.chars().all(|c| c.is_ascii_graphic())
    };
    if body.scopes.len() > MAX_SCOPES || !body.scopes.iter().all(scope_ok) {
        return Err(ApiError::validation(
            Message::new("dev-sign-in-scopes")
                .arg("max-scopes", MAX_SCOPES)
                .arg("max-chars", MAX_SCOPE_CHARS),
        ));
    }
    if let Some(email) = &body.email {
        let ok = email.chars().count() <= MAX_EMAIL_CHARS
            && email
                .split_once('@')
                .is_some_and(|(local, domain)| !local.is_empty() && !domain.is_empty())
            && !email.chars().any(|c| c.is_whitespace() || c.is_control());
        if !ok {
            return Err(ApiError::validation(
                Message::new("dev-sign-in-email").arg("max", MAX_EMAIL_CHARS),
            ));
        }
    }
    if let Some(locale) = &body.locale {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(ApiError::validation(
                Message::new("dev-sign-in-locale").arg("allowed", LOCALES.join(", ")),
            ));
        }
    }
    Ok(DevTokenRequest {
        subject: sub.to_owned(),
        scopes: body.scopes,
        roles: Vec::new(),
        client_id: Some(client_id.to_owned()),
        email: body.email,
        locale: body.locale,
        ttl: TOKEN_TTL,
    })
}
