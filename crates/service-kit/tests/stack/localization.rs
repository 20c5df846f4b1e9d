//! `userinfo` in the language of `Accept-Language` (q-values honoured; en, cs, uk), else the
//! default.

use crate::helpers::{error, spawn};

async fn not_found(app: &crate::helpers::TestApp, accept: Option<&str>) -> (String, String) {
    let mut req = app.client.get(format!("{}/nowhere", app.base));
    if let Some(accept) = accept {
        req = req.header("accept-language", accept);
    }
    let r = req.send().await.unwrap();
    let language = r.headers()["content-language"].to_str().unwrap().to_owned();
    let body = error(r, 404, "NOT_FOUND").await;
    (language, body["userinfo"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn language_follows_accept_language() {
    let app = spawn(|_, _| {});
    let (lang, english) = not_found(&app, None).await;
    assert_eq!(lang, "en");
    let (lang, czech) = not_found(&app, Some("cs-CZ,cs;q=0.9,en;q=0.8")).await;
    assert_eq!(lang, "cs");
    assert_ne!(czech, english);
    let (lang, _) = not_found(&app, Some("en;q=0.5, cs;q=0.9")).await;
    assert_eq!(lang, "cs", "the higher q wins, not the first item");
    let (lang, _) = not_found(&app, Some("cs;q=0, en")).await;
    assert_eq!(lang, "en", "q=0 means not acceptable");
    let (lang, text) = not_found(&app, Some("de-DE")).await;
    assert_eq!((lang.as_str(), text), ("en", english), "unknown → default");
}

#[tokio::test]
async fn ukrainian_when_accept_language_prefers_it() {
    let app = spawn(|_, parts| parts.default_locale = i18n::Locale::Cs);
    for accept in ["uk", "uk-UA,uk;q=0.9,en;q=0.8", "cs;q=0.5, uk-UA"] {
        let (lang, text) = not_found(&app, Some(accept)).await;
        assert_eq!(lang, "uk", "{accept}");
        assert_eq!(text, "Такого шляху не існує.", "{accept}");
    }
    let r = app
        .get_with("/query?limit=ten", "accept-language", "uk")
        .await;
    assert_eq!(r.headers()["content-language"], "uk");
    let body = error(r, 400, "VALIDATION_ERROR").await;
    let userinfo = body["userinfo"].as_str().unwrap();
    assert!(
        userinfo.starts_with("Параметр запиту limit недійсний: "),
        "{body}"
    );
}

#[tokio::test]
async fn default_locale_is_configurable_and_details_are_translated() {
    let app = spawn(|_, parts| parts.default_locale = i18n::Locale::Cs);
    let (lang, _) = not_found(&app, Some("de")).await;
    assert_eq!(lang, "cs");
    let r = app
        .get_with("/query?limit=ten", "accept-language", "en")
        .await;
    assert_eq!(r.headers()["content-language"], "en");
    let english = error(r, 400, "VALIDATION_ERROR").await;
    let r = app.get("/query?limit=ten").await;
    assert_eq!(r.headers()["content-language"], "cs");
    let czech = error(r, 400, "VALIDATION_ERROR").await;
    assert_ne!(english["userinfo"], czech["userinfo"]);
    assert!(
        czech["userinfo"].as_str().unwrap().contains("limit"),
        "{czech}"
    );
}
