//! The REST behaviour suite, run against SQLite and PostgreSQL over real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failure is a test failure

mod common;

use common::*;
use serde_json::{json, Value};

/// Runs each listed scenario once per backend: `sqlite::<name>` and `postgres::<name>`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test] async fn $name() { super::$name(super::Db::sqlite()).await })*
        }
        mod postgres {
            $(#[tokio::test] async fn $name() {
                if let Some(db) = super::Db::postgres(stringify!($name)).await { super::$name(db).await }
            })*
        }
    };
}

on_both_backends!(
    create_read_list_and_delete,
    every_audience_viewer_combination,
    windows_are_half_open_at_their_edges,
    version_changes_on_writes_and_window_edges_only,
    public_endpoint_answers_304_for_the_current_version,
    writes_are_validated,
    unsafe_text_is_refused_through_the_api,
    operator_api_needs_the_scope,
    me_learns_the_client_from_query_or_token,
    unknown_messages_are_404_and_do_not_change_the_version,
    patch_changes_only_the_given_fields,
);

async fn create_read_list_and_delete(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    let (status, created) = app
        .create(
            &client,
            json!({"title": "Maintenance", "text": "Payments **down** tonight", "kind": "maintenance",
                   "valid_to": app.at(3600)}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["client_id"], client.as_str());
    assert_eq!(created["kind"], "maintenance");
    assert_eq!(created["audience"], "everyone");
    assert_eq!(created["roles"], json!([]));
    assert_eq!(created["dismissible"], true);
    assert_eq!(created["valid_from"], Value::Null);
    let id = created["id"].as_str().unwrap();

    let one: Value = app
        .http
        .get(format!("{}/clients/{client}/messages/{id}", app.base))
        .bearer_auth(app.operator())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(one, created, "what is read is what was stored");

    let public = app.public(&client).await;
    assert_eq!(public["messages"], json!([created]));
    assert_eq!(public["next_change_at"], json!(app.at(3600)));

    let list: Value = app
        .http
        .get(format!("{}/clients/{client}/messages", app.base))
        .bearer_auth(app.operator())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["messages"], json!([created]));
    assert_eq!(list["version"], public["version"]);

    let deleted = app
        .http
        .delete(format!("{}/clients/{client}/messages/{id}", app.base))
        .bearer_auth(app.operator())
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    let after = app.public(&client).await;
    assert_eq!(after["messages"], json!([]));
    assert_ne!(after["version"], public["version"]);
}

async fn every_audience_viewer_combination(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    let everyone = app
        .create_ok(&client, json!({"text": "all", "audience": "everyone"}))
        .await;
    let signed_in = app
        .create_ok(&client, json!({"text": "signed", "audience": "signed_in"}))
        .await;
    let staff = app
        .create_ok(
            &client,
            json!({"text": "staff", "audience": "roles", "roles": ["staff"]}),
        )
        .await;
    let staff_or_admin = app
        .create_ok(
            &client,
            json!({"text": "both", "audience": "roles", "roles": ["staff", "admin"]}),
        )
        .await;
    let sorted = |mut v: Vec<&String>| {
        v.sort();
        v.into_iter().cloned().collect::<Vec<_>>()
    };

    let public = app.public(&client).await;
    assert_eq!(
        ids(&public),
        vec![everyone.clone()],
        "anonymous: everyone only"
    );
    let plain = app.me(&client, &[]).await;
    assert_eq!(
        ids(&plain),
        sorted(vec![&everyone, &signed_in]),
        "signed in, no roles"
    );
    let as_staff = app.me(&client, &["staff"]).await;
    assert_eq!(
        ids(&as_staff),
        sorted(vec![&everyone, &signed_in, &staff, &staff_or_admin])
    );
    let as_admin = app.me(&client, &["admin", "other"]).await;
    assert_eq!(
        ids(&as_admin),
        sorted(vec![&everyone, &signed_in, &staff_or_admin])
    );
    let as_other = app.me(&client, &["Staff"]).await;
    assert_eq!(
        ids(&as_other),
        sorted(vec![&everyone, &signed_in]),
        "roles match exactly (case-sensitive)"
    );

    for body in [&plain, &as_staff, &as_admin, &as_other] {
        assert_eq!(
            body["version"], public["version"],
            "the version is the same for every audience"
        );
    }
    let other_client = app.public(&unique_client()).await;
    assert_eq!(
        other_client["messages"],
        json!([]),
        "messages belong to one client"
    );
    assert_eq!(other_client["version"], "0.0");
}

async fn windows_are_half_open_at_their_edges(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    let t = app.now();
    let starts_now = app
        .create_ok(
            &client,
            json!({"text": "a", "valid_from": t, "valid_to": app.at(10)}),
        )
        .await;
    let ended_now = app
        .create_ok(
            &client,
            json!({"text": "b", "valid_from": app.at(-10), "valid_to": t}),
        )
        .await;
    let future = app
        .create_ok(&client, json!({"text": "c", "valid_from": app.at(5)}))
        .await;

    let body = app.public(&client).await;
    assert_eq!(
        ids(&body),
        vec![starts_now.clone()],
        "valid_from == now is visible, valid_to == now is not"
    );
    assert_eq!(body["next_change_at"], json!(app.at(5)));

    app.travel_to(app.at(5) - chrono::TimeDelta::microseconds(1))
        .await;
    assert_eq!(
        ids(&app.public(&client).await),
        vec![starts_now.clone()],
        "one microsecond before valid_from"
    );

    app.travel_to(t + chrono::TimeDelta::seconds(5)).await;
    let mut expected = vec![starts_now.clone(), future.clone()];
    expected.sort();
    assert_eq!(ids(&app.public(&client).await), expected);

    app.travel_to(t + chrono::TimeDelta::seconds(10)).await;
    let body = app.public(&client).await;
    assert_eq!(ids(&body), vec![future], "valid_to reached");
    assert_eq!(body["next_change_at"], Value::Null);
    let _ = ended_now;
}

async fn version_changes_on_writes_and_window_edges_only(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    let v0 = app.version(&client).await;
    let id = app
        .create_ok(
            &client,
            json!({"text": "x", "valid_from": app.at(10), "valid_to": app.at(20)}),
        )
        .await;
    let v1 = app.version(&client).await;
    assert_ne!(v1, v0, "create");
    app.travel_to(app.at(9)).await;
    assert_eq!(
        app.version(&client).await,
        v1,
        "nothing happens between window edges"
    );
    app.travel_to(app.at(1)).await;
    let v2 = app.version(&client).await;
    assert_ne!(v2, v1, "window start");
    app.travel_to(app.at(10)).await;
    let v3 = app.version(&client).await;
    assert_ne!(v3, v2, "window end");
    let response = app
        .http
        .put(format!("{}/clients/{client}/messages/{id}", app.base))
        .bearer_auth(app.operator())
        .json(&json!({"text": "y"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let v4 = app.version(&client).await;
    assert_ne!(v4, v3, "update");
    assert!(
        ![&v0, &v1, &v2, &v3].contains(&&v4),
        "versions never repeat"
    );
}

async fn public_endpoint_answers_304_for_the_current_version(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    app.create_ok(&client, message("hello")).await;
    let url = format!("{}/public/clients/{client}/messages", app.base);
    let first = app.http.get(&url).send().await.unwrap();
    assert_eq!(first.status(), 200);
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    let body: Value = first.json().await.unwrap();
    assert_eq!(etag, format!("\"{}\"", body["version"].as_str().unwrap()));

    let again = app
        .http
        .get(&url)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());
    let weak = app
        .http
        .get(&url)
        .header("if-none-match", format!("W/{etag}"))
        .send()
        .await
        .unwrap();
    assert_eq!(weak.status(), 304);

    app.create_ok(&client, message("second")).await;
    let changed = app
        .http
        .get(&url)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200, "a change makes the old ETag stale");
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
}

async fn expect_error(app: &TestApp, client: &str, body: Value, name: &str) {
    let (status, error) = app.create(client, body.clone()).await;
    assert_eq!(status, 400, "{body} -> {error}");
    assert_eq!(error["name"], name, "{body} -> {error}");
    assert_eq!(error["statusCode"], 400);
    assert!(error["userinfo"].as_str().is_some_and(|s| !s.is_empty()));
}

async fn writes_are_validated(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    let t = app.now();
    for body in [
        json!({"text": "x", "valid_from": t, "valid_to": t}),
        json!({"text": "x", "valid_from": app.at(10), "valid_to": app.at(5)}),
        json!({"text": "x", "audience": "admins"}),
        json!({"text": "x", "audience": "roles"}),
        json!({"text": "x", "audience": "roles", "roles": []}),
        json!({"text": "x", "audience": "roles", "roles": ["has space"]}),
        json!({"text": "x", "audience": "everyone", "roles": ["staff"]}),
        json!({"text": "x", "kind": "emergency"}),
        json!({"text": "x", "colour": "red"}),
        json!({"text": ""}),
        json!({"text": "   "}),
        json!({"text": "x".repeat(4001)}),
        json!({"text": "x", "title": "t".repeat(201)}),
        json!({"text": "x", "valid_from": "yesterday"}),
        json!({}),
    ] {
        expect_error(&app, &client, body, "VALIDATION_ERROR").await;
    }
    expect_error(&app, "-bad", message("x"), "VALIDATION_ERROR").await;
    expect_error(&app, "a%2Bb", message("x"), "VALIDATION_ERROR").await;
    expect_error(&app, &"a".repeat(65), message("x"), "VALIDATION_ERROR").await;
    app.create_ok(
        &client,
        json!({"text": "é".repeat(4000), "title": "t".repeat(200)}),
    )
    .await;
    app.create_ok(
        &client,
        json!({"text": "x", "valid_from": t, "valid_to": t + chrono::TimeDelta::microseconds(1)}),
    )
    .await;

    let not_json = app
        .http
        .post(format!("{}/clients/{client}/messages", app.base))
        .bearer_auth(app.operator())
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 400);
    assert_eq!(
        not_json.json::<Value>().await.unwrap()["name"],
        "INVALID_JSON"
    );

    // The framework's own refusals carry the error body too.
    let raw = |content_type: &'static str, body: String| {
        app.http
            .post(format!("{}/clients/{client}/messages", app.base))
            .bearer_auth(app.operator())
            .header("content-type", content_type)
            .body(body)
    };
    let oversize = format!(r#"{{"text": "{}"}}"#, "x".repeat(70_000));
    let response = raw("application/json", oversize).send().await.unwrap();
    assert_eq!(response.status(), 413);
    let body = response.json::<Value>().await.unwrap();
    assert_eq!(
        (body["statusCode"].as_u64(), body["name"].as_str()),
        (Some(413), Some("PAYLOAD_TOO_LARGE"))
    );
    let response = raw("text/plain", r#"{"text": "x"}"#.into())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);
    let body = response.json::<Value>().await.unwrap();
    assert_eq!(body["name"], "UNSUPPORTED_MEDIA_TYPE");
}

async fn unsafe_text_is_refused_through_the_api(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    for text in [
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](java&#115;cript:alert(1))",
        "![x](data:image/svg+xml;base64,PHN2Zz4=)",
        "<script>alert(1)</script>",
        "hello <img src=x onerror=alert(1)>",
        "<vbscript:msgbox>",
        "[ref]\n\n[ref]: vbscript:msgbox",
    ] {
        expect_error(&app, &client, message(text), "UNSAFE_MESSAGE_TEXT").await;
    }
    for text in [
        "[status](https://status.example.org)",
        "[mail](mailto:help@example.org) or [call](tel:+420123)",
        "[relative](/help#outage)",
        "`<script>` in code is text",
    ] {
        app.create_ok(&client, message(text)).await;
    }
    assert_eq!(
        app.public(&client).await["messages"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}

async fn operator_api_needs_the_scope(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
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

async fn me_learns_the_client_from_query_or_token(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
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

async fn unknown_messages_are_404_and_do_not_change_the_version(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
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

async fn patch_changes_only_the_given_fields(db: Db) {
    let app = spawn_app(&db, &Broker::None).await;
    let client = unique_client();
    let id = app
        .create_ok(
            &client,
            json!({"title": "T", "text": "x", "kind": "outage", "audience": "roles", "roles": ["staff"],
                   "valid_from": app.at(-5), "valid_to": app.at(100)}),
        )
        .await;
    let url = format!("{}/clients/{client}/messages/{id}", app.base);
    let patch = |body: Value| {
        app.http
            .patch(&url)
            .bearer_auth(app.operator())
            .json(&body)
            .send()
    };

    let patched: Value = patch(json!({"text": "y", "valid_to": null}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(patched["text"], "y");
    assert_eq!(patched["title"], "T");
    assert_eq!(patched["kind"], "outage");
    assert_eq!(patched["roles"], json!(["staff"]));
    assert_eq!(patched["valid_from"], json!(app.at(-5)));
    assert_eq!(patched["valid_to"], Value::Null, "null clears");

    let widened: Value = patch(json!({"audience": "everyone"}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        widened["roles"],
        json!([]),
        "leaving audience roles drops the roles"
    );
    let invalid = patch(json!({"valid_to": app.at(-10)})).await.unwrap();
    assert_eq!(invalid.status(), 400, "the merged message is validated");
    let unsafe_text = patch(json!({"text": "<b>x</b>"})).await.unwrap();
    assert_eq!(
        unsafe_text.json::<Value>().await.unwrap()["name"],
        "UNSAFE_MESSAGE_TEXT"
    );
}

#[tokio::test]
async fn openapi_and_health_are_served() {
    let app = spawn_app(&Db::sqlite(), &Broker::None).await;
    let doc: Value = app
        .http
        .get(format!("{}/docs/openapi.json", app.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for path in [
        "/clients/{client_id}/messages",
        "/public/clients/{client_id}/messages",
        "/me/messages",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} documented");
    }
    assert!(doc["info"]["description"]
        .as_str()
        .unwrap()
        .contains("UNSAFE_MESSAGE_TEXT"));
    assert_eq!(
        app.http
            .get(format!("{}/healthz", app.root))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let ready = app
        .http
        .get(format!("{}/readyz", app.root))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), 503, "no broker: not ready");
    let metrics = app
        .http
        .get(format!("{}/metrics", app.root))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("platform_messages_mqtt_connected"),
        "{metrics}"
    );
}
