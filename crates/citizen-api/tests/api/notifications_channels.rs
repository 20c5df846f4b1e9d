//! `/me/notifications/webpush` and `/me/notifications/email`: subscribing, the checks of
//! endpoints, keys and the e-mail claim, and unsubscribing.

use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;

use crate::helpers::{assert_error, TestApp};
use crate::notifications_helpers::{browser_keys, token_with};

on_both_backends!(crate::helpers::spawn_app;
    webpush_subscribe_status_and_unsubscribe,
    webpush_refuses_other_hosts_plain_http_and_bad_keys,
    email_uses_the_token_address_and_needs_one,
);

const FCM: &str = "https://fcm.googleapis.com/fcm/send/abc:def";
const APPLE: &str = "https://web.push.apple.com/QGuQyavXutnMH";

fn q(endpoint: &str) -> String {
    format!(
        "/me/notifications/webpush?endpoint={}",
        form_urlencoded::byte_serialize(endpoint.as_bytes()).collect::<String>()
    )
}

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = app
        .http
        .request(method, format!("{}{path}", app.base))
        .bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    crate::helpers::answer(request).await
}

async fn webpush_subscribe_status_and_unsubscribe(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    let (_, keys) = browser_keys();
    let (status, body) = app.get_as(&q(FCM), Some(&me)).await;
    assert_eq!((status, body), (200, json!({"status": false})));
    for endpoint in [FCM, APPLE] {
        let sub = json!({"endpoint": endpoint, "keys": keys});
        let (status, body) = app
            .send_json(Method::POST, "/me/notifications/webpush", &me, &sub)
            .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body, json!({ "subscription": sub }));
    }
    assert_eq!(
        app.get_as(&q(FCM), Some(&me)).await.1,
        json!({"status": true})
    );
    // Someone else's subscription is not theirs.
    let other = app.token("citizen-2", &[]);
    assert_eq!(
        app.get_as(&q(FCM), Some(&other)).await.1,
        json!({"status": false})
    );
    let (status, body) = send(&app, Method::DELETE, &q(FCM), &other, None).await;
    assert_error(status, &body, 404, "WEBPUSH_SUBSCRIPTION_NOT_FOUND");

    let (status, body) = send(&app, Method::DELETE, &q(FCM), &me, None).await;
    assert_eq!((status, body), (201, json!({"endpoint": FCM})));
    assert_eq!(
        app.get_as(&q(FCM), Some(&me)).await.1,
        json!({"status": false})
    );
    assert_eq!(
        app.get_as(&q(APPLE), Some(&me)).await.1,
        json!({"status": true})
    );
    let (status, body) = send(&app, Method::DELETE, &q(FCM), &me, None).await;
    assert_error(status, &body, 404, "WEBPUSH_SUBSCRIPTION_NOT_FOUND");
    // The endpoint is required.
    let (status, body) = app.get_as("/me/notifications/webpush", Some(&me)).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    let (status, _) = app.get("/me/notifications/webpush?endpoint=x").await;
    assert_eq!(status, 401);
}

async fn webpush_refuses_other_hosts_plain_http_and_bad_keys(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    let (_, keys) = browser_keys();
    for endpoint in [
        "https://evil.example.org/push",
        "http://fcm.googleapis.com/fcm/send/x",
        "https://push.apple.com/x",
        "https://fcm.googleapis.com.evil.org/x",
        "https://user@fcm.googleapis.com/x",
        "https://127.0.0.1/x",
        "not a url",
        "",
    ] {
        let sub = json!({"endpoint": endpoint, "keys": keys});
        let (status, body) = app
            .send_json(Method::POST, "/me/notifications/webpush", &me, &sub)
            .await;
        assert_error(status, &body, 400, "WEBPUSH_ENDPOINT_NOT_ALLOWED");
    }
    let p256dh = keys["p256dh"].as_str().unwrap();
    let auth = keys["auth"].as_str().unwrap();
    let mut not_on_curve = base64_decode(p256dh);
    not_on_curve[64] ^= 1;
    for (p, a) in [
        ("AAAA".to_owned(), auth.to_owned()),
        (base64_encode(&not_on_curve), auth.to_owned()),
        (base64_encode(&base64_decode(p256dh)[..33]), auth.to_owned()),
        ("!!".to_owned(), auth.to_owned()),
        (p256dh.to_owned(), "AAAA".to_owned()),
        (p256dh.to_owned(), base64_encode(&[0u8; 17])),
    ] {
        let sub = json!({"endpoint": FCM, "keys": {"p256dh": p, "auth": a}});
        let (status, body) = app
            .send_json(Method::POST, "/me/notifications/webpush", &me, &sub)
            .await;
        assert_error(status, &body, 400, "INVALID_WEBPUSH_KEYS");
    }
    for body in [
        json!({"endpoint": FCM}),
        json!({"endpoint": FCM, "keys": keys, "expirationTime": null}),
        json!({"endpoint": FCM, "keys": {"p256dh": p256dh}}),
    ] {
        let (status, _) = app
            .send_json(Method::POST, "/me/notifications/webpush", &me, &body)
            .await;
        assert_eq!(status, 400, "{body}");
    }
    assert_eq!(
        app.get_as(&q(FCM), Some(&me)).await.1,
        json!({"status": false})
    );
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .unwrap()
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

async fn email_uses_the_token_address_and_needs_one(app: TestApp) {
    let none = token_with("citizen-1", None, None);
    let (status, body) = app.get_as("/me/notifications/email", Some(&none)).await;
    assert_eq!((status, body), (200, json!({"status": false})));
    let (status, body) = send(&app, Method::POST, "/me/notifications/email", &none, None).await;
    assert_error(status, &body, 400, "EMAIL_CLAIM_MISSING");

    let with = token_with("citizen-1", Some("jana@example.org"), Some("cs"));
    let (status, body) = send(&app, Method::POST, "/me/notifications/email", &with, None).await;
    assert_eq!((status, body), (201, json!({"email": "jana@example.org"})));
    let (_, body) = app.get_as("/me/notifications/email", Some(&none)).await;
    assert_eq!(body, json!({"status": true}));
    let (_, body) = app
        .get_as(
            "/me/notifications/email",
            Some(&app.token("citizen-2", &[])),
        )
        .await;
    assert_eq!(body, json!({"status": false}));

    let (status, body) = send(&app, Method::DELETE, "/me/notifications/email", &with, None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["message"], "Oznámení už vám e-mailem chodit nebudou.");
    let (_, body) = app.get_as("/me/notifications/email", Some(&none)).await;
    assert_eq!(body, json!({"status": false}));
    // Nothing to stop is fine.
    let (status, body) = send(&app, Method::DELETE, "/me/notifications/email", &none, None).await;
    assert_eq!(status, 201);
    assert_eq!(
        body["message"],
        "You will no longer receive notifications by e-mail."
    );
}

/// `GET /notifications/webpush/public-key`: the key of `notifications.webpush.vapid_private_key`
/// for anyone (a browser subscribes with it), 404 `WEBPUSH_NOT_CONFIGURED` without one.
#[tokio::test]
async fn the_vapid_public_key_is_served_when_pushes_are_sent() {
    use crate::notifications_push::VAPID_PRIVATE;
    use citizen_api::notify::push_send::PushSender;
    let db = std::sync::Arc::new(
        test_support::database(test_support::Backend::Sqlite, "vapid")
            .await
            .unwrap(),
    );
    let path = "/notifications/webpush/public-key";
    let without = crate::helpers::spawn_on(db.clone(), |_| {}).await;
    let (status, body) = without.get(path).await;
    assert_error(status, &body, 404, "WEBPUSH_NOT_CONFIGURED");
    drop(without);

    let with = crate::helpers::spawn_on(db, |s| {
        s.notifications.webpush.vapid_private_key = Some(VAPID_PRIVATE.to_owned().into());
    })
    .await;
    let (status, body) = with.get(path).await;
    assert_eq!(status, 200, "{body}");
    let expected = PushSender::new(VAPID_PRIVATE, "mailto:ops@example.org", 60)
        .unwrap()
        .public_key();
    assert_eq!(body, json!({ "public_key": expected }));
    // An uncompressed P-256 point: 65 bytes, 87 base64url characters.
    assert_eq!(expected.len(), 87);
}
