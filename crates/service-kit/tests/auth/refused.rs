//! Tokens that are refused, and why.
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

/// The trusted JWKS (with `ISSUER` required) and the dev secret (no issuer configured, and
/// the same with `ISSUER`): both ways a service verifies a token.
async fn both_paths() -> (
    MockServer,
    Vec<(&'static str, Authenticator, Algorithm, String)>,
) {
    let server = jwks_server(&[RSA1_JWK]).await;
    let jwks = Authenticator::new(&settings(&server)).unwrap();
    let dev = |issuer: Option<&str>| {
        Authenticator::new(&AuthSettings {
            dev_secret: Some("local-dev-secret".into()),
            issuer: issuer.map(str::to_owned),
            ..AuthSettings::default()
        })
        .unwrap()
    };
    let paths = vec![
        ("jwks", jwks, Algorithm::RS256, RSA1_KEY.to_owned()),
        (
            "dev",
            dev(None),
            Algorithm::HS256,
            "local-dev-secret".to_owned(),
        ),
        (
            "dev with issuer",
            dev(Some(ISSUER)),
            Algorithm::HS256,
            "local-dev-secret".to_owned(),
        ),
    ];
    (server, paths)
}

#[tokio::test]
async fn an_issuer_array_is_refused() {
    // RFC 7519 §4.1.1: `iss` is one StringOrURI; an array naming the trusted issuer among others
    // must not pass as that issuer.
    let (_server, paths) = both_paths().await;
    for (name, auth, alg, key) in paths {
        for iss in [
            json!(["https://evil.example/", ISSUER]),
            json!([ISSUER]),
            json!({"iss": ISSUER}),
            json!(7),
        ] {
            let token = sign(
                alg,
                &key,
                Some("rsa-1"),
                &with(claims(), "iss", iss.clone()),
            );
            let refused = auth.authenticate(&token).await.unwrap_err();
            assert!(
                matches!(
                    refused,
                    AuthError::InvalidClaim("iss")
                        | AuthError::WrongIssuer
                        | AuthError::MissingClaim("iss")
                ),
                "{name}, iss {iss}: {refused:?}"
            );
        }
        let token = sign(alg, &key, Some("rsa-1"), &claims());
        assert!(auth.authenticate(&token).await.is_ok(), "{name}");
    }
}

#[tokio::test]
async fn a_critical_header_extension_is_refused() {
    // RFC 7515 §4.1.11: an extension marked critical that the recipient does not understand
    // (this one understands none) makes the token invalid, however well it is signed.
    let (_server, paths) = both_paths().await;
    for (name, auth, alg, key) in paths {
        for crit in [vec!["acc-ext".to_owned()], vec!["exp".to_owned()], vec![]] {
            let mut header = Header::new(alg);
            header.kid = Some("rsa-1".into());
            header.crit = Some(crit.clone());
            header.extras.insert("acc-ext".into(), "1".into());
            let token = jsonwebtoken::encode(&header, &claims(), &encoding_key(alg, &key)).unwrap();
            assert_eq!(
                auth.authenticate(&token).await,
                Err(AuthError::CriticalExtension),
                "{name}, crit {crit:?}"
            );
        }
    }
}
