//! The OpenAPI description and the boundary.

use test_support::on_both_backends;

use crate::helpers::{strs, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    the_description_lists_every_route_and_error_name,
    the_boundary_is_the_configured_territory,
);

async fn the_description_lists_every_route_and_error_name(app: TestApp) {
    let response = app
        .get_with_header("/docs", "Accept", "application/json")
        .await;
    assert_eq!(response.status(), 200);
    let doc: serde_json::Value = response.json().await.unwrap();
    for path in [
        "/reports",
        "/reports/{reportId}",
        "/reports/{reportId}/status",
        "/me/reports",
        "/me/reports-categories",
        "/geo/boundary",
        "/news",
        "/news/{newId}",
        "/news-categories",
        "/news-categories/{categoryId}",
        "/me/news-categories",
        "/projects",
        "/projects/{projectId}",
        "/me/notifications",
        "/me/notifications/read",
        "/me/notifications/unread-count",
        "/me/notifications/settings",
        "/me/notifications/webpush",
        "/me/notifications/email",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} missing");
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let tags = strs(&doc["tags"], "name");
    assert!(
        tags.contains(&"news") && tags.contains(&"projects"),
        "{tags:?}"
    );
    let text = doc.to_string();
    for name in [
        "REPORT_NOT_FOUND",
        "VALIDATION_ERROR",
        "UNAUTHORIZED",
        "NEWS_ITEM_NOT_FOUND",
        "CATEGORY_NOT_FOUND",
        "CATEGORY_HAS_CHILDREN",
        "PROJECT_NOT_FOUND",
        "INVALID_NOTIFICATION_TAGS",
        "WEBPUSH_ENDPOINT_NOT_ALLOWED",
        "WEBPUSH_SUBSCRIPTION_NOT_FOUND",
        "EMAIL_CLAIM_MISSING",
        "EMAIL_SUBSCRIPTION_NOT_FOUND",
    ] {
        assert!(text.contains(name), "{name} missing");
    }
}

async fn the_boundary_is_the_configured_territory(app: TestApp) {
    let response = app.get_response("/geo/boundary").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/geo+json");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["type"], "MultiPolygon");
    assert_eq!(
        body["coordinates"][0][0][0],
        serde_json::json!([14.2245, 50.103])
    );
}
