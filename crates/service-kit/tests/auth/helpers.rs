//! Keys, claims and a JWKS server for the auth tests.
#![allow(dead_code)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use service_kit::auth::{AuthSettings, Authenticator};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub const ISSUER: &str = "https://id.city.example/realms/citizens";
pub const AUDIENCE: &str = "citizen-services";

pub const RSA1_KEY: &str = include_str!("../fixtures/auth/rsa1.key.pem");
pub const RSA1_PUB: &str = include_str!("../fixtures/auth/rsa1.pub.pem");
pub const RSA1_JWK: &str = include_str!("../fixtures/auth/rsa1.jwk.json");
pub const RSA2_KEY: &str = include_str!("../fixtures/auth/rsa2.key.pem");
pub const RSA2_JWK: &str = include_str!("../fixtures/auth/rsa2.jwk.json");
pub const EC1_KEY: &str = include_str!("../fixtures/auth/ec1.key.pem");
pub const EC1_JWK: &str = include_str!("../fixtures/auth/ec1.jwk.json");
pub const ED1_KEY: &str = include_str!("../fixtures/auth/ed1.key.pem");
pub const ED1_JWK: &str = include_str!("../fixtures/auth/ed1.jwk.json");

// ---------------------------------------------------------------------------------------------
// helpers

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

pub fn jwks(jwks: &[&str]) -> Value {
    let keys: Vec<Value> = jwks
        .iter()
        .map(|j| serde_json::from_str(j).unwrap())
        .collect();
    json!({ "keys": keys })
}

pub async fn mount_jwks(server: &MockServer, keys: &[&str]) {
    Mock::given(method("GET"))
        .and(path("/jwks"))
        .respond_with(ResponseTemplate::new(200).set_body_json(jwks(keys)))
        .mount(server)
        .await;
}

pub async fn jwks_server(keys: &[&str]) -> MockServer {
    let server = MockServer::start().await;
    mount_jwks(&server, keys).await;
    server
}

pub async fn jwks_fetches(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

pub fn settings(server: &MockServer) -> AuthSettings {
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

pub fn claims() -> Value {
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

pub fn with(mut claims: Value, key: &str, value: Value) -> Value {
    claims[key] = value;
    claims
}

pub fn without(mut claims: Value, key: &str) -> Value {
    claims.as_object_mut().unwrap().remove(key);
    claims
}

pub fn encoding_key(alg: Algorithm, pem: &str) -> EncodingKey {
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

pub fn sign(alg: Algorithm, pem: &str, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_owned);
    jsonwebtoken::encode(&header, claims, &encoding_key(alg, pem)).unwrap()
}

pub fn rs256(claims: &Value) -> String {
    sign(Algorithm::RS256, RSA1_KEY, Some("rsa-1"), claims)
}

pub fn b64url(data: &[u8]) -> String {
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

pub fn set(items: &[&str]) -> std::collections::BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub async fn authenticator_for(keys: &[&str]) -> (MockServer, Authenticator) {
    let server = jwks_server(keys).await;
    let auth = Authenticator::new(&settings(&server)).unwrap();
    (server, auth)
}

pub fn dev_request() -> service_kit::auth::DevTokenRequest {
    service_kit::auth::DevTokenRequest {
        subject: "dev-user".into(),
        scopes: vec!["reports:read".into(), "admin".into()],
        roles: vec!["clerk".into()],
        client_id: Some("cli".into()),
        email: None,
        locale: None,
        ttl: Duration::from_secs(600),
    }
}
