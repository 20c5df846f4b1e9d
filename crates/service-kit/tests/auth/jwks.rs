//! The JWKS cache: rotation, rate-limited refetch, ageing, outage.
#![allow(unused_imports)]

use crate::helpers::*;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use service_kit::auth::{
    mint_dev_token, AuthError, AuthSettings, Authenticator, DevTokenArgs, DevTokenRequest,
    MaybeAuth, Principal,
};
use service_kit::ApiError;
use std::time::Duration;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

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
