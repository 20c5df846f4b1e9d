//! Bearer-token authentication against a real JWKS served over HTTP, with real RS256, PS256,
//! ES256 and EdDSA signatures (test keys in `fixtures/auth`, made by `make_fixtures.sh`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::FromRef;
use axum::routing::get;
use axum::{Json, Router};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use service_kit::auth::Auth;
use service_kit::auth::{
    mint_dev_token, AuthError, AuthSettings, Authenticator, DevTokenArgs, DevTokenRequest,
    MaybeAuth, Principal,
};
use service_kit::{ApiError, ErrorBody};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const ISSUER: &str = "https://id.city.example/realms/citizens";
const AUDIENCE: &str = "citizen-services";

const RSA1_KEY: &str = include_str!("fixtures/auth/rsa1.key.pem");
const RSA1_PUB: &str = include_str!("fixtures/auth/rsa1.pub.pem");
const RSA1_JWK: &str = include_str!("fixtures/auth/rsa1.jwk.json");
const RSA2_KEY: &str = include_str!("fixtures/auth/rsa2.key.pem");
const RSA2_JWK: &str = include_str!("fixtures/auth/rsa2.jwk.json");
const EC1_KEY: &str = include_str!("fixtures/auth/ec1.key.pem");
const EC1_JWK: &str = include_str!("fixtures/auth/ec1.jwk.json");
const ED1_KEY: &str = include_str!("fixtures/auth/ed1.key.pem");
const ED1_JWK: &str = include_str!("fixtures/auth/ed1.jwk.json");

// ---------------------------------------------------------------------------------------------
// helpers

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn jwks(jwks: &[&str]) -> Value {
    let keys: Vec<Value> = jwks
        .iter()
        .map(|j| serde_json::from_str(j).unwrap())
        .collect();
    json!({ "keys": keys })
}

async fn mount_jwks(server: &MockServer, keys: &[&str]) {
    Mock::given(method("GET"))
        .and(path("/jwks"))
        .respond_with(ResponseTemplate::new(200).set_body_json(jwks(keys)))
        .mount(server)
        .await;
}

async fn jwks_server(keys: &[&str]) -> MockServer {
    let server = MockServer::start().await;
    mount_jwks(&server, keys).await;
    server
}

async fn jwks_fetches(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

fn settings(server: &MockServer) -> AuthSettings {
    AuthSettings {
        jwks_url: Some(format!("{}/jwks", server.uri())),
        issuer: Some(ISSUER.into()),
        audience: Some(AUDIENCE.into()),
        roles_claim: "realm_access.roles".into(),
        // Tests must not sleep: allow an immediate refetch on an unknown kid.
        jwks_min_refetch_seconds: 0,
        ..AuthSettings::default()
    }
}

fn claims() -> Value {
    let now = now();
    json!({
        "sub": "citizen-42",
        "iss": ISSUER,
        "aud": AUDIENCE,
        "iat": now,
        "exp": now + 600,
        "scope": "reports:read reports:write",
        "realm_access": { "roles": ["citizen", "moderator"] },
        "azp": "city-app",
    })
}

fn with(mut claims: Value, key: &str, value: Value) -> Value {
    claims[key] = value;
    claims
}

fn without(mut claims: Value, key: &str) -> Value {
    claims.as_object_mut().unwrap().remove(key);
    claims
}

fn encoding_key(alg: Algorithm, pem: &str) -> EncodingKey {
    match alg {
        Algorithm::RS256
        | Algorithm::RS384
        | Algorithm::RS512
        | Algorithm::PS256
        | Algorithm::PS384
        | Algorithm::PS512 => EncodingKey::from_rsa_pem(pem.as_bytes()).unwrap(),
        Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem.as_bytes()).unwrap(),
        Algorithm::EdDSA => EncodingKey::from_ed_pem(pem.as_bytes()).unwrap(),
        Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512 => {
            EncodingKey::from_secret(pem.as_bytes())
        }
    }
}

fn sign(alg: Algorithm, pem: &str, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_owned);
    jsonwebtoken::encode(&header, claims, &encoding_key(alg, pem)).unwrap()
}

fn rs256(claims: &Value) -> String {
    sign(Algorithm::RS256, RSA1_KEY, Some("rsa-1"), claims)
}

fn b64url(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn set(items: &[&str]) -> std::collections::BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

async fn authenticator_for(keys: &[&str]) -> (MockServer, Authenticator) {
    let server = jwks_server(keys).await;
    let auth = Authenticator::new(&settings(&server)).unwrap();
    (server, auth)
}

// ---------------------------------------------------------------------------------------------
// valid tokens

#[tokio::test]
async fn valid_rs256_token_gives_principal() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK, EC1_JWK]).await;
    let principal = auth.authenticate(&rs256(&claims())).await.unwrap();
    assert_eq!(
        principal,
        Principal {
            subject: "citizen-42".into(),
            scopes: set(&["reports:read", "reports:write"]),
            roles: set(&["citizen", "moderator"]),
            client_id: Some("city-app".into()),
        }
    );
    assert!(principal.has_scope("reports:read"));
    assert!(!principal.has_scope("reports"));
    assert!(principal.require_scope("reports:write").is_ok());
    let denied = principal.require_scope("admin").unwrap_err();
    assert_eq!(denied.status().as_u16(), 403);
    assert_eq!(denied.name(), "FORBIDDEN");
}

#[tokio::test]
async fn valid_ps256_token_with_rsa_key() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let token = sign(Algorithm::PS256, RSA1_KEY, Some("rsa-1"), &claims());
    assert_eq!(
        auth.authenticate(&token).await.unwrap().subject,
        "citizen-42"
    );
}

#[tokio::test]
async fn valid_es256_token_with_scp_array_and_client_id_fallback() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK, EC1_JWK]).await;
    let c = without(without(claims(), "scope"), "azp");
    let c = with(c, "scp", json!(["a:read", "b:write"]));
    let c = with(c, "client_id", json!("kiosk"));
    let token = sign(Algorithm::ES256, EC1_KEY, Some("ec-1"), &c);
    let principal = auth.authenticate(&token).await.unwrap();
    assert_eq!(principal.scopes, set(&["a:read", "b:write"]));
    assert_eq!(principal.client_id.as_deref(), Some("kiosk"));
}

#[tokio::test]
async fn valid_eddsa_token() {
    let (_server, auth) = authenticator_for(&[ED1_JWK]).await;
    let token = sign(Algorithm::EdDSA, ED1_KEY, Some("ed-1"), &claims());
    assert_eq!(
        auth.authenticate(&token).await.unwrap().subject,
        "citizen-42"
    );
}

#[tokio::test]
async fn scp_as_string_roles_as_space_separated_string() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = without(claims(), "scope");
    let c = with(c, "scp", json!("x y"));
    let c = with(c, "realm_access", json!({ "roles": "clerk  citizen" }));
    let principal = auth.authenticate(&rs256(&c)).await.unwrap();
    assert_eq!(principal.scopes, set(&["x", "y"]));
    assert_eq!(principal.roles, set(&["clerk", "citizen"]));
}

#[tokio::test]
async fn top_level_roles_claim_by_default() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let settings = AuthSettings {
        roles_claim: AuthSettings::default().roles_claim,
        ..settings(&server)
    };
    assert_eq!(settings.roles_claim, "roles");
    let auth = Authenticator::new(&settings).unwrap();
    let c = with(claims(), "roles", json!(["staff"]));
    assert_eq!(
        auth.authenticate(&rs256(&c)).await.unwrap().roles,
        set(&["staff"])
    );
}

#[tokio::test]
async fn token_without_kid_is_matched_by_algorithm() {
    let (_server, auth) = authenticator_for(&[EC1_JWK, RSA2_JWK, RSA1_JWK]).await;
    let token = sign(Algorithm::RS256, RSA1_KEY, None, &claims());
    assert!(auth.authenticate(&token).await.is_ok());
}

#[tokio::test]
async fn audience_array_containing_ours_is_accepted() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = with(claims(), "aud", json!(["account", AUDIENCE]));
    assert!(auth.authenticate(&rs256(&c)).await.is_ok());
}

#[tokio::test]
async fn no_issuer_or_audience_configured_accepts_any() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let settings = AuthSettings {
        issuer: None,
        audience: None,
        ..settings(&server)
    };
    let auth = Authenticator::new(&settings).unwrap();
    let c = with(with(claims(), "iss", json!("other")), "aud", json!("else"));
    assert!(auth.authenticate(&rs256(&c)).await.is_ok());
    let c = without(without(claims(), "iss"), "aud");
    assert!(auth.authenticate(&rs256(&c)).await.is_ok());
}

// ---------------------------------------------------------------------------------------------
// refused tokens

#[tokio::test]
async fn expired_token_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = with(claims(), "exp", json!(now() - 3600));
    assert_eq!(auth.authenticate(&rs256(&c)).await, Err(AuthError::Expired));
    // Within the leeway (30 s) still accepted.
    let c = with(claims(), "exp", json!(now() - 5));
    assert!(auth.authenticate(&rs256(&c)).await.is_ok());
}

#[tokio::test]
async fn token_without_exp_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = without(claims(), "exp");
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::MissingClaim("exp"))
    );
}

#[tokio::test]
async fn not_yet_valid_token_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = with(claims(), "nbf", json!(now() + 3600));
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::NotYetValid)
    );
    let c = with(claims(), "nbf", json!(now() - 10));
    assert!(auth.authenticate(&rs256(&c)).await.is_ok());
}

#[tokio::test]
async fn wrong_issuer_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = with(claims(), "iss", json!("https://evil.example"));
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::WrongIssuer)
    );
    let c = without(claims(), "iss");
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::MissingClaim("iss"))
    );
}

#[tokio::test]
async fn wrong_audience_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = with(claims(), "aud", json!("another-api"));
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::WrongAudience)
    );
    let c = with(claims(), "aud", json!(["another-api", "account"]));
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::WrongAudience)
    );
    let c = without(claims(), "aud");
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::MissingClaim("aud"))
    );
}

#[tokio::test]
async fn missing_or_empty_sub_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    let c = without(claims(), "sub");
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::MissingClaim("sub"))
    );
    let c = with(claims(), "sub", json!("  "));
    assert_eq!(
        auth.authenticate(&rs256(&c)).await,
        Err(AuthError::MissingClaim("sub"))
    );
}

#[tokio::test]
async fn tampered_payload_fails_signature() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK, EC1_JWK]).await;
    for token in [
        rs256(&claims()),
        sign(Algorithm::ES256, EC1_KEY, Some("ec-1"), &claims()),
    ] {
        let parts: Vec<&str> = token.split('.').collect();
        let forged = with(claims(), "sub", json!("admin"));
        let forged_payload = b64url(forged.to_string().as_bytes());
        let tampered = format!("{}.{}.{}", parts[0], forged_payload, parts[2]);
        assert_eq!(
            auth.authenticate(&tampered).await,
            Err(AuthError::BadSignature)
        );
    }
    // Signed by another RSA key under rsa-1's kid.
    let other = sign(Algorithm::RS256, RSA2_KEY, Some("rsa-1"), &claims());
    assert_eq!(
        auth.authenticate(&other).await,
        Err(AuthError::BadSignature)
    );
}

#[tokio::test]
async fn alg_none_is_refused() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    for header in [
        json!({"alg": "none", "typ": "JWT"}),
        json!({"alg": "none", "kid": "rsa-1"}),
        json!({"alg": "None"}),
    ] {
        let token = format!(
            "{}.{}.",
            b64url(header.to_string().as_bytes()),
            b64url(claims().to_string().as_bytes())
        );
        assert!(auth.authenticate(&token).await.is_err(), "{header}");
        // Also with a junk signature part.
        let token = format!("{token}c2ln");
        assert!(auth.authenticate(&token).await.is_err(), "{header}");
    }
}

#[tokio::test]
async fn hs256_signed_with_the_public_key_is_refused() {
    let n = serde_json::from_str::<Value>(RSA1_JWK).unwrap()["n"]
        .as_str()
        .unwrap()
        .to_owned();
    let server = jwks_server(&[RSA1_JWK]).await;
    let jwks_only = Authenticator::new(&settings(&server)).unwrap();
    let with_dev_secret = Authenticator::new(&AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        ..settings(&server)
    })
    .unwrap();
    for secret in [RSA1_PUB, RSA1_JWK, n.as_str()] {
        for alg in [Algorithm::HS256, Algorithm::HS384, Algorithm::HS512] {
            let token = sign(alg, secret, Some("rsa-1"), &claims());
            assert_eq!(
                jwks_only.authenticate(&token).await,
                Err(AuthError::AlgorithmNotAccepted)
            );
            let expected = if alg == Algorithm::HS256 {
                AuthError::BadSignature
            } else {
                AuthError::AlgorithmNotAccepted
            };
            assert_eq!(with_dev_secret.authenticate(&token).await, Err(expected));
        }
    }
}

#[tokio::test]
async fn algorithm_must_fit_the_key_type() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK, EC1_JWK]).await;
    // RSA signature claiming the EC key's kid.
    let token = sign(Algorithm::RS256, RSA1_KEY, Some("ec-1"), &claims());
    assert_eq!(
        auth.authenticate(&token).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
    // EC signature claiming the RSA key's kid.
    let token = sign(Algorithm::ES256, EC1_KEY, Some("rsa-1"), &claims());
    assert_eq!(
        auth.authenticate(&token).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
}

#[tokio::test]
async fn jwk_alg_restricts_the_key() {
    let mut jwk: Value = serde_json::from_str(RSA1_JWK).unwrap();
    jwk["alg"] = json!("RS256");
    let jwk = jwk.to_string();
    let (_server, auth) = authenticator_for(&[&jwk]).await;
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    let token = sign(Algorithm::PS256, RSA1_KEY, Some("rsa-1"), &claims());
    assert_eq!(
        auth.authenticate(&token).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
}

#[tokio::test]
async fn symmetric_and_encryption_keys_in_jwks_are_ignored() {
    // An `oct` key in the JWKS must never verify anything, even HS256 under its kid.
    let oct = json!({"kty": "oct", "kid": "sym", "k": b64url(b"shared-secret")}).to_string();
    let mut enc: Value = serde_json::from_str(RSA2_JWK).unwrap();
    enc["use"] = json!("enc");
    let enc = enc.to_string();
    let (_server, auth) = authenticator_for(&[&oct, &enc, RSA1_JWK]).await;
    let token = sign(Algorithm::HS256, "shared-secret", Some("sym"), &claims());
    assert_eq!(
        auth.authenticate(&token).await,
        Err(AuthError::AlgorithmNotAccepted)
    );
    let token = sign(Algorithm::RS256, RSA2_KEY, Some("rsa-2"), &claims());
    assert_eq!(auth.authenticate(&token).await, Err(AuthError::UnknownKey));
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
}

#[tokio::test]
async fn garbage_tokens_are_malformed() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK]).await;
    for token in ["abc", "a.b.c", "..", "eyJ.eyJ.sig"] {
        assert_eq!(
            auth.authenticate(token).await,
            Err(AuthError::Malformed),
            "{token}"
        );
    }
    assert_eq!(auth.authenticate("").await, Err(AuthError::MissingToken));
}

// ---------------------------------------------------------------------------------------------
// JWKS cache and rotation

#[tokio::test]
async fn unknown_kid_is_refused_then_accepted_after_rotation() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let auth = Authenticator::new(&settings(&server)).unwrap();
    let rotated = sign(Algorithm::RS256, RSA2_KEY, Some("rsa-2"), &claims());

    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    assert_eq!(jwks_fetches(&server).await, 1);
    assert_eq!(
        auth.authenticate(&rotated).await,
        Err(AuthError::UnknownKey)
    );
    assert_eq!(jwks_fetches(&server).await, 2, "unknown kid refetches");

    // The provider rotates: rsa-2 is published.
    server.reset().await;
    mount_jwks(&server, &[RSA2_JWK, RSA1_JWK]).await;
    assert_eq!(
        auth.authenticate(&rotated).await.unwrap().subject,
        "citizen-42"
    );
    assert_eq!(jwks_fetches(&server).await, 1);
    // Now cached: no more fetches for either key.
    assert!(auth.authenticate(&rotated).await.is_ok());
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    assert_eq!(jwks_fetches(&server).await, 1);
}

#[tokio::test]
async fn unknown_kid_refetch_is_rate_limited() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let settings = AuthSettings {
        jwks_min_refetch_seconds: AuthSettings::default().jwks_min_refetch_seconds,
        ..settings(&server)
    };
    assert_eq!(settings.jwks_min_refetch_seconds, 10);
    let auth = Authenticator::new(&settings).unwrap();
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    for i in 0..20 {
        let token = sign(
            Algorithm::RS256,
            RSA2_KEY,
            Some(&format!("forged-{i}")),
            &claims(),
        );
        assert_eq!(auth.authenticate(&token).await, Err(AuthError::UnknownKey));
    }
    assert_eq!(
        jwks_fetches(&server).await,
        1,
        "at most one fetch per interval"
    );
    // Known keys keep working meanwhile.
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
}

#[tokio::test]
async fn keys_are_cached_and_refetched_when_aged_out() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let auth = Authenticator::new(&settings(&server)).unwrap();
    for _ in 0..5 {
        assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    }
    assert_eq!(jwks_fetches(&server).await, 1);

    let server = jwks_server(&[RSA1_JWK]).await;
    let settings = AuthSettings {
        jwks_cache_seconds: 0,
        ..settings(&server)
    };
    let auth = Authenticator::new(&settings).unwrap();
    for _ in 0..3 {
        assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    }
    assert_eq!(jwks_fetches(&server).await, 3);
}

#[tokio::test]
async fn jwks_down_gives_503_but_stale_keys_keep_working() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let auth = Authenticator::new(&settings(&server)).unwrap();
    let err = auth.authenticate(&rs256(&claims())).await.unwrap_err();
    assert_eq!(err, AuthError::KeysUnavailable);
    assert_eq!(ApiError::from(err).status().as_u16(), 503);

    // Fetched once, then the provider fails: the stale keys are used.
    let server = jwks_server(&[RSA1_JWK]).await;
    let settings = AuthSettings {
        jwks_cache_seconds: 0,
        ..settings(&server)
    };
    let auth = Authenticator::new(&settings).unwrap();
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    server.reset().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    assert!(auth.authenticate(&rs256(&claims())).await.is_ok());
    assert_eq!(jwks_fetches(&server).await, 1, "it did try to refresh");
}

// ---------------------------------------------------------------------------------------------
// configuration and dev tokens

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

fn dev_request() -> DevTokenRequest {
    DevTokenRequest {
        subject: "dev-user".into(),
        scopes: vec!["reports:read".into(), "admin".into()],
        roles: vec!["clerk".into()],
        client_id: Some("cli".into()),
        ttl: Duration::from_secs(600),
    }
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

// ---------------------------------------------------------------------------------------------
// axum extractors over real HTTP

#[derive(Clone, FromRef)]
struct AppState {
    auth: Authenticator,
    greeting: &'static str,
}

async fn me(Auth(principal): Auth) -> Json<Value> {
    Json(json!({ "sub": principal.subject }))
}

async fn maybe(MaybeAuth(principal): MaybeAuth) -> String {
    principal.map_or_else(|| "anonymous".to_owned(), |p| p.subject)
}

async fn admin(
    axum::extract::State(greeting): axum::extract::State<&'static str>,
    Auth(principal): Auth,
) -> Result<String, ApiError> {
    principal.require_scope("admin")?;
    Ok(format!("{greeting} {}", principal.subject))
}

async fn serve(auth: Authenticator) -> String {
    let app = Router::new()
        .route("/me", get(me))
        .route("/maybe", get(maybe))
        .route("/admin", get(admin))
        .with_state(AppState {
            auth,
            greeting: "hello",
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

async fn error_body(response: reqwest::Response, status: u16) -> ErrorBody {
    assert_eq!(response.status().as_u16(), status);
    let raw: Value = response.json().await.unwrap();
    for key in ["statusCode", "name", "userinfo"] {
        assert!(raw.get(key).is_some(), "{key} missing in {raw}");
    }
    serde_json::from_value(raw).unwrap()
}

#[tokio::test]
async fn extractors_over_http() {
    let server = jwks_server(&[RSA1_JWK]).await;
    let base = serve(Authenticator::new(&settings(&server)).unwrap()).await;
    let http = reqwest::Client::new();
    let token = rs256(&claims());
    let admin_token = rs256(&with(claims(), "scope", json!("admin")));
    let expired = rs256(&with(claims(), "exp", json!(now() - 3600)));

    // Auth: no header.
    let response = http.get(format!("{base}/me")).send().await.unwrap();
    assert_eq!(
        response.headers().get("www-authenticate").unwrap(),
        "Bearer"
    );
    let body = error_body(response, 401).await;
    assert_eq!(body.status_code, 401);
    assert_eq!(body.name, "UNAUTHORIZED");
    assert_eq!(body.userinfo, "missing bearer token");

    // Auth: wrong scheme.
    let response = http
        .get(format!("{base}/me"))
        .header("authorization", "Basic dXNlcjpwYXNz")
        .send()
        .await
        .unwrap();
    let body = error_body(response, 401).await;
    assert_eq!(body.name, "UNAUTHORIZED");
    assert!(body.userinfo.contains("Bearer"), "{}", body.userinfo);

    // Auth: expired; the token is never echoed.
    let response = http
        .get(format!("{base}/me"))
        .bearer_auth(&expired)
        .send()
        .await
        .unwrap();
    let body = error_body(response, 401).await;
    assert_eq!(body.userinfo, "token expired");

    // Auth: tampered signature.
    let response = http
        .get(format!("{base}/me"))
        .bearer_auth(format!("{token}x"))
        .send()
        .await
        .unwrap();
    let body = error_body(response, 401).await;
    assert_eq!(body.name, "UNAUTHORIZED");
    assert!(!body.userinfo.contains(&token[..20]));

    // Auth: valid (scheme is case-insensitive).
    let response = http
        .get(format!("{base}/me"))
        .header("authorization", format!("bearer {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({"sub": "citizen-42"}));

    // MaybeAuth: anonymous, valid, invalid.
    let response = http.get(format!("{base}/maybe")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.text().await.unwrap(), "anonymous");
    let response = http
        .get(format!("{base}/maybe"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.text().await.unwrap(), "citizen-42");
    let response = http
        .get(format!("{base}/maybe"))
        .bearer_auth(&expired)
        .send()
        .await
        .unwrap();
    assert_eq!(error_body(response, 401).await.userinfo, "token expired");
    let response = http
        .get(format!("{base}/maybe"))
        .header("authorization", "Basic dXNlcjpwYXNz")
        .send()
        .await
        .unwrap();
    assert_eq!(error_body(response, 401).await.name, "UNAUTHORIZED");

    // require_scope: 403 FORBIDDEN without the scope, 200 with it.
    let response = http
        .get(format!("{base}/admin"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(response.headers().get("www-authenticate").is_none());
    let body = error_body(response, 403).await;
    assert_eq!(body.status_code, 403);
    assert_eq!(body.name, "FORBIDDEN");
    assert!(body.userinfo.contains("admin"), "{}", body.userinfo);
    let response = http
        .get(format!("{base}/admin"))
        .bearer_auth(&admin_token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.text().await.unwrap(), "hello citizen-42");
}

#[tokio::test]
async fn extractor_with_authenticator_as_whole_state() {
    let settings = AuthSettings {
        dev_secret: Some("local-dev-secret".into()),
        ..AuthSettings::default()
    };
    let auth = Authenticator::new(&settings).unwrap();
    let app = Router::new().route("/me", get(me)).with_state(auth);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let token = mint_dev_token(&settings, &dev_request()).unwrap();
    let response = reqwest::Client::new()
        .get(format!("http://{addr}/me"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
}
