//! Tokens that are accepted.
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
            email: None,
            locale: None,
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

#[tokio::test]
async fn email_and_locale_claims_are_read_when_they_are_strings() {
    let (_server, auth) = authenticator_for(&[RSA1_JWK, EC1_JWK]).await;
    let both = with(
        with(claims(), "email", json!("a@example.org")),
        "locale",
        json!("cs"),
    );
    let principal = auth.authenticate(&rs256(&both)).await.unwrap();
    assert_eq!(principal.email.as_deref(), Some("a@example.org"));
    assert_eq!(principal.locale.as_deref(), Some("cs"));
    for odd in [json!(7), json!(""), json!(null)] {
        let token = rs256(&with(claims(), "email", odd));
        assert_eq!(auth.authenticate(&token).await.unwrap().email, None);
    }
}
