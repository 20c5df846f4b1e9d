//! Settings and dev tokens.
#![allow(unused_imports)]

use crate::helpers::*;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use service_kit::auth::{
    mint_dev_token, AuthError, AuthSettings, Authenticator, DevTokenArgs, DevTokenRequest,
    MaybeAuth, Principal,
};
use std::time::Duration;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn nothing_configured_refuses_every_token() {
    let auth = Authenticator::new(&AuthSettings::default()).unwrap();
    assert_eq!(
        auth.authenticate(&rs256(&claims())).await,
        Err(AuthError::NotConfigured)
    );
    let token = sign(Algorithm::HS256, "whatever", None, &claims());
    assert_eq!(
        auth.authenticate(&token).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
}

#[tokio::test]
async fn dev_token_accepted_when_configured() {
    let settings = AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        issuer: Some(ISSUER.into()),
        audience: Some(AUDIENCE.into()),
        roles_claim: "realm_access.roles".into(),
        ..AuthSettings::default()
    };
    let token = mint_dev_token(&settings, &dev_request()).unwrap();
    let auth = Authenticator::new(&settings).unwrap();
    let principal = auth.authenticate(&token).await.unwrap();
    assert_eq!(
        principal,
        Principal {
            subject: "dev-user".into(),
            scopes: set(&["admin", "reports:read"]),
            roles: set(&["clerk"]),
            client_id: Some("cli".into()),
            email: None,
            locale: None,
        }
    );
    // Only HS256 for the dev secret.
    let claims = with(claims(), "sub", json!("x"));
    let hs512 = sign(Algorithm::HS512, "local-dev-secret", None, &claims);
    assert_eq!(
        auth.authenticate(&hs512).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
    // Still checked: a dev token for another audience is refused.
    let other = AuthSettings {
        audience: Some("other".into()),
        ..settings.clone()
    };
    let token = mint_dev_token(&other, &dev_request()).unwrap();
    assert_eq!(
        auth.authenticate(&token).await,
        Err(AuthError::WrongAudience)
    );
}

#[tokio::test]
async fn dev_token_refused_when_not_configured() {
    let dev = AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        ..AuthSettings::default()
    };
    let token = mint_dev_token(&dev, &dev_request()).unwrap();

    let server = jwks_server(&[RSA1_JWK]).await;
    let production = Authenticator::new(&AuthSettings {
        issuer: None,
        audience: None,
        ..settings(&server)
    })
    .unwrap();
    assert_eq!(
        production.authenticate(&token).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
    assert_eq!(
        jwks_fetches(&server).await,
        0,
        "HS256 never consults the JWKS"
    );

    let other_secret = Authenticator::new(&AuthSettings {
        dev_secret: Some("another-secret".into()),
        ..AuthSettings::default()
    })
    .unwrap();
    assert_eq!(
        other_secret.authenticate(&token).await,
        Err(AuthError::BadSignature)
    );

    let err = mint_dev_token(&AuthSettings::default(), &dev_request()).unwrap_err();
    assert!(err.to_string().contains("dev_secret"), "{err}");
}

#[test]
fn dev_token_args_parse() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: DevTokenArgs,
    }
    let cli = Cli::try_parse_from([
        "svc",
        "--sub",
        "u1",
        "--scope",
        "a:read",
        "--scope",
        "b:write",
        "--role",
        "clerk",
        "--client-id",
        "cli",
    ])
    .unwrap();
    let req = cli.args.to_request();
    assert_eq!(req.subject, "u1");
    assert_eq!(req.scopes, ["a:read", "b:write"]);
    assert_eq!(req.roles, ["clerk"]);
    assert_eq!(req.client_id.as_deref(), Some("cli"));
    assert_eq!(req.ttl, Duration::from_secs(3600));
    let cli = Cli::try_parse_from(["svc", "--sub", "u1", "--ttl-minutes", "5"]).unwrap();
    assert_eq!(cli.args.to_request().ttl, Duration::from_secs(300));
    assert!(Cli::try_parse_from(["svc"]).is_err(), "--sub is required");
}

#[tokio::test]
async fn dev_tokens_carry_email_and_locale_when_asked() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: DevTokenArgs,
    }
    let settings = AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        ..AuthSettings::default()
    };
    let auth = Authenticator::new(&settings).unwrap();
    let cli = Cli::try_parse_from([
        "svc",
        "--sub",
        "u1",
        "--email",
        "u1@example.org",
        "--locale",
        "cs",
    ])
    .unwrap();
    let principal = auth
        .authenticate(&cli.args.mint(&settings).unwrap())
        .await
        .unwrap();
    assert_eq!(principal.email.as_deref(), Some("u1@example.org"));
    assert_eq!(principal.locale.as_deref(), Some("cs"));
    let cli = Cli::try_parse_from(["svc", "--sub", "u1"]).unwrap();
    let principal = auth
        .authenticate(&cli.args.mint(&settings).unwrap())
        .await
        .unwrap();
    assert_eq!((principal.email, principal.locale), (None, None));
}

#[test]
fn settings_defaults_and_deserialization() {
    let s = AuthSettings::default();
    assert_eq!(s.roles_claim, "roles");
    assert_eq!(s.client_id_claim, "azp");
    assert_eq!(s.jwks_cache_seconds, 300);
    assert_eq!(s.leeway_seconds, 30);
    assert!(s.jwks_url.is_none() && s.dev_secret.is_none());
    let s: AuthSettings =
        serde_json::from_value(json!({"jwks_url": "https://id/jwks", "audience": "a"})).unwrap();
    assert_eq!(s.jwks_url.as_deref(), Some("https://id/jwks"));
    assert_eq!(s.roles_claim, "roles");
    assert_eq!(s.jwks_cache_seconds, 300);
}
