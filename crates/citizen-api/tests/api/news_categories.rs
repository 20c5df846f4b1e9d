//! News categories (flat and tree views, the editors' writes and their refusals) and the
//! caller's subscriptions.

use reqwest::Method;
use serde_json::{json, Value};
use test_support::on_both_backends;

use crate::helpers::{assert_error, strs, TestApp};
use crate::news_helpers::{
    assert_needs_a_scope, call, category, delete_category, edit_category, editor, item, publish,
    set_subscriptions, CATEGORIES_SCOPE,
};

on_both_backends!(crate::helpers::spawn_app;
    flat_and_tree_views,
    editors_create_change_and_delete,
    the_tree_refuses_unknown_parents_and_cycles,
    deleting_a_category_with_children_or_items,
    writes_need_the_scope,
    subscriptions_count_only_real_changes,
    subscriptions_refuse_unknown_categories_and_change_nothing,
);

async fn flat_and_tree_views(app: TestApp) {
    let transport = category(&app, "Doprava", None).await;
    let closures = category(&app, "Uzavírky", Some(&transport)).await;
    let trams = category(&app, "Tramvaje", Some(&closures)).await;
    let culture = category(&app, "Kultura", None).await;
    let flat = app.get_ok("/news-categories").await;
    assert_eq!(flat, app.get_ok("/news-categories?view=flat").await);
    let names = strs(&flat["news_categories"], "name");
    assert_eq!(names, ["Doprava", "Kultura", "Tramvaje", "Uzavírky"]);
    assert!(flat["news_categories"][0].get("children").is_none());
    assert_eq!(flat["news_categories"][2]["parent_id"], json!(closures));
    let tree = app.get_ok("/news-categories?view=tree").await;
    assert_eq!(
        tree,
        json!({"news_categories": [
            {"category_id": transport, "name": "Doprava", "children": [
                {"category_id": closures, "name": "Uzavírky", "parent_id": transport, "children": [
                    {"category_id": trams, "name": "Tramvaje", "parent_id": closures, "children": []}
                ]}
            ]},
            {"category_id": culture, "name": "Kultura", "children": []}
        ]})
    );
    let (status, body) = app.get("/news-categories?view=list").await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
}

async fn editors_create_change_and_delete(app: TestApp) {
    let token = editor(&app);
    let parent = category(&app, "Doprava", None).await;
    let (status, created) = call(
        &app,
        Method::POST,
        "/news-categories",
        Some(&token),
        Some(&json!({"name": " Uzavírky ", "description": "Omezení provozu", "parent_id": parent})),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["category_id"].as_str().unwrap().to_owned();
    assert_eq!(
        created,
        json!({"category_id": id, "name": "Uzavírky", "description": "Omezení provozu", "parent_id": parent})
    );
    let path = format!("/news-categories/{id}");
    // Absent fields stay; null clears description and parent.
    let (status, body) = edit_category(&app, &token, &id, &json!({"name": "Výluky"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["description"], "Omezení provozu");
    assert_eq!(body["parent_id"], json!(parent));
    let (_, body) = edit_category(
        &app,
        &token,
        &id,
        &json!({"description": null, "parent_id": null}),
    )
    .await;
    assert_eq!(body, json!({"category_id": id, "name": "Výluky"}));
    let (_, body) = edit_category(&app, &token, &id, &json!({})).await;
    assert_eq!(body, json!({"category_id": id, "name": "Výluky"}));
    // Bad fields.
    for bad in [
        json!({"name": ""}),
        json!({"name": "x".repeat(101)}),
        json!({"colour": "red"}),
        json!({"name": 5}),
    ] {
        let (status, body) = edit_category(&app, &token, &id, &bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (status, _) = edit_category(&app, &token, &id, &json!({"name": "x".repeat(100)})).await;
    assert_eq!(status, 200);
    let (status, body) = delete_category(&app, &token, &id).await;
    assert_eq!(status, 200, "{body}");
    for method in [Method::DELETE, Method::PUT] {
        let (status, body) = call(&app, method, &path, Some(&token), Some(&json!({}))).await;
        assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
    }
    let (status, body) = call(
        &app,
        Method::DELETE,
        "/news-categories/abc",
        Some(&token),
        None,
    )
    .await;
    assert_error(status, &body, 404, "CATEGORY_NOT_FOUND");
}

async fn the_tree_refuses_unknown_parents_and_cycles(app: TestApp) {
    let token = editor(&app);
    let a = category(&app, "A", None).await;
    let b = category(&app, "B", Some(&a)).await;
    let c = category(&app, "C", Some(&b)).await;
    let unknown = uuid::Uuid::now_v7();
    let (status, body) = call(
        &app,
        Method::POST,
        "/news-categories",
        Some(&token),
        Some(&json!({"name": "D", "parent_id": unknown})),
    )
    .await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    for (id, parent) in [(&a, &a), (&a, &b), (&a, &c), (&b, &c)] {
        let (status, body) = edit_category(&app, &token, id, &json!({"parent_id": parent})).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    // Moving a subtree elsewhere is fine.
    let (status, body) = edit_category(&app, &token, &c, &json!({"parent_id": a})).await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = edit_category(&app, &token, &a, &json!({"parent_id": c})).await;
    assert_eq!(status, 400);
}

async fn deleting_a_category_with_children_or_items(app: TestApp) {
    let token = editor(&app);
    let parent = category(&app, "Doprava", None).await;
    let child = category(&app, "Uzavírky", Some(&parent)).await;
    let other = category(&app, "Kultura", None).await;
    let mut news = item(&app, "Výluka", 1);
    news["categories"] = json!([child, other]);
    let id = publish(&app, news).await;
    let me = app.token("citizen-1", &[]);
    set_subscriptions(
        &app,
        &me,
        &json!([{"category_id": child, "subscribed": true}]),
    )
    .await;
    let (status, body) = delete_category(&app, &token, &parent).await;
    assert_error(status, &body, 409, "CATEGORY_HAS_CHILDREN");
    let (status, _) = delete_category(&app, &token, &child).await;
    assert_eq!(status, 200);
    // The item stays with its other category; the subscription ended.
    let found = app.get_ok(&format!("/news/{id}")).await;
    assert_eq!(
        found["categories"],
        json!([{"id": other, "name": "Kultura"}])
    );
    let (_, subs) = app.get_as("/me/news-categories", Some(&me)).await;
    assert_eq!(subs, json!({"subscriptions": []}));
    let (status, _) = delete_category(&app, &token, &parent).await;
    assert_eq!(status, 200);
}

async fn writes_need_the_scope(app: TestApp) {
    let id = category(&app, "Doprava", None).await;
    let citizen = app.token("citizen-1", &["cityuser:news:manage"]);
    let path = format!("/news-categories/{id}");
    for (method, path) in [
        (Method::POST, "/news-categories"),
        (Method::PUT, path.as_str()),
        (Method::DELETE, path.as_str()),
    ] {
        let body = json!({"name": "X"});
        assert_needs_a_scope(&app, method.clone(), path, &citizen, &body).await;
        // The scope is checked before the body.
        let (status, answer) =
            call(&app, method, path, Some(&citizen), Some(&json!({"bad": 1}))).await;
        assert_error(status, &answer, 403, "FORBIDDEN");
    }
    let only = app.token("editor-2", &[CATEGORIES_SCOPE]);
    let (status, _) = edit_category(&app, &only, &id, &json!({"name": "Y"})).await;
    assert_eq!(status, 200);
}

async fn subscriptions_count_only_real_changes(app: TestApp) {
    let a = category(&app, "A", None).await;
    let b = category(&app, "B", None).await;
    let me = app.token("citizen-1", &[]);
    let (status, body) = app.get_as("/me/news-categories", Some(&me)).await;
    assert_eq!((status, body), (200, json!({"subscriptions": []})));
    let patch = |body: Value| {
        let me = me.clone();
        let app = &app;
        async move {
            call(
                app,
                Method::PATCH,
                "/me/news-categories",
                Some(&me),
                Some(&body),
            )
            .await
        }
    };
    let on = |id: &str, subscribed: bool| json!({"category_id": id, "subscribed": subscribed});
    assert_eq!(
        patch(json!([on(&a, true), on(&b, true)])).await,
        (200, json!({"changes": 2}))
    );
    assert_eq!(
        patch(json!([on(&a, true)])).await,
        (200, json!({"changes": 0}))
    );
    assert_eq!(
        patch(json!([on(&a, false), on(&b, true)])).await,
        (200, json!({"changes": 1}))
    );
    assert_eq!(patch(json!([])).await, (200, json!({"changes": 0})));
    // The last entry of a category counts.
    assert_eq!(
        patch(json!([on(&a, true), on(&a, false)])).await,
        (200, json!({"changes": 0}))
    );
    let (_, body) = app.get_as("/me/news-categories", Some(&me)).await;
    assert_eq!(body, json!({"subscriptions": [b]}));
    // Another account is apart.
    let (_, body) = app
        .get_as("/me/news-categories", Some(&app.token("citizen-2", &[])))
        .await;
    assert_eq!(body, json!({"subscriptions": []}));
    let (status, body) = app.get("/me/news-categories").await;
    assert_error(status, &body, 401, "UNAUTHORIZED");
}

async fn subscriptions_refuse_unknown_categories_and_change_nothing(app: TestApp) {
    let a = category(&app, "A", None).await;
    let me = app.token("citizen-1", &[]);
    let unknown = uuid::Uuid::now_v7().to_string();
    for bad in [
        json!([{"category_id": a, "subscribed": true}, {"category_id": unknown, "subscribed": true}]),
        json!([{"category_id": "abc", "subscribed": true}]),
        json!([{"category_id": a}]),
        json!([{"category_id": a, "subscribed": true, "x": 1}]),
        json!({"category_id": a, "subscribed": true}),
    ] {
        let (status, body) = set_subscriptions(&app, &me, &bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(
            body["name"] == "VALIDATION_ERROR" || body["name"] == "INVALID_JSON",
            "{body}"
        );
    }
    let (_, body) = app.get_as("/me/news-categories", Some(&me)).await;
    assert_eq!(body, json!({"subscriptions": []}));
    // At most 500 entries.
    let entry = json!({"category_id": a, "subscribed": true});
    let (status, body) = set_subscriptions(&app, &me, &json!(vec![entry.clone(); 501])).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    let (status, body) = set_subscriptions(&app, &me, &json!(vec![entry; 500])).await;
    assert_eq!((status, body), (200, json!({"changes": 1})));
}
