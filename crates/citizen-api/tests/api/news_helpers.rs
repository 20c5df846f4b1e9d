//! Helpers of the news, news-category and project suites: an editor's token, publishing over
//! the API, and walking a cursor-paged list to its end.
#![allow(dead_code)] // each test module uses part of it

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{assert_error, string, TestApp};

pub const NEWS_SCOPE: &str = "cityuser:news:manage";
pub const CATEGORIES_SCOPE: &str = "cityuser:news-categories:manage";
pub const PROJECTS_SCOPE: &str = "cityuser:projects:manage";

/// A token with all three editors' scopes.
pub fn editor(app: &TestApp) -> String {
    app.token("editor-1", &[NEWS_SCOPE, CATEGORIES_SCOPE, PROJECTS_SCOPE])
}

/// A request with an optional token and an optional JSON body: (status, JSON body).
pub async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    app.request(method, path, token, body).await
}

/// `method path` with `body` is refused without a token (401) and with `other`, a token without
/// the scope it needs (403).
pub async fn assert_needs_a_scope(
    app: &TestApp,
    method: Method,
    path: &str,
    other: &str,
    body: &Value,
) {
    let (status, answer) = call(app, method.clone(), path, None, Some(body)).await;
    assert_error(status, &answer, 401, "UNAUTHORIZED");
    let (status, answer) = call(app, method, path, Some(other), Some(body)).await;
    assert_error(status, &answer, 403, "FORBIDDEN");
}

/// Creates a news category through the API; its id.
pub async fn category(app: &TestApp, name: &str, parent: Option<&str>) -> String {
    let token = editor(app);
    let (status, body) = call(
        app,
        Method::POST,
        "/news-categories",
        Some(&token),
        Some(&json!({"name": name, "parent_id": parent})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["category_id"].as_str().unwrap().to_owned()
}

/// PUT /news-categories/{id} as `token` with `body`: (status, JSON body).
pub async fn edit_category(app: &TestApp, token: &str, id: &str, body: &Value) -> (u16, Value) {
    let path = format!("/news-categories/{id}");
    call(app, Method::PUT, &path, Some(token), Some(body)).await
}

/// DELETE /news-categories/{id} as `token`: (status, JSON body).
pub async fn delete_category(app: &TestApp, token: &str, id: &str) -> (u16, Value) {
    let path = format!("/news-categories/{id}");
    call(app, Method::DELETE, &path, Some(token), None).await
}

/// PATCH /me/news-categories (the subscriptions) as `token` with `body`: (status, JSON body).
pub async fn set_subscriptions(app: &TestApp, token: &str, body: &Value) -> (u16, Value) {
    call(
        app,
        Method::PATCH,
        "/me/news-categories",
        Some(token),
        Some(body),
    )
    .await
}

/// Publishes a news item through the API; its id.
pub async fn publish(app: &TestApp, item: Value) -> String {
    let token = editor(app);
    let (status, body) = call(app, Method::POST, "/news", Some(&token), Some(&item)).await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_owned()
}

/// A news item titled `title` dated `second` seconds after the app's start.
pub fn item(app: &TestApp, title: &str, second: i64) -> Value {
    json!({
        "title": title,
        "description": format!("{title}: text"),
        "date": app.time(second).to_rfc3339(),
    })
}

/// A point.
pub fn point(lon: f64, lat: f64) -> Value {
    json!({"type": "Point", "coordinates": [lon, lat]})
}

/// The query string of a cursor (each string a `pagecursor` parameter).
pub fn cursor_query(cursor: &Value) -> String {
    cursor
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let s = s.as_str().unwrap();
            format!(
                "&pagecursor={}",
                form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>()
            )
        })
        .collect()
}

/// Follows `nextCursor` from the first page of `path?query` to the last; the pages' rows (the
/// `field` array of each page).
pub async fn walk(app: &TestApp, path: &str, query: &str, field: &str) -> Vec<Vec<Value>> {
    let mut pages = Vec::new();
    let mut next = String::new();
    loop {
        let body = app.get_ok(&format!("{path}?{query}{next}")).await;
        pages.push(body[field].as_array().unwrap().clone());
        match &body["nextCursor"] {
            Value::Null => break,
            cursor => {
                let n = cursor.as_array().unwrap().len();
                assert!((1..=2).contains(&n), "{cursor}");
                next = cursor_query(cursor);
            }
        }
        assert!(pages.len() < 1000, "the cursor does not advance");
    }
    pages
}

/// The `key` of each row.
pub fn ids(rows: &[Value], key: &str) -> Vec<String> {
    rows.iter()
        .map(|r| r[key].as_str().unwrap().to_owned())
        .collect()
}

/// The sort keys of rows: two fields of each.
type Keys = Vec<(String, String)>;

/// The (`first`, `second`) of each row, and the same pairs in descending order.
pub fn keys_and_descending(rows: &[Value], first: &str, second: &str) -> (Keys, Keys) {
    let keys: Keys = rows
        .iter()
        .map(|r| (string(&r[first]), string(&r[second])))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    (keys, sorted)
}
