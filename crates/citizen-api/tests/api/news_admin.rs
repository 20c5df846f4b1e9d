//! The editors' news API: publish, replace and delete items, and every refusal.

use reqwest::Method;
use serde_json::json;
use test_support::on_both_backends;

use crate::helpers::{assert_error, TestApp};
use crate::news_helpers::assert_needs_a_scope;
use crate::news_helpers::{call, category, editor, item, point, publish, NEWS_SCOPE};

on_both_backends!(crate::helpers::spawn_app;
    editors_publish_replace_and_delete,
    bad_items_are_refused,
    writes_need_the_news_scope,
    editors_upload_a_picture_and_link_it,
    a_field_too_long_is_a_400_even_written_with_escapes,
);

async fn editors_publish_replace_and_delete(app: TestApp) {
    let token = editor(&app);
    let cat = category(&app, "Kultura", None).await;
    // Without a date the item is dated at the request.
    let (status, created) = call(
        &app,
        Method::POST,
        "/news",
        Some(&token),
        Some(&json!({"title": "Koncert"})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(
        created["date"],
        app.time(0)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    assert_eq!(created["description"], "");
    assert_eq!(created["categories"], json!([]));
    let id = created["id"].as_str().unwrap().to_owned();
    let path = format!("/news/{id}");
    let mut full = item(&app, "Koncert v parku", 3);
    full["image"] = json!("https://example.org/a.jpg");
    full["location"] = point(14.4, 50.1);
    full["categories"] = json!([cat, cat]);
    let (status, body) = call(&app, Method::PUT, &path, Some(&token), Some(&full)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["title"], "Koncert v parku");
    assert_eq!(body["categories"], json!([{"id": cat, "name": "Kultura"}]));
    assert_eq!(app.get_ok(&path).await, body);
    // A replace clears what it does not send.
    let (_, body) = call(
        &app,
        Method::PUT,
        &path,
        Some(&token),
        Some(&item(&app, "Koncert", 3)),
    )
    .await;
    assert!(
        body.get("image").is_none() && body.get("location").is_none(),
        "{body}"
    );
    assert_eq!(body["categories"], json!([]));
    let (status, _) = call(&app, Method::DELETE, &path, Some(&token), None).await;
    assert_eq!(status, 200);
    let (status, body) = app.get(&path).await;
    assert_error(status, &body, 404, "NEWS_ITEM_NOT_FOUND");
    for method in [Method::PUT, Method::DELETE] {
        let (status, body) =
            call(&app, method, &path, Some(&token), Some(&item(&app, "x", 1))).await;
        assert_error(status, &body, 404, "NEWS_ITEM_NOT_FOUND");
    }
}

async fn bad_items_are_refused(app: TestApp) {
    let token = editor(&app);
    let unknown = uuid::Uuid::now_v7();
    let many: Vec<String> = (0..21).map(|_| uuid::Uuid::now_v7().to_string()).collect();
    let id = publish(&app, item(&app, "ok", 1)).await;
    for bad in [
        json!({"title": ""}),
        json!({"title": "   "}),
        json!({"title": "x".repeat(257)}),
        json!({"title": "t", "description": "x".repeat(20_001)}),
        json!({"title": "t", "image": "javascript:alert(1)"}),
        json!({"title": "t", "image": "https://"}),
        json!({"title": "t", "location": point(200.0, 50.0)}),
        json!({"title": "t", "location": {"type": "Line", "coordinates": [14.0, 50.0]}}),
        json!({"title": "t", "categories": [unknown]}),
        json!({"title": "t", "categories": many}),
        json!({"title": "t", "categories": ["abc"]}),
        json!({"title": "t", "date": "yesterday"}),
        json!({"title": "t", "id": unknown}),
        json!({"title": "t", "colour": "red"}),
        json!({}),
    ] {
        for (method, path) in [
            (Method::POST, "/news".to_owned()),
            (Method::PUT, format!("/news/{id}")),
        ] {
            let (status, body) = call(&app, method, &path, Some(&token), Some(&bad)).await;
            assert_eq!(status, 400, "{bad}: {body}");
        }
    }
    for edge in [
        json!({"title": "x".repeat(256), "description": "x".repeat(20_000)}),
        json!({"title": "t", "categories": []}),
    ] {
        let (status, body) = call(&app, Method::POST, "/news", Some(&token), Some(&edge)).await;
        assert_eq!(status, 201, "{body}");
    }
    // Nothing of the refused ones was stored.
    assert_eq!(
        app.get_ok("/news").await["news"].as_array().unwrap().len(),
        3
    );
}

async fn writes_need_the_news_scope(app: TestApp) {
    let id = publish(&app, item(&app, "ok", 1)).await;
    let other = app.token("citizen-1", &["cityuser:news-categories:manage"]);
    let path = format!("/news/{id}");
    for (method, path) in [
        (Method::POST, "/news"),
        (Method::PUT, path.as_str()),
        (Method::DELETE, path.as_str()),
    ] {
        let body = item(&app, "x", 1);
        assert_needs_a_scope(&app, method, path, &other, &body).await;
    }
    let only = app.token("editor-2", &[NEWS_SCOPE]);
    let (status, _) = call(&app, Method::DELETE, &path, Some(&only), None).await;
    assert_eq!(status, 200);
}

async fn editors_upload_a_picture_and_link_it(app: TestApp) {
    let (jpeg, _) = crate::media_images::images::jpeg();
    let form = || {
        reqwest::multipart::Form::new().part(
            "media",
            reqwest::multipart::Part::bytes(jpeg.clone()).file_name("park.jpg"),
        )
    };
    let upload = |token: Option<String>| {
        let mut request = app
            .http
            .post(format!("{}/media", app.base))
            .multipart(form());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let response = upload(None).await.unwrap();
    assert_eq!(response.status(), 401);
    let response = upload(Some(
        app.token("citizen-1", &["cityuser:news-categories:manage"]),
    ))
    .await
    .unwrap();
    assert_eq!(response.status(), 403);
    for scope in [NEWS_SCOPE, "cityuser:projects:manage"] {
        let response = upload(Some(app.token("editor-2", &[scope]))).await.unwrap();
        assert_eq!(response.status(), 201);
    }
    let response = upload(Some(editor(&app))).await.unwrap();
    assert_eq!(response.status(), 201);
    let body: serde_json::Value = response.json().await.unwrap();
    let file = &body["media"][0];
    assert_eq!(file["media_type"], "image/jpeg");
    assert_eq!(file["filename"], "park.jpg");
    let url = file["public_url"].as_str().unwrap().to_owned();
    // The stored picture is served, without its location data.
    let media_id = file["media_id"].as_str().unwrap();
    let served = app.get_response(&format!("/media/{media_id}")).await;
    assert_eq!(served.status(), 200);
    crate::media_images::images::assert_no_metadata(&served.bytes().await.unwrap());
    let mut news = item(&app, "Park", 1);
    news["image"] = json!(url);
    let id = publish(&app, news).await;
    assert_eq!(
        app.get_ok(&format!("/news/{id}")).await["image"],
        json!(url)
    );
    // A form without a file stores nothing.
    let response = app
        .http
        .post(format!("{}/media", app.base))
        .bearer_auth(editor(&app))
        .multipart(reqwest::multipart::Form::new().text("x", "y"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
}

async fn a_field_too_long_is_a_400_even_written_with_escapes(app: TestApp) {
    // Every character of the description as a `\u` escape: 6 bytes each, over the general JSON
    // limit, but under the editors' one.
    for (chars, want) in [(20_000, 201), (20_001, 400)] {
        let body = format!(
            r#"{{"title": "t", "description": "{}"}}"#,
            "\\u00c2".repeat(chars)
        );
        let response = app
            .http
            .post(format!("{}/news", app.base))
            .bearer_auth(editor(&app))
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), want, "{chars} characters");
    }
}
