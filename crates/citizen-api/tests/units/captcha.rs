//! CAPTCHA verification against a local stand-in of `siteverify` (wiremock).

use std::net::IpAddr;
use std::time::{Duration, Instant};

use citizen_api::captcha::{CaptchaSettings, CaptchaVerifier};
use serde_json::{json, Value};
use service_kit::ApiError;
use wiremock::matchers::{body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const SECRET: &str = "s3cr3t-site-key";

fn settings(server: &MockServer) -> CaptchaSettings {
    CaptchaSettings {
        enabled: true,
        verify_url: format!("{}/recaptcha/api/siteverify", server.uri()),
        secret: Some(SECRET.to_owned().into()),
        min_score: 0.5,
        timeout_millis: 500,
        expected_action: None,
        expected_hostname: None,
    }
}

/// A verifier answering `answer` to every POST.
async fn answering(answer: ResponseTemplate) -> (MockServer, CaptchaVerifier) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/recaptcha/api/siteverify"))
        .respond_with(answer)
        .mount(&server)
        .await;
    let verifier = CaptchaVerifier::new(&settings(&server)).unwrap();
    (server, verifier)
}

fn json_answer(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(body)
}

/// Asserts a 403 CAPTCHA_VERIFICATION_FAILED with `key`.
fn assert_failed(result: Result<(), ApiError>, key: &str) {
    let err = result.unwrap_err();
    assert_eq!(err.status().as_u16(), 403);
    assert_eq!(err.name(), "CAPTCHA_VERIFICATION_FAILED");
    assert_eq!(err.message().map(|m| m.key), Some(key));
}

#[tokio::test]
async fn a_good_token_passes_and_the_form_carries_secret_response_and_remoteip() {
    let (server, verifier) = answering(json_answer(
        json!({"success": true, "score": 0.9, "action": "report"}),
    ))
    .await;
    let ip: IpAddr = "203.0.113.7".parse().unwrap();
    verifier.verify(Some("tok-en/+="), Some(ip)).await.unwrap();
    let requests: Vec<Request> = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        request.headers["content-type"].to_str().unwrap(),
        "application/x-www-form-urlencoded"
    );
    let form: Vec<(String, String)> = serde_urlencoded::from_bytes(&request.body).unwrap();
    assert_eq!(
        form,
        [
            ("secret".to_owned(), SECRET.to_owned()),
            ("response".to_owned(), "tok-en/+=".to_owned()),
            ("remoteip".to_owned(), "203.0.113.7".to_owned()),
        ]
    );
    // Without an address, no remoteip.
    verifier.verify(Some("t2"), None).await.unwrap();
    let requests = server.received_requests().await.unwrap();
    let form: Vec<(String, String)> = serde_urlencoded::from_bytes(&requests[1].body).unwrap();
    assert_eq!(form.len(), 2);
}

#[tokio::test]
async fn the_minimum_score_passes_and_just_below_fails() {
    let (_s, at_min) = answering(json_answer(json!({"success": true, "score": 0.5}))).await;
    at_min.verify(Some("t"), None).await.unwrap();
    let (_s, below) = answering(json_answer(json!({"success": true, "score": 0.4999}))).await;
    assert_failed(below.verify(Some("t"), None).await, "captcha-low-score");
}

#[tokio::test]
async fn an_answer_without_score_is_judged_by_success_alone() {
    let (_s, v2) = answering(json_answer(json!({"success": true, "hostname": "x"}))).await;
    v2.verify(Some("t"), None).await.unwrap();
}

#[tokio::test]
async fn success_false_fails() {
    let answer = json!({"success": false, "error-codes": ["invalid-input-response"]});
    let (_s, verifier) = answering(json_answer(answer)).await;
    assert_failed(verifier.verify(Some("t"), None).await, "captcha-rejected");
}

#[tokio::test]
async fn a_missing_or_blank_token_fails_without_asking_the_verifier() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(json_answer(json!({"success": true})))
        .expect(0)
        .mount(&server)
        .await;
    let verifier = CaptchaVerifier::new(&settings(&server)).unwrap();
    assert_failed(verifier.verify(None, None).await, "captcha-missing");
    assert_failed(verifier.verify(Some("  "), None).await, "captcha-missing");
    server.verify().await;
}

#[tokio::test]
async fn a_failing_verifier_fails_the_check() {
    let (_s, v) = answering(ResponseTemplate::new(500)).await;
    assert_failed(v.verify(Some("t"), None).await, "captcha-unavailable");
    let (_s, v) = answering(ResponseTemplate::new(200).set_body_string("<html>oops")).await;
    assert_failed(v.verify(Some("t"), None).await, "captcha-malformed-answer");
    let (_s, v) = answering(json_answer(json!({"score": 0.9}))).await;
    assert_failed(v.verify(Some("t"), None).await, "captcha-malformed-answer");
}

#[tokio::test]
async fn a_slow_verifier_times_out_after_timeout_millis() {
    let slow = json_answer(json!({"success": true})).set_delay(Duration::from_secs(2));
    let (_s, verifier) = answering(slow).await;
    let start = Instant::now();
    assert_failed(verifier.verify(Some("t"), None).await, "captcha-timeout");
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(500), "{took:?}");
    assert!(took < Duration::from_millis(1800), "{took:?}");
}

#[tokio::test]
async fn an_unreachable_verifier_fails_the_check() {
    let server = MockServer::start().await;
    let mut settings = settings(&server);
    drop(server); // nothing listens there any more
    settings.timeout_millis = 2000;
    let verifier = CaptchaVerifier::new(&settings).unwrap();
    assert_failed(
        verifier.verify(Some("t"), None).await,
        "captcha-unavailable",
    );
}

#[tokio::test]
async fn action_and_hostname_must_match_when_configured() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_string_contains("response=right"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .respond_with(json_answer(
            json!({"success": true, "score": 0.7, "action": "report", "hostname": "city.example"}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(body_string_contains("response=other"))
        .respond_with(json_answer(
            json!({"success": true, "score": 0.7, "action": "login", "hostname": "evil.example"}),
        ))
        .mount(&server)
        .await;
    let mut s = settings(&server);
    s.expected_action = Some("report".into());
    let verifier = CaptchaVerifier::new(&s).unwrap();
    verifier.verify(Some("right"), None).await.unwrap();
    assert_failed(
        verifier.verify(Some("other"), None).await,
        "captcha-wrong-action",
    );
    s.expected_action = None;
    s.expected_hostname = Some("city.example".into());
    let verifier = CaptchaVerifier::new(&s).unwrap();
    verifier.verify(Some("right"), None).await.unwrap();
    assert_failed(
        verifier.verify(Some("other"), None).await,
        "captcha-wrong-hostname",
    );
}

#[tokio::test]
async fn disabled_verification_passes_without_any_request() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(json_answer(json!({"success": false})))
        .expect(0)
        .mount(&server)
        .await;
    let mut s = settings(&server);
    s.enabled = false;
    s.secret = None;
    let verifier = CaptchaVerifier::new(&s).unwrap();
    assert!(!verifier.enabled());
    verifier.warn_if_disabled();
    verifier.verify(None, None).await.unwrap();
    server.verify().await;
}

#[test]
fn impossible_settings_are_refused() {
    let base = CaptchaSettings {
        secret: Some("x".to_owned().into()),
        ..CaptchaSettings::default()
    };
    assert_eq!(
        base.verify_url,
        "https://www.google.com/recaptcha/api/siteverify"
    );
    assert_eq!(
        (base.min_score, base.timeout_millis, base.enabled),
        (0.5, 3000, true)
    );
    CaptchaVerifier::new(&base).unwrap();
    let cases = [
        (
            CaptchaSettings {
                secret: None,
                ..base.clone()
            },
            "captcha.secret",
        ),
        (
            CaptchaSettings {
                min_score: 1.5,
                ..base.clone()
            },
            "captcha.min_score",
        ),
        (
            CaptchaSettings {
                timeout_millis: 0,
                ..base.clone()
            },
            "captcha.timeout_millis",
        ),
        (
            CaptchaSettings {
                verify_url: "ftp://x".into(),
                ..base.clone()
            },
            "captcha.verify_url",
        ),
    ];
    for (settings, key) in cases {
        let err = CaptchaVerifier::new(&settings).unwrap_err().to_string();
        assert!(err.contains(key), "{err}");
    }
    let err = serde_json::from_value::<CaptchaSettings>(json!({"min_scor": 0.3})).unwrap_err();
    assert!(err.to_string().contains("min_scor"), "{err}");
}
