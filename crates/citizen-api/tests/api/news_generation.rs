//! The news generation (migration 0018) and the read of all news in one snapshot: every replica
//! keeps the news in memory and rebuilds it when the generation moves, so every write of what
//! the list shows must move it, and the snapshot must hold what the detail answers.

use chrono::{DateTime, Utc};
use citizen_api::store::news::NewsItem;
use reqwest::Method;
use serde_json::{json, Value};
use service_kit::db::{Database, DatabaseSettings};
use test_support::{on_both_backends, Backend};
use uuid::Uuid;

use crate::helpers::TestApp;
use crate::news_helpers::{
    call, category, delete_category, edit_category, editor, item, point, publish, set_subscriptions,
};

on_both_backends!(crate::helpers::spawn_app;
    every_news_write_moves_the_generation,
    writes_by_sql_alone_move_it,
    subscriptions_do_not_move_it,
    simultaneous_item_and_category_writes_all_succeed,
    the_snapshot_holds_every_category_and_item_as_the_detail_shows_it,
);

async fn generation(app: &TestApp) -> i64 {
    app.stores.news.news_generation().await.unwrap()
}

/// Checks a write answered `status` 2xx and moved the generation past `before`; the new one.
async fn moved(app: &TestApp, before: i64, what: &str, status: u16) -> i64 {
    assert!((200..300).contains(&status), "{what}: {status}");
    let after = generation(app).await;
    assert!(
        after > before,
        "{what}: the generation stayed at {before} ({after})"
    );
    after
}

async fn every_news_write_moves_the_generation(app: TestApp) {
    let token = editor(&app);
    let mut g = generation(&app).await;
    assert!(g >= 1);
    assert_eq!(generation(&app).await, g, "a read moved the generation");

    let parent = category(&app, "Doprava", None).await;
    g = moved(&app, g, "category created", 200).await;
    let cat = category(&app, "Uzavírky", Some(&parent)).await;
    g = moved(&app, g, "child category created", 200).await;
    let (status, _) = edit_category(&app, &token, &cat, &json!({"name": "Výluky"})).await;
    g = moved(&app, g, "category renamed", status).await;

    let mut news = item(&app, "Výluka", 1);
    news["categories"] = json!([cat]);
    let id = publish(&app, news).await;
    g = moved(&app, g, "item created", 201).await;
    let news_path = format!("/news/{id}");
    let mut changed = item(&app, "Výluka tramvají", 2);
    changed["location"] = point(14.42, 50.08);
    let (status, _) = call(&app, Method::PUT, &news_path, Some(&token), Some(&changed)).await;
    g = moved(&app, g, "item replaced", status).await;
    let (status, _) = call(&app, Method::DELETE, &news_path, Some(&token), None).await;
    g = moved(&app, g, "item deleted", status).await;

    let (status, _) = delete_category(&app, &token, &cat).await;
    g = moved(&app, g, "category deleted", status).await;
    // A refused write is rolled back, its trigger's move with it; reads never move it.
    let unknown = format!("/news/{}", Uuid::now_v7());
    let (status, _) = call(&app, Method::PUT, &unknown, Some(&token), Some(&changed)).await;
    assert_eq!(status, 404);
    app.get_ok("/news").await;
    app.get_ok("/news-categories").await;
    assert_eq!(generation(&app).await, g);
}

/// A pool of its own on the app's database, for writes outside the API (as bulk loads make).
pub(crate) async fn raw_execute(app: &TestApp, sql: &str) {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    match Database::connect(&settings, citizen_api::store::SCHEMA)
        .await
        .unwrap()
    {
        Database::Postgres(pool) => drop(sqlx::query(sql).execute(&pool).await.unwrap()),
        Database::Sqlite(pool) => drop(sqlx::query(sql).execute(&pool).await.unwrap()),
    }
}

/// Each statement writes one table, so each trigger is checked by itself (the API's writes touch
/// several tables at once).
async fn writes_by_sql_alone_move_it(app: TestApp) {
    let cat = category(&app, "Kultura", None).await;
    let mut news = item(&app, "Koncert", 1);
    news["categories"] = json!([cat]);
    let id = publish(&app, news).await;
    let mut g = generation(&app).await;
    let link =
        format!("INSERT INTO news_item_categories (news_id, category_id) VALUES ('{id}', '{cat}')");
    let mut statements = vec![
        format!("UPDATE news_items SET title = 'Koncert v parku' WHERE id = '{id}'"),
        format!("UPDATE news_categories SET description = 'Hudba' WHERE id = '{cat}'"),
        format!("DELETE FROM news_item_categories WHERE news_id = '{id}'"),
        link.clone(),
        format!("UPDATE news_item_categories SET category_id = '{cat}' WHERE news_id = '{id}'"),
        // Without WHERE: SQLite's truncate shortcut must not skip the triggers.
        "DELETE FROM news_item_categories".to_owned(),
        link,
    ];
    if app.db.backend == Backend::Postgres {
        statements.push("TRUNCATE news_item_categories".to_owned());
    }
    statements.push(format!("DELETE FROM news_items WHERE id = '{id}'"));
    for sql in &statements {
        raw_execute(&app, sql).await;
        g = moved(&app, g, sql, 200).await;
    }
    raw_execute(&app, "DELETE FROM news_subscriptions").await;
    assert_eq!(generation(&app).await, g);
}

async fn subscriptions_do_not_move_it(app: TestApp) {
    let a = category(&app, "A", None).await;
    let b = category(&app, "B", None).await;
    let me = app.token("citizen-1", &[]);
    let g = generation(&app).await;
    for body in [
        json!([{"category_id": a, "subscribed": true}, {"category_id": b, "subscribed": true}]),
        json!([{"category_id": a, "subscribed": false}]),
    ] {
        let (status, answer) = set_subscriptions(&app, &me, &body).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(generation(&app).await, g, "{body}");
    }
    let (_, subs) = app.get_as("/me/news-categories", Some(&me)).await;
    assert_eq!(subs, json!({"subscriptions": [b]}));
}

/// An item write holds the generation's row from its first statement and then checks its
/// categories, which waits for a category write's table lock (PostgreSQL); a category write that
/// took its table lock before the generation's row would deadlock with it (one aborted).
async fn simultaneous_item_and_category_writes_all_succeed(app: TestApp) {
    let token = editor(&app);
    let cat = category(&app, "Kultura", None).await;
    let before = generation(&app).await;
    for round in 0..12 {
        let mut news = item(&app, &format!("Koncert {round}"), round);
        news["categories"] = json!([cat]);
        let rename = json!({"name": format!("Kultura {round}")});
        let created = json!({"name": format!("Nová {round}")});
        let cat_path = format!("/news-categories/{cat}");
        let (item, renamed, added) = tokio::join!(
            call(&app, Method::POST, "/news", Some(&token), Some(&news)),
            call(&app, Method::PUT, &cat_path, Some(&token), Some(&rename)),
            call(
                &app,
                Method::POST,
                "/news-categories",
                Some(&token),
                Some(&created)
            ),
        );
        assert_eq!(
            (item.0, renamed.0, added.0),
            (201, 200, 200),
            "round {round}: {item:?} {renamed:?} {added:?}"
        );
    }
    let snapshot = app.stores.news.news_snapshot().await.unwrap();
    assert!(
        snapshot.generation >= before + 36,
        "{before} {}",
        snapshot.generation
    );
    assert_eq!(snapshot.items.len(), 12);
    assert_eq!(snapshot.categories.len(), 13);
}

/// `item` is what the detail `body` shows.
fn assert_shows(item: &NewsItem, body: &Value) {
    assert_eq!(body["id"], json!(item.id));
    assert_eq!(body["title"], json!(item.title));
    assert_eq!(body["description"], json!(item.description));
    assert_eq!(
        body.get("image"),
        item.image.as_ref().map(|i| json!(i)).as_ref()
    );
    let date: DateTime<Utc> = body["date"].as_str().unwrap().parse().unwrap();
    assert_eq!(date, item.date);
    let location = item.location.map(|p| point(p.lon, p.lat));
    assert_eq!(body.get("location"), location.as_ref());
    let categories: Vec<Value> = item
        .categories
        .iter()
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    assert_eq!(body["categories"], json!(categories), "{}", item.id);
    assert_eq!(item.distance, None);
}

async fn the_snapshot_holds_every_category_and_item_as_the_detail_shows_it(app: TestApp) {
    let token = editor(&app);
    // Created out of name order, so the ids' order differs from the names'.
    let zoo = category(&app, "Zoo", None).await;
    let parks = category(&app, "Parky", Some(&zoo)).await;
    let culture = category(&app, "Kultura", None).await;
    let gone = category(&app, "Bude smazána", None).await;
    let mut full = item(&app, "Koncert v zoo", 3);
    full["image"] = json!("https://example.org/zoo.jpg");
    full["location"] = point(14.4055, 50.1166);
    full["categories"] = json!([zoo, parks, culture, gone]);
    let mut one = item(&app, "Výstava", 5);
    one["categories"] = json!([culture]);
    let mut ids = vec![
        publish(&app, full).await,
        publish(&app, one).await,
        publish(&app, item(&app, "Bez kategorie", 5)).await,
    ];
    let deleted = publish(&app, item(&app, "Smazaná", 7)).await;
    for path in [
        format!("/news/{deleted}"),
        format!("/news-categories/{gone}"),
    ] {
        let (status, body) = call(&app, Method::DELETE, &path, Some(&token), None).await;
        assert_eq!(status, 200, "{path}: {body}");
    }

    let snapshot = app.stores.news.news_snapshot().await.unwrap();
    assert_eq!(snapshot.generation, generation(&app).await);
    assert_eq!(
        snapshot.categories,
        app.stores.news.news_categories().await.unwrap()
    );
    let names: Vec<&str> = snapshot
        .categories
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["Kultura", "Parky", "Zoo"]);
    let listed = app.get_ok("/news-categories").await;
    let listed: Vec<Uuid> = listed["news_categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["category_id"].as_str().unwrap().parse().unwrap())
        .collect();
    let mut in_snapshot: Vec<Uuid> = snapshot.categories.iter().map(|c| c.id).collect();
    in_snapshot.sort();
    let mut listed_sorted = listed.clone();
    listed_sorted.sort();
    assert_eq!(in_snapshot, listed_sorted);

    let mut items = snapshot.items.clone();
    items.sort_by_key(|i| i.id);
    ids.sort();
    let got: Vec<String> = items.iter().map(|i| i.id.to_string()).collect();
    assert_eq!(got, ids);
    for item in &items {
        assert_eq!(
            Some(item),
            app.stores.news.news_item(item.id).await.unwrap().as_ref()
        );
        assert_shows(item, &app.get_ok(&format!("/news/{}", item.id)).await);
    }
    let full = items.iter().find(|i| i.title == "Koncert v zoo").unwrap();
    let names: Vec<&str> = full.categories.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(names, ["Kultura", "Parky", "Zoo"]);

    // A write after it: a later snapshot has a later generation and the write.
    let added = publish(&app, item(&app, "Nová", 9)).await;
    let later = app.stores.news.news_snapshot().await.unwrap();
    assert!(later.generation > snapshot.generation);
    assert_eq!(later.generation, generation(&app).await);
    assert!(later.items.iter().any(|i| i.id.to_string() == added));
    assert_eq!(later.items.len(), 4);
}
