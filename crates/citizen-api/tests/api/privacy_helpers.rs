//! Helpers of the data-rights suites (export, erasure, retention): two citizens with one item
//! of each kind the platform holds about a person.

use reqwest::Method;
use serde_json::{json, Value};
use uuid::Uuid;
use wiremock::MockServer;

use crate::admin_helpers::id;
use crate::delivery_helpers::{drain, set_settings, subscribe_push};
use crate::helpers::{file, form, TestApp};
use crate::media_images::images;
use crate::news_helpers::{category as news_category, set_subscriptions};
use crate::notifications_helpers::token_with;

/// A citizen of [`two_citizens`] and what it made.
pub struct Citizen {
    pub subject: &'static str,
    /// Its report, with one photo.
    pub report: Uuid,
    pub photo: Uuid,
    /// Its browser's web push endpoint.
    pub endpoint: String,
}

/// Files a report with one photo `hole.jpg` as `subject`: the report's id and the photo's.
pub async fn file_with_photo(app: &TestApp, subject: &str, title: &str) -> (Uuid, Uuid) {
    let (jpeg, _) = images::jpeg();
    let f = form(title, "Deep").part("media", file(jpeg, "hole.jpg"));
    let (status, _, body) = app.post_report(f, Some(&app.token(subject, &[]))).await;
    assert_eq!(status, 201, "{body}");
    (id(&body, "id"), id(&body["media"][0], "media_id"))
}

/// `(subject, e-mail, report title)` of each of the two.
pub type Who = (&'static str, &'static str, &'static str);

/// Two citizens, each with a report with a photo, an e-mail subscription (in Czech),
/// notifications as they happen, a web push subscription at `push`, a subscription to the news category
/// "Roadworks"; the first has placed 2 tokens on the second's report and 1 on its own, the
/// second 1 on the first's; both reports are accepted (each author's feed has an entry, with
/// its deliveries). The two, and the news category's id.
pub async fn two_citizens(
    app: &TestApp,
    push: &MockServer,
    one: Who,
    other: Who,
) -> (Citizen, Citizen, String) {
    let news = news_category(app, "Roadworks", None).await;
    let mut citizens = Vec::new();
    for (subject, email, title) in [one, other] {
        let (report, photo) = file_with_photo(app, subject, title).await;
        let token = token_with(subject, Some(email), Some("cs"));
        let (status, body) = app
            .send_json(Method::POST, "/me/notifications/email", &token, &json!({}))
            .await;
        assert_eq!(status, 201, "{body}");
        set_settings(app, subject, "cs", Value::Null).await;
        let endpoint = subscribe_push(app, subject, push, Some("cs"))
            .await
            .endpoint;
        let subscribe = json!([{"category_id": news, "subscribed": true}]);
        let (status, body) = set_subscriptions(app, &app.token(subject, &[]), &subscribe).await;
        assert_eq!(status, 200, "{body}");
        citizens.push(Citizen {
            subject,
            report,
            photo,
            endpoint,
        });
    }
    let (Some(second), Some(first)) = (citizens.pop(), citizens.pop()) else {
        unreachable!("two citizens were made");
    };
    for (voter, target, n) in [
        (first.subject, second.report, 2),
        (first.subject, first.report, 1),
        (second.subject, first.report, 1),
    ] {
        let (status, body) = app.vote(&app.token(voter, &[]), target, n).await;
        assert_eq!(status, 200, "{body}");
    }
    for report in [first.report, second.report] {
        let issues = app.admin_issues(report, &app.boss()).await;
        let (status, body) = app
            .step(id(&issues["issues"][0], "issue_id"), "accept", &app.boss())
            .await;
        assert_eq!(status, 200, "{body}");
    }
    drain(app).await;
    (first, second, news)
}

/// POST /me/data-export as `subject`, answering 201: the link.
pub async fn start_export(app: &TestApp, subject: &str) -> Value {
    let token = app.token(subject, &[]);
    let (status, body) = app
        .request(Method::POST, "/me/data-export", Some(&token), None)
        .await;
    assert_eq!(status, 201, "{body}");
    body
}
