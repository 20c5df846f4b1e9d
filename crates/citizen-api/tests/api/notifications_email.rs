//! E-mail delivery against a local SMTP server: a plain-text and an HTML part, a `Message-ID`
//! made of the entry's tag, the one-click unsubscribe headers (RFC 8058), and the public
//! unsubscribe endpoint ending the subscription.

use chrono::TimeDelta;
use reqwest::Method;
use serde_json::json;
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::delivery_helpers::{accepted_report, deliver_now, deliverer, feed_tags, set_settings};
use crate::helpers::{assert_error, TestApp};
use crate::notifications_helpers::token_with;
use citizen_api::notify::deliver::Round;
use test_support::smtp::{header, text_parts, SmtpServer};

on_both_backends!(crate::delivery_helpers::spawn_delivery;
    an_email_has_both_parts_a_stable_id_and_one_click_unsubscribe,
    a_refused_email_is_retried_or_given_up,
    the_link_opens_a_page_and_only_its_button_unsubscribes,
    ended_deliveries_are_pruned_after_retain_days_and_open_ones_kept,
);

async fn subscribe_email(app: &TestApp, subject: &str, email: &str, locale: Option<&str>) {
    let (status, body) = app
        .send_json(
            Method::POST,
            "/me/notifications/email",
            &token_with(subject, Some(email), locale),
            &json!({}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn unsubscribe(app: &TestApp, token: &str) -> (u16, serde_json::Value) {
    let response = app
        .http
        .post(format!(
            "{}/notifications/email/unsubscribe?token={token}",
            app.base
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

async fn an_email_has_both_parts_a_stable_id_and_one_click_unsubscribe(app: TestApp) {
    let smtp = SmtpServer::start().await;
    subscribe_email(&app, "voter-1", "voter@example.org", Some("cs")).await;
    set_settings(&app, "voter-1", "cs", serde_json::Value::Null).await;
    let filed = accepted_report(&app, "author-1", &["voter-1"], 1).await;
    let round = deliver_now(&app, false, Some(&smtp.url())).await;
    assert_eq!(round.delivered, 1, "{round:?}");
    let messages = smtp.messages();
    assert_eq!(messages.len(), 1);
    let mail = &messages[0];
    let tag = feed_tags(&app, "voter-1").await[0].clone();
    assert_eq!(
        header(mail, "Message-ID").unwrap(),
        format!("<{tag}@city.example>")
    );
    assert_eq!(header(mail, "To").unwrap(), "voter@example.org");
    assert_eq!(
        header(mail, "List-Unsubscribe-Post").unwrap(),
        "List-Unsubscribe=One-Click"
    );
    let list = header(mail, "List-Unsubscribe").unwrap();
    let prefix = "<https://city.example/api/v1/notifications/email/unsubscribe?token=";
    assert!(list.starts_with(prefix) && list.ends_with('>'), "{list}");
    let token = &list[prefix.len()..list.len() - 1];
    assert!(header(mail, "Content-Type")
        .unwrap()
        .starts_with("multipart/alternative"));
    assert!(
        mail.contains("Content-Type: text/plain; charset=utf-8"),
        "{mail}"
    );
    assert!(
        mail.contains("Content-Type: text/html; charset=utf-8"),
        "{mail}"
    );
    // Both parts lead to the report's page.
    let page = format!("https://city.example/reports/{}", filed.report);
    let (plain, html) = text_parts(mail);
    let plain = plain.unwrap_or_default().replace("\r\n", "\n");
    let html = html.unwrap_or_default();
    assert!(plain.contains(&format!("\n{page}\n")), "{plain}");
    assert!(
        html.contains(&format!("<a href=\"{page}\">{page}</a>")),
        "{html}"
    );
    // The subject is the entry's Czech title (RFC 2047 encoded).
    assert!(
        header(mail, "Subject").unwrap().contains("=?utf-8?"),
        "{mail}"
    );

    // The link ends the subscription; again (or an unknown token) is 404.
    let (status, body) = unsubscribe(&app, token).await;
    assert_eq!(status, 200, "{body}");
    let (_, state) = app
        .get_as("/me/notifications/email", Some(&app.token("voter-1", &[])))
        .await;
    assert_eq!(state, json!({"status": false}));
    let (status, body) = unsubscribe(&app, token).await;
    assert_error(status, &body, 404, "EMAIL_SUBSCRIPTION_NOT_FOUND");
    let (status, body) = unsubscribe(&app, "nope").await;
    assert_error(status, &body, 404, "EMAIL_SUBSCRIPTION_NOT_FOUND");
    let path = "/notifications/email/unsubscribe";
    let (status, body) = app.request(Method::POST, path, None, None).await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
    // A new event reaches nobody by e-mail now.
    accepted_report(&app, "author-2", &["voter-1"], 2).await;
    let round = deliver_now(&app, false, Some(&smtp.url())).await;
    assert_eq!(round, Round::default());
    assert_eq!(smtp.messages().len(), 1);
}

async fn a_refused_email_is_retried_or_given_up(app: TestApp) {
    let smtp = SmtpServer::start().await;
    subscribe_email(&app, "author-1", "author@example.org", None).await;
    smtp.answer_data_with(451);
    accepted_report(&app, "author-1", &[], 1).await;
    let d = deliverer(&app, false, Some(&smtp.url()));
    let t0 = app.clock.now();
    let round = d.run_once(t0).await.unwrap();
    assert_eq!(round.retried, 1, "{round:?}");
    // Not due before the backoff; then accepted.
    assert_eq!(
        d.run_once(t0 + TimeDelta::seconds(29)).await.unwrap(),
        Round::default()
    );
    smtp.answer_data_with(250);
    let round = d.run_once(t0 + TimeDelta::seconds(30)).await.unwrap();
    assert_eq!(round.delivered, 1, "{round:?}");
    assert_eq!(smtp.messages().len(), 1);
    // A permanent refusal is not retried.
    smtp.answer_data_with(550);
    accepted_report(&app, "author-1", &[], 2).await;
    let round = d.run_once(t0 + TimeDelta::seconds(31)).await.unwrap();
    assert_eq!(round.failed, 1, "{round:?}");
}

/// The unsubscribe token of the one e-mail `smtp` caught.
fn caught_token(smtp: &SmtpServer) -> String {
    let messages = smtp.messages();
    let list = header(&messages[0], "List-Unsubscribe").unwrap();
    let (_, token) = list.trim_end_matches('>').split_once("?token=").unwrap();
    token.to_owned()
}

async fn the_link_opens_a_page_and_only_its_button_unsubscribes(app: TestApp) {
    let smtp = SmtpServer::start().await;
    subscribe_email(&app, "voter-1", "voter@example.org", Some("cs")).await;
    accepted_report(&app, "author-1", &["voter-1"], 1).await;
    let round = deliver_now(&app, false, Some(&smtp.url())).await;
    assert_eq!(round.delivered, 1, "{round:?}");
    let token = caught_token(&smtp);
    let url = format!("{}/notifications/email/unsubscribe?token={token}", app.base);

    // Opening the link (a browser, or a mail scanner) shows a Czech page and changes nothing.
    for _ in 0..2 {
        let response = app
            .http
            .get(&url)
            .header("accept-language", "cs")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response.headers()["content-type"],
            "text/html; charset=utf-8"
        );
        assert_eq!(response.headers()["content-language"], "cs");
        let page = response.text().await.unwrap();
        assert!(page.contains("<html lang=\"cs\">"), "{page}");
        assert!(page.contains("Odhlásit odběr</button>"), "{page}");
        assert!(
            page.contains(&format!("<form method=\"post\" action=\"?token={token}\">")),
            "{page}"
        );
    }
    let voter = app.token("voter-1", &[]);
    let (_, state) = app.get_as("/me/notifications/email", Some(&voter)).await;
    assert_eq!(state, json!({"status": true}));

    // The page's button: a form post from the browser, answered with a page.
    let response = app
        .http
        .post(&url)
        .header("accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
        .header("accept-language", "en")
        .header("content-type", "application/x-www-form-urlencoded")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let page = response.text().await.unwrap();
    assert!(
        page.contains("You will no longer receive notifications by e-mail."),
        "{page}"
    );
    let (_, state) = app.get_as("/me/notifications/email", Some(&voter)).await;
    assert_eq!(state, json!({"status": false}));

    // The page needs a token of a plausible length; the post checks it.
    for bad in ["", &"x".repeat(129)] {
        let (status, body) = app
            .get(&format!("/notifications/email/unsubscribe?token={bad}"))
            .await;
        assert_error(status, &body, 404, "EMAIL_SUBSCRIPTION_NOT_FOUND");
    }
    let (status, body) = app.get("/notifications/email/unsubscribe").await;
    assert_error(status, &body, 400, "VALIDATION_ERROR");
}

async fn ended_deliveries_are_pruned_after_retain_days_and_open_ones_kept(app: TestApp) {
    let smtp = SmtpServer::start().await;
    subscribe_email(&app, "author-1", "author@example.org", None).await;
    let d = deliverer(&app, false, Some(&smtp.url()));
    let t0 = app.clock.now();
    // One delivered, one failed (a permanent refusal), one still open (a transient one).
    accepted_report(&app, "author-1", &[], 1).await;
    assert_eq!(d.run_once(t0).await.unwrap().delivered, 1);
    smtp.answer_data_with(550);
    accepted_report(&app, "author-1", &[], 2).await;
    assert_eq!(d.run_once(t0).await.unwrap().failed, 1);
    smtp.answer_data_with(451);
    accepted_report(&app, "author-1", &[], 3).await;
    assert_eq!(d.run_once(t0).await.unwrap().retried, 1);

    // Kept for retain_days (30) after they ended; then both ended rows go, in one call.
    let day = TimeDelta::days(1);
    assert_eq!(
        d.prune(t0 + day * 30 - TimeDelta::seconds(1))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        d.prune(t0 + day * 30 + TimeDelta::seconds(1))
            .await
            .unwrap(),
        2
    );
    assert_eq!(d.prune(t0 + day * 31).await.unwrap(), 0);
    // The open row was not pruned: it is still there to claim, but by now it is older than
    // max_age_hours (72), so the next round gives it up unsent, and it is pruned in its turn.
    smtp.answer_data_with(250);
    let round = d.run_once(t0 + day * 31).await.unwrap();
    assert_eq!((round.delivered, round.expired), (0, 1), "{round:?}");
    assert_eq!(d.prune(t0 + day * 62).await.unwrap(), 1);
}

/// Language only (no storage involved), so on SQLite alone: a browser that names no language we
/// have gets the page in the city's `i18n.default_locale`.
#[tokio::test]
async fn the_page_falls_back_to_the_citys_language() {
    let db = test_support::database(test_support::Backend::Sqlite, "deliver")
        .await
        .expect("SQLite is always available");
    let app = crate::helpers::spawn_on(std::sync::Arc::new(db), |s| {
        s.i18n.default_locale = "cs".into();
    })
    .await;
    let path = format!("/notifications/email/unsubscribe?token={}", "t".repeat(32));
    let response = app.get_with_header(&path, "accept-language", "de").await;
    assert_eq!(response.status().as_u16(), 200);
    let page = response.text().await.unwrap();
    assert!(page.contains("<html lang=\"cs\">"), "{page}");
    assert!(page.contains("Odhlásit odběr</button>"), "{page}");
}
