//! The vote pool over HTTP: placing, revoking, the figures, expiry, and every refusal.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::json;
use std::sync::Arc;
use test_support::{on_both_backends, Backend};

use crate::helpers::{assert_error, spawn_on, Filing, TestApp};

/// The pool: 5 tokens, each counting for 30 days.
pub async fn spawn_votes(backend: Backend) -> Option<TestApp> {
    let db = Arc::new(test_support::database(backend, "votes").await?);
    Some(
        spawn_on(db, |s| {
            s.votes.max_count = 5;
            s.votes.expiry = citizen_api::settings::votes::Expiry::Days;
            s.votes.expiry_days = Some(30);
        })
        .await,
    )
}

on_both_backends!(crate::votes::spawn_votes;
    place_and_revoke_keep_the_pool_arithmetic,
    refusals_name_their_cause_and_change_nothing,
    expired_tokens_stop_counting_without_a_job,
);

async fn place_and_revoke_keep_the_pool_arithmetic(app: TestApp) {
    let a = app.file(Filing::new("A", 1)).await.report.to_string();
    let b = app.file(Filing::new("B", 2)).await.report.to_string();
    let me = app.token("citizen-1", &[]);
    let (status, body) = app.vote(&me, &a, 3).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tokens"].as_array().unwrap().len(), 3);
    assert_eq!(body["tokens"][0]["target"], a);
    let expires = app.time(0) + TimeDelta::days(30);
    assert_eq!(
        body["tokens"][0]["expires_at"],
        expires.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    assert_eq!(
        (
            body["active_tokens"].as_u64(),
            body["available_tokens"].as_u64(),
            body["max_count"].as_u64()
        ),
        (Some(3), Some(2), Some(5))
    );
    let (_, body) = app.vote(&me, &b, 2).await;
    assert_eq!(body["available_tokens"], 0);
    // The pool is empty: one more is refused and nothing is placed.
    let (status, body) = app.vote(&me, &b, 1).await;
    assert_error(status, &body, 409, "NOT_ENOUGH_VOTE_TOKENS");
    let summary = app.get_as("/me/vote-tokens-summary", Some(&me)).await.1;
    assert_eq!(
        summary,
        json!({"active_tokens": 5, "available_tokens": 0, "max_count": 5})
    );
    let on_a = app
        .get_as(&format!("/me/vote-tokens/{a}"), Some(&me))
        .await
        .1;
    assert_eq!(on_a, json!({"active_tokens": 3, "available_tokens": 0}));
    // Revoking more than are active on the target revokes what there is; then 0.
    let (status, body) = app.revoke_votes(&me, &a, 10).await;
    assert_eq!((status, body), (200, json!({"revoked_count": 3})));
    let (_, body) = app.revoke_votes(&me, &a, 1).await;
    assert_eq!(body, json!({"revoked_count": 0}));
    let summary = app.get_as("/me/vote-tokens-summary", Some(&me)).await.1;
    assert_eq!(summary["available_tokens"], 3);
    // Another account has its own pool.
    let other = app.token("citizen-2", &[]);
    let summary = app.get_as("/me/vote-tokens-summary", Some(&other)).await.1;
    assert_eq!(summary["available_tokens"], 5);
    let on_b = app
        .get_as(&format!("/me/vote-tokens/{b}"), Some(&other))
        .await
        .1;
    assert_eq!(on_b["active_tokens"], 0);
}

async fn refusals_name_their_cause_and_change_nothing(app: TestApp) {
    let a = app.file(Filing::new("A", 1)).await.report.to_string();
    let me = app.token("citizen-1", &[]);
    let cases = [
        (json!({"target": a, "count": 0}), 400, "VALIDATION_ERROR"),
        (json!({"target": a, "count": -1}), 400, "VALIDATION_ERROR"),
        (
            json!({"target": a, "count": 6}),
            409,
            "NOT_ENOUGH_VOTE_TOKENS",
        ),
        (
            json!({"target": a, "count": 1, "weight": 2}),
            400,
            "VALIDATION_ERROR",
        ),
        (json!({"target": a}), 400, "VALIDATION_ERROR"),
        (json!({"target": a, "count": "1"}), 400, "VALIDATION_ERROR"),
        (
            json!({"target": uuid::Uuid::now_v7().to_string(), "count": 1}),
            404,
            "VOTE_TARGET_NOT_FOUND",
        ),
        (
            json!({"target": "nope", "count": 1}),
            404,
            "VOTE_TARGET_NOT_FOUND",
        ),
    ];
    for (body, status, name) in cases {
        let (got, answer) = app
            .send_json(Method::POST, "/me/vote-tokens", &me, &body)
            .await;
        assert_error(got, &answer, status, name);
    }
    for body in [
        json!({"target": a, "count": 0}),
        json!({"target": a, "count": 1, "x": 1}),
    ] {
        let (got, answer) = app
            .send_json(Method::PATCH, "/me/vote-token-revoke", &me, &body)
            .await;
        assert_error(got, &answer, 400, "VALIDATION_ERROR");
    }
    let (status, body) = app.revoke_votes(&me, "nope", 1).await;
    assert_eq!((status, body), (200, json!({"revoked_count": 0})));
    for path in ["/me/vote-tokens-summary", "/me/vote-tokens/x"] {
        let (status, body) = app.get(path).await;
        assert_error(status, &body, 401, "UNAUTHORIZED");
    }
    let summary = app.get_as("/me/vote-tokens-summary", Some(&me)).await.1;
    assert_eq!(summary["active_tokens"], 0);
}

async fn expired_tokens_stop_counting_without_a_job(app: TestApp) {
    let a = app.file(Filing::new("A", 1)).await.report.to_string();
    let me = app.token("citizen-1", &[]);
    app.vote(&me, &a, 5).await;
    // One microsecond before the 30 days are over the tokens still count; at the instant, not.
    let placed = app.time(0);
    app.clock
        .set(placed + TimeDelta::days(30) - TimeDelta::microseconds(1));
    assert_eq!(
        app.get_as("/me/vote-tokens-summary", Some(&me)).await.1["active_tokens"],
        5
    );
    app.clock.set(placed + TimeDelta::days(30));
    assert_eq!(
        app.get_as("/me/vote-tokens-summary", Some(&me)).await.1["available_tokens"],
        5
    );
    // Expired tokens are not revoked again, and the pool is whole to place.
    let (_, body) = app.revoke_votes(&me, &a, 5).await;
    assert_eq!(body["revoked_count"], 0);
    let (status, body) = app.vote(&me, &a, 5).await;
    assert_eq!(status, 200, "{body}");
}
