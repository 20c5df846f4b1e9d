//! The shared routes: OpenAPI description, health, readiness and metrics.

use test_support::Backend;

use crate::helpers::*;

#[tokio::test]
async fn openapi_and_health_are_served() {
    let app = spawn_app(Backend::Sqlite)
        .await
        .expect("SQLite is always available");
    let doc =
        test_support::http::get_json(&app.http, &format!("{}/docs/openapi.json", app.base)).await;
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
    let ready = app.readyz().await;
    assert_eq!(ready.status(), 503, "no broker: not ready");
    let metrics = test_support::http::metrics_text(&app.http, &app.root).await;
    assert!(
        metrics.contains("platform_messages_mqtt_connected"),
        "{metrics}"
    );
}
