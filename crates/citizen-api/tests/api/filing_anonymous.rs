//! Anonymous filing: the CAPTCHA (against a local stand-in of the siteverify endpoint) and the
//! per-address rate limit.

use std::sync::Arc;

use secrecy::SecretString;
use test_support::{on_both_backends, Backend};
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::helpers::{assert_error, form, spawn_on, TestApp};

pub struct Anonymous {
    app: TestApp,
    verifier: MockServer,
}

pub async fn spawn_anonymous(backend: Backend) -> Option<Anonymous> {
    let verifier = MockServer::start().await;
    let db = Arc::new(test_support::database(backend, "anon").await?);
    let url = format!("{}/siteverify", verifier.uri());
    let app = spawn_on(db, move |s| {
        s.captcha.enabled = true;
        s.captcha.verify_url = url;
        s.captcha.secret = Some(SecretString::from("test-captcha-secret"));
        s.captcha.min_score = 0.5;
        s.rate_limit.anonymous_reports_per_hour = 1;
        s.rate_limit.burst = 3;
    })
    .await;
    Some(Anonymous { app, verifier })
}

on_both_backends!(crate::filing_anonymous::spawn_anonymous;
    anonymous_filing_needs_a_passing_captcha,
    anonymous_filings_are_rate_limited_per_address,
);

fn answer(success: bool, score: f64) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(serde_json::json!({
        "success": success, "score": score, "action": "report", "hostname": "localhost"
    }))
}

async fn anonymous_filing_needs_a_passing_captcha(t: Anonymous) {
    let (app, verifier) = (&t.app, &t.verifier);
    Mock::given(method("POST"))
        .and(path("/siteverify"))
        .and(body_string_contains("response=good-token"))
        .and(body_string_contains("secret=test-captcha-secret"))
        .respond_with(answer(true, 0.9))
        .mount(verifier)
        .await;
    Mock::given(method("POST"))
        .and(path("/siteverify"))
        .and(body_string_contains("response=bot-token"))
        .respond_with(answer(true, 0.1))
        .mount(verifier)
        .await;
    // No token: refused without asking the verifier.
    let (status, _, body) = app.post_report(form("t", "d"), None).await;
    assert_error(status, &body, 403, "CAPTCHA_VERIFICATION_FAILED");
    // A low score.
    let (status, _, body) = app
        .post_report(form("t", "d").text("captchaToken", "bot-token"), None)
        .await;
    assert_error(status, &body, 403, "CAPTCHA_VERIFICATION_FAILED");
    // A good token: filed, anonymous (nobody's own report).
    let (status, _, body) = app
        .post_report(form("t", "d").text("captchaToken", "good-token"), None)
        .await;
    assert_eq!(status, 201, "{body}");
    let asked = verifier.received_requests().await.unwrap().len();
    assert_eq!(asked, 2, "the verifier is asked only when a token is sent");
    // Signed in: no token needed, the verifier is not asked.
    let token = app.token("citizen-1", &[]);
    let (status, _, body) = app.post_report(form("t", "d"), Some(&token)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(verifier.received_requests().await.unwrap().len(), asked);
    assert_eq!(app.listed_reports().await, 2);
}

async fn anonymous_filings_are_rate_limited_per_address(t: Anonymous) {
    let app = &t.app;
    Mock::given(method("POST"))
        .and(path("/siteverify"))
        .respond_with(answer(true, 0.9))
        .mount(&t.verifier)
        .await;
    let anonymous = || form("t", "d").text("captchaToken", "good-token");
    for _ in 0..3 {
        let (status, _, body) = app.post_report(anonymous(), None).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, headers, body) = app.post_report(anonymous(), None).await;
    assert_error(status, &body, 429, "TOO_MANY_REQUESTS");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((3500..=3600).contains(&retry), "one per hour: {retry}");
    // A signed-in citizen from the same address is not limited.
    let token = app.token("citizen-1", &[]);
    let (status, _, body) = app.post_report(form("t", "d"), Some(&token)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        app.get_ok("/reports").await["reports"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}
