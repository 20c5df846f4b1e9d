//! Sending a push to a local stand-in push service that checks the VAPID signature and decrypts
//! the payload with the subscription's private key, as a browser's push service and browser do.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use citizen_api::notify::push_send::{topic, PushOutcome, PushSender};
use citizen_api::store::notifications::PushSubscription;
use wiremock::matchers::path;
use wiremock::MockServer;

use test_support::webpush::decrypt;

use crate::notifications_helpers::browser_keys;

pub const VAPID_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";

/// Checks the request's VAPID header (signed by `public_key`, base64url) and returns its claims.
pub fn verify_vapid(request: &wiremock::Request, public_key: &str) -> serde_json::Value {
    let authorization = request
        .headers
        .get("authorization")
        .unwrap()
        .to_str()
        .unwrap();
    let (k, claims) = test_support::webpush::vapid_claims(authorization);
    assert_eq!(k, public_key);
    claims
}

async fn stand_in(status: u16) -> MockServer {
    crate::delivery_helpers::stand_in_at(status, path("/push/abc")).await
}

#[tokio::test]
async fn a_push_carries_vapid_a_stable_topic_and_a_payload_only_the_browser_reads() {
    let server = stand_in(201).await;
    let (browser, keys) = browser_keys();
    let sub = subscription(&server, &keys);
    let sender = PushSender::new(VAPID_PRIVATE, "mailto:ops@example.org", 86400).unwrap();
    let tag = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    let payload = br#"{"title":"Hl\u00e1\u0161en\u00ed","tag":"x"}"#;
    for _ in 0..2 {
        let outcome = sender
            .send(&sub, payload, &topic(tag), 1_700_000_000)
            .await
            .unwrap();
        assert_eq!(outcome, PushOutcome::Delivered);
    }
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    let auth = URL_SAFE_NO_PAD.decode(&sub.auth).unwrap();
    for request in &requests {
        let header = |name: &str| {
            request
                .headers
                .get(name)
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(header("content-encoding"), "aes128gcm");
        assert_eq!(header("ttl"), "86400");
        // The same event and recipient: the same topic on a repeat.
        assert_eq!(header("topic"), "0190a1b2c3d47e5f8a9b0c1d2e3f4a5b");
        let claims = verify_vapid(request, &sender.public_key());
        assert_eq!(claims["aud"], server.uri());
        assert_eq!(decrypt(&request.body, &browser, &auth), payload.to_vec());
    }
}

/// A subscription of `keys` at the stand-in `server`.
fn subscription(server: &MockServer, keys: &serde_json::Value) -> PushSubscription {
    PushSubscription {
        endpoint: format!("{}/push/abc", server.uri()),
        p256dh: keys["p256dh"].as_str().unwrap().into(),
        auth: keys["auth"].as_str().unwrap().into(),
        locale: None,
    }
}

#[tokio::test]
async fn the_push_services_answers_are_read_as_gone_retry_or_rejected() {
    let (_, keys) = browser_keys();
    let sender = PushSender::new(VAPID_PRIVATE, "mailto:ops@example.org", 60).unwrap();
    for (status, want) in [
        (404, PushOutcome::Gone),
        (410, PushOutcome::Gone),
        (413, PushOutcome::Rejected(413)),
    ] {
        let server = stand_in(status).await;
        let sub = subscription(&server, &keys);
        let outcome = sender.send(&sub, b"x", "t", 0).await.unwrap();
        assert_eq!(outcome, want, "{status}");
    }
    for status in [429, 503] {
        let server = stand_in(status).await;
        let sub = subscription(&server, &keys);
        let outcome = sender.send(&sub, b"x", "t", 0).await.unwrap();
        assert!(
            matches!(outcome, PushOutcome::Retry(_)),
            "{status}: {outcome:?}"
        );
    }
}
