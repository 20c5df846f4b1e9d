//! Tokens the RFCs refuse, however well signed: an `iss` that is not one string (RFC 7519
//! §4.1.1) and a header naming critical extensions (RFC 7515 §4.1.11), by the identity
//! provider's keys (JWKS) and by the dev secret.

use std::sync::Arc;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::helpers::*;

test_support::on_both_backends!(crate::tokens::spawn_with_jwks;
    tokens_the_rfcs_refuse_are_401,
);

const ISSUER: &str = "https://id.city.example/realms/citizens";
/// service-kit's test key and its JWK (`crates/service-kit/tests/fixtures/auth`).
const RSA1_KEY: &str = include_str!("../../../service-kit/tests/fixtures/auth/rsa1.key.pem");
const RSA1_JWK: &str = include_str!("../../../service-kit/tests/fixtures/auth/rsa1.jwk.json");

/// The service trusting the JWKS of `_jwks` and the dev secret, with the issuer set.
pub struct JwksApp {
    app: TestApp,
    _jwks: MockServer,
}

pub async fn spawn_with_jwks(backend: test_support::Backend) -> Option<JwksApp> {
    let db = Arc::new(test_support::database(backend, "citizen").await?);
    let server = MockServer::start().await;
    let jwk: Value = serde_json::from_str(RSA1_JWK).unwrap();
    Mock::given(method("GET"))
        .and(path("/jwks"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"keys": [jwk]})))
        .mount(&server)
        .await;
    let url = format!("{}/jwks", server.uri());
    let app = spawn_on(db, |s| {
        s.auth.jwks_url = Some(url);
        s.auth.issuer = Some(ISSUER.into());
    })
    .await;
    Some(JwksApp { app, _jwks: server })
}

fn signed(alg: Algorithm, crit: Option<&str>, iss: Value) -> String {
    let now = chrono::Utc::now().timestamp();
    let claims = json!({"sub": "citizen-1", "iss": iss, "iat": now, "exp": now + 600});
    let mut header = Header::new(alg);
    header.crit = crit.map(|c| vec![c.to_owned()]);
    let key = match alg {
        Algorithm::RS256 => {
            header.kid = Some("rsa-1".into());
            EncodingKey::from_rsa_pem(RSA1_KEY.as_bytes()).unwrap()
        }
        _ => EncodingKey::from_secret(DEV_SECRET.as_bytes()),
    };
    jsonwebtoken::encode(&header, &claims, &key).unwrap()
}

async fn tokens_the_rfcs_refuse_are_401(JwksApp { app, _jwks }: JwksApp) {
    for alg in [Algorithm::RS256, Algorithm::HS256] {
        let (status, _) = app
            .get_as("/me/reports", Some(&signed(alg, None, json!(ISSUER))))
            .await;
        assert_eq!(status, 200, "{alg:?}: a proper token");
        for (token, userinfo) in [
            (
                signed(alg, None, json!(["https://evil.example/", ISSUER])),
                "token claim `iss` is malformed",
            ),
            (
                signed(alg, Some("acc-ext"), json!(ISSUER)),
                "token requires extensions (crit) that are not understood",
            ),
        ] {
            let (status, body) = app.get_as("/me/reports", Some(&token)).await;
            assert_eq!(status, 401, "{alg:?}: {body}");
            assert_eq!(body["statusCode"], 401, "{body}");
            assert_eq!(body["name"], "UNAUTHORIZED", "{body}");
            assert_eq!(body["userinfo"], userinfo, "{alg:?}");
        }
    }
}
