//! Reply templates (`/admin/reply-templates`): a round trip of create, list, change and delete;
//! access by category and scope (another category's template or category answers 404 like one
//! that does not exist); every limit at its edge; the limit per category; a deleted category
//! takes its templates with it.

use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, READ};
use crate::helpers::{assert_error, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    a_template_is_created_listed_changed_and_deleted,
    officers_reach_only_their_categories_templates,
    every_limit_holds_at_its_edge,
    a_category_holds_at_most_a_hundred_templates,
    callers_without_a_token_or_the_scope_are_refused,
    a_deleted_category_takes_its_templates_with_it,
);

const PATH: &str = "/admin/reply-templates";

impl TestApp {
    /// POST /admin/reply-templates as `token`.
    async fn add_template(&self, token: &str, body: &Value) -> (u16, Value) {
        self.send_json(Method::POST, PATH, token, body).await
    }

    /// PATCH /admin/reply-templates/{id} as `token`.
    async fn patch_template(&self, token: &str, template: Uuid, body: &Value) -> (u16, Value) {
        let path = format!("{PATH}/{template}");
        self.send_json(Method::PATCH, &path, token, body).await
    }

    /// DELETE /admin/reply-templates/{id} as `token`.
    async fn delete_template(&self, token: &str, template: Uuid) -> (u16, Value) {
        let path = format!("{PATH}/{template}");
        self.request(Method::DELETE, &path, Some(token), None).await
    }

    /// GET /admin/reply-templates?{query} as `token`, answering 200: the templates.
    async fn templates(&self, token: &str, query: &str) -> Vec<Value> {
        let (status, body) = self.get_as(&format!("{PATH}?{query}"), Some(token)).await;
        assert_eq!(status, 200, "{query}: {body}");
        body["templates"].as_array().unwrap().clone()
    }

    /// A template in `category` created as the super admin: its id.
    async fn template_in(&self, category: Uuid, title: &str) -> Uuid {
        let body = json!({"category_id": category, "title": title, "texts": {"cs": title}});
        let (status, created) = self.add_template(&self.boss(), &body).await;
        assert_eq!(status, 201, "{created}");
        id(&created, "template_id")
    }
}

/// The titles of `templates`, in order.
fn titles(templates: &[Value]) -> Vec<&str> {
    templates
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect()
}

/// An instant as the API writes it.
fn instant(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

async fn a_template_is_created_listed_changed_and_deleted(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    app.assign("o-roads", roads).await;
    let officer = app.officer("o-roads");
    app.clock.set(app.time(10));
    let body = json!({
        "category_id": roads,
        "title": "  Accepted, crew sent  ",
        "texts": {"cs": "Děkujeme, posíláme četu.", "en": "Thank you, a crew is on its way."},
        "applies_on": "accepted",
    });
    let (status, created) = app.add_template(&officer, &body).await;
    assert_eq!(status, 201, "{created}");
    let template = id(&created, "template_id");
    let at = instant(app.time(10));
    assert_eq!(
        created,
        json!({
            "template_id": template,
            "category_id": roads,
            "title": "Accepted, crew sent",
            "texts": {"cs": "Děkujeme, posíláme četu.", "en": "Thank you, a crew is on its way."},
            "applies_on": "accepted",
            "inserted_at": at,
            "updated_at": at,
        })
    );
    assert_eq!(
        app.templates(&officer, "").await,
        std::slice::from_ref(&created)
    );
    // A reader (read scope only) of the category lists it too.
    let reader = app.token("o-roads", &[READ]);
    assert_eq!(
        app.templates(&reader, "").await,
        std::slice::from_ref(&created)
    );

    // `texts` replaces every language; absent fields stay; null clears `applies_on`.
    app.clock.set(app.time(20));
    let change = json!({"texts": {"uk": "Дякуємо."}, "applies_on": null});
    let (status, changed) = app.patch_template(&officer, template, &change).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["title"], "Accepted, crew sent");
    assert_eq!(changed["texts"], json!({"uk": "Дякуємо."}));
    assert_eq!(changed["applies_on"], Value::Null);
    assert_eq!(changed["inserted_at"], at);
    assert_eq!(changed["updated_at"], instant(app.time(20)));
    let change = json!({"title": "Resolved", "applies_on": "resolved"});
    let (status, changed) = app.patch_template(&officer, template, &change).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(
        (&changed["title"], &changed["applies_on"], &changed["texts"]),
        (
            &json!("Resolved"),
            &json!("resolved"),
            &json!({"uk": "Дякуємо."})
        )
    );
    // A change of nothing changes nothing.
    let (status, same) = app.patch_template(&officer, template, &json!({})).await;
    assert_eq!((status, &same), (200, &changed));
    assert_eq!(app.templates(&officer, "").await, [changed]);

    let (status, body) = app.delete_template(&officer, template).await;
    assert_eq!(status, 204, "{body}");
    assert!(app.templates(&officer, "").await.is_empty());
    let (status, body) = app.delete_template(&officer, template).await;
    assert_error(status, &body, 404, "REPLY_TEMPLATE_NOT_FOUND");
    let (status, body) = app.patch_template(&officer, template, &json!({})).await;
    assert_error(status, &body, 404, "REPLY_TEMPLATE_NOT_FOUND");
    // A path that is no id names nothing.
    let (status, body) = app
        .request(Method::DELETE, &format!("{PATH}/x"), Some(&officer), None)
        .await;
    assert_error(status, &body, 404, "REPLY_TEMPLATE_NOT_FOUND");
}

async fn officers_reach_only_their_categories_templates(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-roads", roads).await;
    app.assign("o-light", light).await;
    let mine = app.template_in(roads, "Pothole filled").await;
    app.template_in(roads, "Crew sent").await;
    let theirs = app.template_in(light, "Lamp replaced").await;
    let officer = app.officer("o-roads");

    // The list: the caller's categories only; by category name, then title.
    assert_eq!(
        titles(&app.templates(&officer, "").await),
        ["Crew sent", "Pothole filled"]
    );
    assert_eq!(
        titles(&app.templates(&officer, &format!("category={light}")).await),
        [] as [&str; 0]
    );
    let boss = app.boss();
    assert_eq!(
        titles(&app.templates(&boss, "").await),
        ["Lamp replaced", "Crew sent", "Pothole filled"]
    );
    assert_eq!(
        titles(&app.templates(&boss, &format!("category={light}")).await),
        ["Lamp replaced"]
    );
    let both = format!("category={roads}&category={light}");
    assert_eq!(titles(&app.templates(&boss, &both).await).len(), 3);
    assert_eq!(titles(&app.templates(&officer, &both).await).len(), 2);
    let (status, body) = app
        .get_as(&format!("{PATH}?category=abc"), Some(&boss))
        .await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    // An officer of no category sees none.
    assert!(app.templates(&app.officer("nobody"), "").await.is_empty());

    // Another category's template is answered as one that does not exist.
    let (status, body) = app
        .patch_template(&officer, theirs, &json!({"title": "Mine now"}))
        .await;
    assert_error(status, &body, 404, "REPLY_TEMPLATE_NOT_FOUND");
    let (status, body) = app.delete_template(&officer, theirs).await;
    assert_error(status, &body, 404, "REPLY_TEMPLATE_NOT_FOUND");
    // … and another category as one that does not exist.
    let body = json!({"category_id": light, "title": "Mine", "texts": {"en": "Mine"}});
    let (status, refused) = app.add_template(&officer, &body).await;
    assert_error(status, &refused, 404, "CATEGORY_NOT_FOUND");
    let missing = json!({"category_id": Uuid::now_v7(), "title": "X", "texts": {"en": "X"}});
    let (status, unknown) = app.add_template(&officer, &missing).await;
    assert_error(status, &unknown, 404, "CATEGORY_NOT_FOUND");
    assert_eq!(refused["userinfo"], unknown["userinfo"]);
    let (status, unknown) = app.add_template(&boss, &missing).await;
    assert_error(status, &unknown, 404, "CATEGORY_NOT_FOUND");
    assert_eq!(titles(&app.templates(&boss, "").await).len(), 3);

    // The super admin works every category's templates.
    let (status, changed) = app
        .patch_template(&boss, theirs, &json!({"title": "Lamp fixed"}))
        .await;
    assert_eq!((status, &changed["title"]), (200, &json!("Lamp fixed")));
    let (status, _) = app.delete_template(&boss, mine).await;
    assert_eq!(status, 204);
    assert_eq!(
        titles(&app.templates(&boss, "").await),
        ["Lamp fixed", "Crew sent"]
    );
}

async fn every_limit_holds_at_its_edge(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    app.assign("o-roads", roads).await;
    let officer = app.officer("o-roads");
    let with = |title: &str, texts: Value, applies_on: Value| json!({"category_id": roads, "title": title, "texts": texts, "applies_on": applies_on});
    let longest_title = "ř".repeat(200);
    let longest_text = "ů".repeat(4096);
    let accepted = [
        with(&longest_title, json!({"cs": "a"}), Value::Null),
        with(
            &format!(" {longest_title} "),
            json!({"cs": "a"}),
            Value::Null,
        ),
        with("x", json!({"en": longest_text}), json!("resolved")),
        with(
            "x",
            json!({"cs": "a", "en": "b", "uk": "в"}),
            json!("accepted"),
        ),
        json!({"category_id": roads, "title": "no applies_on", "texts": {"uk": "в"}}),
    ];
    for body in &accepted {
        let (status, created) = app.add_template(&officer, body).await;
        assert_eq!(status, 201, "{created}");
    }
    let refused = [
        with(&"ř".repeat(201), json!({"cs": "a"}), Value::Null),
        with("", json!({"cs": "a"}), Value::Null),
        with("   ", json!({"cs": "a"}), Value::Null),
        with("x", json!({"cs": "ů".repeat(4097)}), Value::Null),
        with("x", json!({}), Value::Null),
        with("x", json!({"cs": ""}), Value::Null),
        with("x", json!({"cs": " \n "}), Value::Null),
        with("x", json!({"cs": "a", "de": "b"}), Value::Null),
        with("x", json!({"CS": "a"}), Value::Null),
        with("x", json!({"cs": null}), Value::Null),
        with("x", json!(["cs", "a"]), Value::Null),
        with("x", json!({"cs": "a"}), json!("open")),
        with("x", json!({"cs": "a"}), json!("duplicate")),
        with("x", json!({"cs": "a"}), json!("Accepted")),
        json!({"category_id": roads, "title": "x", "texts": {"cs": "a"}, "final": true}),
        json!({"category_id": roads, "texts": {"cs": "a"}}),
        json!({"category_id": roads, "title": "x"}),
        json!({"category_id": "roads", "title": "x", "texts": {"cs": "a"}}),
    ];
    for body in &refused {
        let (status, answer) = app.add_template(&officer, body).await;
        assert_error(status, &answer, 400, "VALIDATION_ERROR");
    }
    let (status, answer) = app.add_template(&officer, &json!("x")).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(app.templates(&officer, "").await.len(), accepted.len());

    // The same limits on a change, and nothing changes when one is refused.
    let template = app.template_in(roads, "Edge").await;
    for change in [
        json!({"title": "ř".repeat(201)}),
        json!({"title": " "}),
        json!({"texts": {"en": "e".repeat(4097)}}),
        json!({"texts": {}}),
        json!({"texts": {"sk": "a"}}),
        json!({"applies_on": "open"}),
        json!({"category_id": roads}),
        json!({"colour": "red"}),
    ] {
        let (status, answer) = app.patch_template(&officer, template, &change).await;
        assert_error(status, &answer, 400, "VALIDATION_ERROR");
    }
    let change = json!({"title": longest_title, "texts": {"en": "ů".repeat(4096)}});
    let (status, changed) = app.patch_template(&officer, template, &change).await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["title"], longest_title.as_str());
    // The explanation is in the caller's language.
    for (language, word) in [("cs", "znak"), ("en", "characters"), ("uk", "символ")] {
        let response = app
            .http
            .post(format!("{}{PATH}", app.base))
            .bearer_auth(&officer)
            .header("Accept-Language", language)
            .json(&with("x", json!({"cs": "ů".repeat(4097)}), Value::Null))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.unwrap();
        let userinfo = body["userinfo"].as_str().unwrap();
        assert!(
            userinfo.contains(word) && userinfo.contains("4096"),
            "{language}: {userinfo}"
        );
    }
}

async fn a_category_holds_at_most_a_hundred_templates(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-roads", roads).await;
    let officer = app.officer("o-roads");
    let body =
        |n: usize| json!({"category_id": roads, "title": format!("T{n:03}"), "texts": {"cs": "a"}});
    for n in 1..=99 {
        let (status, created) = app.add_template(&officer, &body(n)).await;
        assert_eq!(status, 201, "{n}: {created}");
    }
    // The 100th passes, the 101st is refused.
    let (status, hundredth) = app.add_template(&officer, &body(100)).await;
    assert_eq!(status, 201, "{hundredth}");
    let (status, refused) = app.add_template(&officer, &body(101)).await;
    assert_error(status, &refused, 409, "TOO_MANY_REPLY_TEMPLATES");
    assert!(refused["userinfo"].as_str().unwrap().contains("100"));
    assert_eq!(app.templates(&officer, "").await.len(), 100);
    // Another category is not full.
    app.template_in(light, "Lamp").await;
    // After a deletion there is room for one again.
    let (status, _) = app
        .delete_template(&officer, id(&hundredth, "template_id"))
        .await;
    assert_eq!(status, 204);
    let (status, created) = app.add_template(&officer, &body(101)).await;
    assert_eq!(status, 201, "{created}");
}

async fn callers_without_a_token_or_the_scope_are_refused(app: TestApp) {
    let roads = app.admin_category("Roads", None).await;
    let template = app.template_in(roads, "Crew sent").await;
    let body = json!({"category_id": roads, "title": "x", "texts": {"cs": "a"}});
    let one = format!("{PATH}/{template}");
    let calls: [(Method, &str, Option<&Value>); 4] = [
        (Method::GET, PATH, None),
        (Method::POST, PATH, Some(&body)),
        (Method::PATCH, &one, Some(&body)),
        (Method::DELETE, &one, None),
    ];
    let citizen = app.token("citizen-1", &[]);
    let reader = app.token("o-read", &[READ]);
    for (method, path, body) in &calls {
        let (status, answer) = app.request(method.clone(), path, None, *body).await;
        assert_error(status, &answer, 401, "UNAUTHORIZED");
        let (status, answer) = app
            .request(method.clone(), path, Some(&citizen), *body)
            .await;
        assert_error(status, &answer, 403, "FORBIDDEN");
        if *method != Method::GET {
            // Reading does not let one write.
            let (status, answer) = app
                .request(method.clone(), path, Some(&reader), *body)
                .await;
            assert_error(status, &answer, 403, "FORBIDDEN");
        }
    }
    assert_eq!(app.templates(&app.boss(), "").await.len(), 1);
}

async fn a_deleted_category_takes_its_templates_with_it(app: TestApp) {
    let spare = app.admin_category("Spare", None).await;
    let roads = app.admin_category("Roads", None).await;
    let gone = app.template_in(spare, "Spare reply").await;
    app.template_in(roads, "Roads reply").await;
    let boss = app.boss();
    let (status, body) = app.delete_category(spare, &boss).await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(titles(&app.templates(&boss, "").await), ["Roads reply"]);
    let (status, body) = app
        .patch_template(&boss, gone, &json!({"title": "x"}))
        .await;
    assert_error(status, &body, 404, "REPLY_TEMPLATE_NOT_FOUND");
}
