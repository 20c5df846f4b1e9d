//! What writes refuse: invalid fields, unsafe text, bad bodies; and what PATCH merges.

use serde_json::{json, Value};

use crate::helpers::*;

test_support::on_both_backends!(crate::helpers::spawn_app;
    writes_are_validated,
    unsafe_text_is_refused_through_the_api,
    patch_changes_only_the_given_fields,
);

async fn expect_error(app: &TestApp, client: &str, body: Value, name: &str) {
    let (status, error) = app.create(client, body.clone()).await;
    assert_eq!(status, 400, "{body} -> {error}");
    assert_eq!(error["name"], name, "{body} -> {error}");
    assert_eq!(error["statusCode"], 400);
    assert!(error["userinfo"].as_str().is_some_and(|s| !s.is_empty()));
}

async fn writes_are_validated(app: TestApp) {
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
        // An array in place of the object (serde's derive would read it as the fields in
        // order; issue 32).
        json!(["x"]),
        json!(["x", "Title"]),
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

    // A body of `content_type` as the operator.
    let raw = |content_type: &'static str, body: String| {
        app.http
            .post(format!("{}/clients/{client}/messages", app.base))
            .bearer_auth(app.operator())
            .header("content-type", content_type)
            .body(body)
    };
    let not_json = raw("application/json", "{not json".into())
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 400);
    assert_eq!(
        not_json.json::<Value>().await.unwrap()["name"],
        "INVALID_JSON"
    );

    // The framework's own refusals carry the error body too.
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

async fn unsafe_text_is_refused_through_the_api(app: TestApp) {
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

async fn patch_changes_only_the_given_fields(app: TestApp) {
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
