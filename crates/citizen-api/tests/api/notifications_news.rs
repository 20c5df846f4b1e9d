//! News in the feed: publishing an item tells the subscribers of its categories (a parent's
//! subscribers included), once, in their language; an edit tells nobody again, and an item
//! deleted before the worker ran tells nobody.

use reqwest::Method;
use serde_json::{json, Value};
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::helpers::TestApp;
use crate::news_helpers::{call, category, editor, item, publish, set_subscriptions};
use crate::notifications_helpers::{feed, fields, token_with, worker};

on_both_backends!(crate::notifications_events::spawn_without_worker;
    a_published_item_reaches_the_subscribers_of_its_categories_and_their_parents_once,
    an_item_deleted_before_the_worker_ran_tells_nobody,
);

async fn subscribe(app: &TestApp, subject: &str, category: &str) {
    let body = json!([{"category_id": category, "subscribed": true}]);
    let (status, body) = set_subscriptions(app, &app.token(subject, &[]), &body).await;
    assert_eq!(status, 200, "{body}");
}

async fn a_published_item_reaches_the_subscribers_of_its_categories_and_their_parents_once(
    app: TestApp,
) {
    let traffic = category(&app, "Doprava", None).await;
    let closures = category(&app, "Uzavírky", Some(&traffic)).await;
    let culture = category(&app, "Kultura", None).await;
    subscribe(&app, "child-fan", &closures).await;
    subscribe(&app, "parent-fan", &traffic).await;
    subscribe(&app, "both", &traffic).await;
    subscribe(&app, "both", &closures).await;
    subscribe(&app, "culture-fan", &culture).await;
    // parent-fan reads Czech.
    let (status, _) = app
        .save_settings(
            &token_with("parent-fan", None, Some("cs")),
            true,
            Value::Null,
        )
        .await;
    assert_eq!(status, 200);

    let mut news = item(&app, "Tram line closed", 1);
    news["categories"] = json!([closures]);
    let id = publish(&app, news.clone()).await;
    // An edit is not a new publication.
    news["title"] = json!("Tram line closed until Monday");
    let (status, body) = call(
        &app,
        Method::PUT,
        &format!("/news/{id}"),
        Some(&editor(&app)),
        Some(&news),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    assert_eq!(worker(&app).run_once(app.clock.now()).await.unwrap(), 1);
    for subject in ["child-fan", "both"] {
        let page = feed(&app, subject).await;
        assert_eq!(
            fields(&page, "title"),
            vec!["News from the city"],
            "{subject}"
        );
        assert_eq!(
            fields(&page, "body"),
            vec!["“Tram line closed until Monday”"],
            "{subject}: the item as the worker finds it"
        );
        assert_eq!(
            fields(&page, "url"),
            vec![format!("https://city.example/news/{id}")],
            "{subject}: the entry leads to the item's page"
        );
    }
    assert_eq!(
        fields(&feed(&app, "parent-fan").await, "title"),
        vec!["Novinka z města"]
    );
    assert!(fields(&feed(&app, "culture-fan").await, "tag").is_empty());
    // Nothing pending, nothing doubled.
    assert_eq!(worker(&app).run_once(app.clock.now()).await.unwrap(), 0);
    assert_eq!(fields(&feed(&app, "both").await, "tag").len(), 1);
}

async fn an_item_deleted_before_the_worker_ran_tells_nobody(app: TestApp) {
    let traffic = category(&app, "Doprava", None).await;
    subscribe(&app, "fan", &traffic).await;
    let mut news = item(&app, "Withdrawn", 1);
    news["categories"] = json!([traffic]);
    let id = publish(&app, news).await;
    let (status, _) = call(
        &app,
        Method::DELETE,
        &format!("/news/{id}"),
        Some(&editor(&app)),
        None,
    )
    .await;
    assert!(status < 300, "{status}");
    // The event is processed (not left pending) and writes nothing.
    assert_eq!(worker(&app).run_once(app.clock.now()).await.unwrap(), 1);
    assert!(fields(&feed(&app, "fan").await, "tag").is_empty());
}
