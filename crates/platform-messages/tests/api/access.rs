//! Who may call what, where /me/messages finds the client, and unknown messages.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::*;

test_support::on_both_backends!(crate::helpers::spawn_app;
    operator_api_needs_the_scope,
    me_learns_the_client_from_query_or_token,
    unknown_messages_are_404_and_do_not_change_the_version,
);

/// Sends `method url`, with `token` as bearer and `body` as JSON when given.
async fn send(
    app: &TestApp,
    method: Method,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> reqwest::Response {
    test_support::http::send(&app.http, method, url, token, body).await
}

async fn operator_api_needs_the_scope(app: TestApp) {
    let client = unique_client();
    let url = format!("{}/clients/{client}/messages", app.base);
    let anonymous = send(&app, Method::POST, &url, None, Some(&message("x"))).await;
    assert_eq!(anonymous.status(), 401);
    assert_eq!(
        anonymous.json::<Value>().await.unwrap()["name"],
        "UNAUTHORIZED"
    );
    let forged = send(&app, Method::GET, &url, Some("not-a-jwt"), None).await;
    assert_eq!(forged.status(), 401);
    let user = app.token(&["other:scope"], &["staff"], None);
    let no_scope = send(&app, Method::POST, &url, Some(&user), Some(&message("x"))).await;
    assert_eq!(no_scope.status(), 403);
    assert_eq!(no_scope.json::<Value>().await.unwrap()["name"], "FORBIDDEN");
    let list = send(&app, Method::GET, &url, Some(&user), None).await;
    assert_eq!(list.status(), 403);
    // The scope is checked before the body and the path are judged: a caller without it
    // learns nothing from a 415 or a 400.
    let not_json = app
        .http
        .post(&url)
        .bearer_auth(&user)
        .header("content-type", "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 403);
    let bad_id = format!("{url}/not-a-uuid");
    let read = send(&app, Method::GET, &bad_id, Some(&user), None).await;
    assert_eq!(read.status(), 403);
    assert_eq!(read.json::<Value>().await.unwrap()["name"], "FORBIDDEN");
    assert_eq!(app.public(&client).await["messages"], json!([]));
}

async fn me_learns_the_client_from_query_or_token(app: TestApp) {
    let client = unique_client();
    let other = unique_client();
    let mine = app
        .create_ok(&client, json!({"text": "x", "audience": "signed_in"}))
        .await;
    app.create_ok(&other, json!({"text": "y", "audience": "signed_in"}))
        .await;
    let url = format!("{}/me/messages", app.base);

    let from_claim = app.token(&[], &[], Some(&client));
    let body: Value = send(&app, Method::GET, &url, Some(&from_claim), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&body), vec![mine], "client from the azp claim");
    let overridden: Value = send(
        &app,
        Method::GET,
        &format!("{url}?client_id={other}"),
        Some(&from_claim),
        None,
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        overridden["messages"][0]["client_id"],
        other.as_str(),
        "the query parameter wins"
    );

    let none = send(
        &app,
        Method::GET,
        &url,
        Some(&app.token(&[], &[], None)),
        None,
    )
    .await;
    assert_eq!(none.status(), 400);
    assert_eq!(
        none.json::<Value>().await.unwrap()["name"],
        "VALIDATION_ERROR"
    );
    let anonymous = send(
        &app,
        Method::GET,
        &format!("{url}?client_id={client}"),
        None,
        None,
    )
    .await;
    assert_eq!(anonymous.status(), 401);
    let bad = send(
        &app,
        Method::GET,
        &format!("{url}?client_id=a%2Fb"),
        Some(&from_claim),
        None,
    )
    .await;
    assert_eq!(bad.status(), 400);
}

async fn unknown_messages_are_404_and_do_not_change_the_version(app: TestApp) {
    let client = unique_client();
    app.create_ok(&client, message("x")).await;
    let before = app.version(&client).await;
    let missing = uuid::Uuid::new_v4();
    let url = format!("{}/clients/{client}/messages/{missing}", app.base);
    let token = app.operator();
    let responses = [
        send(&app, Method::GET, &url, Some(&token), None).await,
        send(&app, Method::PUT, &url, Some(&token), Some(&message("y"))).await,
        send(
            &app,
            Method::PATCH,
            &url,
            Some(&token),
            Some(&json!({"text": "y"})),
        )
        .await,
        send(&app, Method::DELETE, &url, Some(&token), None).await,
    ];
    for response in responses {
        assert_eq!(response.status(), 404);
        assert_eq!(
            response.json::<Value>().await.unwrap()["name"],
            "MESSAGE_NOT_FOUND"
        );
    }
    assert_eq!(
        app.version(&client).await,
        before,
        "a failed write leaves the revision alone"
    );
    let bad_id = send(
        &app,
        Method::GET,
        &format!("{}/clients/{client}/messages/not-a-uuid", app.base),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(bad_id.status(), 400);
}
