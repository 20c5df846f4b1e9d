//! A JSON array where a body's schema has an object is refused (400 `VALIDATION_ERROR` naming
//! the body), at any depth, on every route that takes a JSON body: serde's derive would take the
//! array as the struct's fields in order (issue 32).

use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;

use crate::helpers::{assert_error, TestApp};
use crate::notifications_helpers::token_with;

on_both_backends!(crate::helpers::spawn_app;
    an_array_in_place_of_an_object_is_refused_on_every_json_route,
    the_arrays_that_were_taken_before_are_refused,
);

/// The schema a `$ref` names, or the schema itself.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap();
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// A value of `schema`'s type; objects become arrays of their properties' values in order
/// (what serde's derive would have taken), so every object at every depth is an array.
fn positional(doc: &Value, schema: &Value) -> Value {
    let schema = resolve(doc, schema);
    if let Some(first) = schema["oneOf"].get(0).or(schema["allOf"].get(0)) {
        return positional(doc, first);
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds
            .iter()
            .find(|k| *k != "null")
            .cloned()
            .unwrap_or(Value::Null),
        other => other.clone(),
    };
    match kind.as_str() {
        Some("object") => Value::Array(
            schema["properties"]
                .as_object()
                .map(|props| props.values().map(|p| positional(doc, p)).collect())
                .unwrap_or_default(),
        ),
        Some("array") => json!([positional(doc, &schema["items"])]),
        Some("boolean") => json!(true),
        Some("integer") | Some("number") => json!(1),
        Some("string") => match schema["enum"].get(0) {
            Some(first) => first.clone(),
            None => json!("00000000-0000-7000-8000-000000000001"),
        },
        _ => Value::Null,
    }
}

/// Every scope an operation of the description asks for.
fn all_scopes(doc: &Value) -> Vec<String> {
    let mut scopes: Vec<String> = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            for requirement in op["security"].as_array().into_iter().flatten() {
                for list in requirement.as_object().unwrap().values() {
                    for scope in list.as_array().unwrap() {
                        let scope = scope.as_str().unwrap().to_owned();
                        if !scopes.contains(&scope) {
                            scopes.push(scope);
                        }
                    }
                }
            }
        }
    }
    scopes
}

async fn an_array_in_place_of_an_object_is_refused_on_every_json_route(app: TestApp) {
    let doc =
        test_support::http::get_json(&app.http, &format!("{}/docs/openapi.json", app.base)).await;
    let scopes = all_scopes(&doc);
    let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
    let token = app.token("array-sender", &scopes);
    let mut tried = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(schema) = op["requestBody"]["content"]
                .get("application/json")
                .map(|c| &c["schema"])
            else {
                continue;
            };
            let body = positional(&doc, schema);
            if !body.to_string().contains('[') {
                continue; // no object anywhere in this body
            }
            let path = path
                .split('/')
                .map(|segment| match segment.starts_with('{') {
                    true => "00000000-0000-7000-8000-000000000001",
                    false => segment,
                })
                .collect::<Vec<_>>()
                .join("/");
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let (status, answer) = app.send_json(method.clone(), &path, &token, &body).await;
            assert_eq!(status, 400, "{method} {path} with {body}: {answer}");
            assert_eq!(
                answer["name"], "VALIDATION_ERROR",
                "{method} {path}: {answer}"
            );
            assert!(
                answer["userinfo"].as_str().unwrap().contains("sequence"),
                "{method} {path}: {answer}"
            );
            tried.push(format!("{method} {path}"));
        }
    }
    // The routes the issue found, and the officers' and editors' bodies, were among them.
    for route in [
        "PUT /me/notifications/settings",
        "POST /me/notifications/webpush",
        "PATCH /me/notifications/read",
        "POST /me/vote-tokens",
        "POST /news",
        "PATCH /me/news-categories",
    ] {
        assert!(
            tried.iter().any(|t| t == route),
            "{route} not tried: {tried:?}"
        );
    }
}

async fn the_arrays_that_were_taken_before_are_refused(app: TestApp) {
    let token = token_with("citizen", None, None);
    for (method, path, body) in [
        (
            Method::PUT,
            "/me/notifications/settings",
            json!([true, null]),
        ),
        (
            Method::POST,
            "/me/notifications/webpush",
            json!(["https://fcm.googleapis.com/fcm/send/x", ["p256dh", "auth"]]),
        ),
        (
            Method::POST,
            "/me/notifications/webpush",
            json!({"endpoint": "https://fcm.googleapis.com/fcm/send/x", "keys": ["p", "a"]}),
        ),
        (Method::PATCH, "/me/notifications/read", json!([["tag"]])),
    ] {
        let (status, answer) = app.send_json(method.clone(), path, &token, &body).await;
        assert_error(status, &answer, 400, "VALIDATION_ERROR");
        assert!(
            answer["userinfo"]
                .as_str()
                .unwrap()
                .contains("invalid type: sequence"),
            "{method} {path} {body}: {answer}"
        );
    }
    // Nothing was stored.
    let (status, settings) = app.get_as("/me/notifications/settings", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(settings, json!({"enabled": true, "interval": null}));
    let (status, push) = app
        .get_as(
            "/me/notifications/webpush?endpoint=https%3A%2F%2Ffcm.googleapis.com%2Ffcm%2Fsend%2Fx",
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{push}");
    assert_eq!(push["status"], false, "{push}");
}
