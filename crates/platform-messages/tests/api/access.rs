//! Who may call what, where /me/messages finds the client, and unknown messages.

use serde_json::{json, Value};

use crate::helpers::*;

test_support::on_both_backends!(crate::helpers::spawn_app;
    operator_api_needs_the_scope,
    me_learns_the_client_from_query_or_token,
    unknown_messages_are_404_and_do_not_change_the_version,
);

async fn operator_api_needs_the_scope(app: TestApp) {
    let client = unique_client();
    let url = format!("{}/clients/{client}/messages", app.base);
    let anonymous = app
        .http
        .post(&url)
        .json(&message("x"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    assert_eq!(
        anonymous.json::<Value>().await.unwrap()["name"],
        "UNAUTHORIZED"
    );
    let forged = app
        .http
        .get(&url)
        .bearer_auth("not-a-jwt")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
    let user = app.token(&["other:scope"], &["staff"], None);
    let no_scope = app
        .http
        .post(&url)
        .bearer_auth(&user)
        .json(&message("x"))
        .send()
        .await
        .unwrap();
    assert_eq!(no_scope.status(), 403);
    assert_eq!(no_scope.json::<Value>().await.unwrap()["name"], "FORBIDDEN");
    let list = app.http.get(&url).bearer_auth(&user).send().await.unwrap();
    assert_eq!(list.status(), 403);
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
    let body: Value = app
        .http
        .get(&url)
        .bearer_auth(&from_claim)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&body), vec![mine], "client from the azp claim");
    let overridden: Value = app
        .http
        .get(format!("{url}?client_id={other}"))
        .bearer_auth(&from_claim)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        overridden["messages"][0]["client_id"],
        other.as_str(),
        "the query parameter wins"
    );

    let none = app
        .http
        .get(&url)
        .bearer_auth(app.token(&[], &[], None))
        .send()
        .await
        .unwrap();
    assert_eq!(none.status(), 400);
    assert_eq!(
        none.json::<Value>().await.unwrap()["name"],
        "VALIDATION_ERROR"
    );
    let anonymous = app
        .http
        .get(format!("{url}?client_id={client}"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let bad = app
        .http
        .get(format!("{url}?client_id=a%2Fb"))
        .bearer_auth(&from_claim)
        .send()
        .await
        .unwrap();
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
        app.http.get(&url).bearer_auth(&token).send().await.unwrap(),
        app.http
            .put(&url)
            .bearer_auth(&token)
            .json(&message("y"))
            .send()
            .await
            .unwrap(),
        app.http
            .patch(&url)
            .bearer_auth(&token)
            .json(&json!({"text": "y"}))
            .send()
            .await
            .unwrap(),
        app.http
            .delete(&url)
            .bearer_auth(&token)
            .send()
            .await
            .unwrap(),
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
    let bad_id = app
        .http
        .get(format!("{}/clients/{client}/messages/not-a-uuid", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(bad_id.status(), 400);
}
