//! Reading what operators wrote: audiences, windows, versions, ETags.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::*;

test_support::on_both_backends!(crate::helpers::spawn_app;
    create_read_list_and_delete,
    every_audience_viewer_combination,
    windows_are_half_open_at_their_edges,
    version_changes_on_writes_and_window_edges_only,
    public_endpoint_answers_304_for_the_current_version,
);

async fn create_read_list_and_delete(app: TestApp) {
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
        .as_operator(
            Method::GET,
            &format!("/clients/{client}/messages/{id}"),
            None,
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(one, created, "what is read is what was stored");

    let public = app.public(&client).await;
    assert_eq!(public["messages"], json!([created]));
    assert_eq!(public["next_change_at"], json!(app.at(3600)));

    let list: Value = app
        .as_operator(Method::GET, &format!("/clients/{client}/messages"), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["messages"], json!([created]));
    assert_eq!(list["version"], public["version"]);

    let deleted = app.delete_message(&client, id).await;
    assert_eq!(deleted.status(), 204);
    let after = app.public(&client).await;
    assert_eq!(after["messages"], json!([]));
    assert_ne!(after["version"], public["version"]);
}

async fn every_audience_viewer_combination(app: TestApp) {
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

async fn windows_are_half_open_at_their_edges(app: TestApp) {
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

async fn version_changes_on_writes_and_window_edges_only(app: TestApp) {
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
        .as_operator(
            Method::PUT,
            &format!("/clients/{client}/messages/{id}"),
            Some(&json!({"text": "y"})),
        )
        .await;
    assert_eq!(response.status(), 200);
    let v4 = app.version(&client).await;
    assert_ne!(v4, v3, "update");
    assert!(
        ![&v0, &v1, &v2, &v3].contains(&&v4),
        "versions never repeat"
    );
}

async fn public_endpoint_answers_304_for_the_current_version(app: TestApp) {
    let client = app.client_saying_hello().await;
    let url = app.public_url(&client);
    let first = app.get_url(&url).await;
    assert_eq!(first.status(), 200);
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    let body: Value = first.json().await.unwrap();
    assert_eq!(etag, format!("\"{}\"", body["version"].as_str().unwrap()));

    let again = app.get_if_none_match(&url, &etag).await;
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());
    let weak = app.get_if_none_match(&url, &format!("W/{etag}")).await;
    assert_eq!(weak.status(), 304);

    app.create_ok(&client, message("second")).await;
    let changed = app.get_if_none_match(&url, &etag).await;
    assert_eq!(changed.status(), 200, "a change makes the old ETag stale");
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
}
