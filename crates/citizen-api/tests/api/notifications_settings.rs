//! `/me/notifications/settings`: the defaults, storing, and the body's shape.

use reqwest::Method;
use serde_json::json;
use test_support::on_both_backends;

use crate::helpers::TestApp;

on_both_backends!(crate::helpers::spawn_app;
    settings_default_to_enabled_as_it_happens_and_are_stored,
    settings_need_both_fields_and_nothing_else,
);

async fn settings_default_to_enabled_as_it_happens_and_are_stored(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    let (status, body) = app.get_as("/me/notifications/settings", Some(&me)).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"enabled": true, "interval": null}));
    for settings in [
        json!({"enabled": false, "interval": "weekly"}),
        json!({"enabled": true, "interval": "daily"}),
        json!({"enabled": true, "interval": "monthly"}),
        json!({"enabled": false, "interval": null}),
    ] {
        let (status, body) = app
            .send_json(Method::PUT, "/me/notifications/settings", &me, &settings)
            .await;
        assert_eq!((status, &body), (200, &settings));
        let (_, stored) = app.get_as("/me/notifications/settings", Some(&me)).await;
        assert_eq!(stored, settings);
    }
    // Another account still has the defaults.
    let theirs = app.token("citizen-2", &[]);
    let (_, body) = app
        .get_as("/me/notifications/settings", Some(&theirs))
        .await;
    assert_eq!(body, json!({"enabled": true, "interval": null}));
}

async fn settings_need_both_fields_and_nothing_else(app: TestApp) {
    let me = app.token("citizen-1", &[]);
    for body in [
        json!({"enabled": true}),
        json!({"interval": null}),
        json!({"enabled": true, "interval": "hourly"}),
        json!({"enabled": "yes", "interval": null}),
        json!({"enabled": true, "interval": null, "email": true}),
        json!(null),
    ] {
        let (status, answer) = app
            .send_json(Method::PUT, "/me/notifications/settings", &me, &body)
            .await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer["name"].is_string() && answer["userinfo"].is_string());
    }
    let (_, stored) = app.get_as("/me/notifications/settings", Some(&me)).await;
    assert_eq!(stored, json!({"enabled": true, "interval": null}));
}
