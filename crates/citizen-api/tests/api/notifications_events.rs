//! The outbox: officers' steps become feed entries of the report's author and voters, once per
//! event and recipient, in the recipient's language; a refused step writes nothing.

use citizen_api::notify::worker::Worker;
use domain::issues::Transition;
use serde_json::Value;
use service_kit::clock::Clock;
use test_support::on_both_backends;

use crate::helpers::{form, Filing, TestApp};
use crate::notifications_helpers::{feed, fields, token_with, worker};

on_both_backends!(crate::notifications_events::spawn_without_worker;
    status_changes_and_statements_reach_author_and_voters_once,
    a_refused_step_writes_no_event,
    the_tokens_language_counts_from_the_first_action_until_the_settings_are_saved,
);

/// The service with its own outbox loop off: the tests drive the worker.
pub async fn spawn_without_worker(backend: test_support::Backend) -> Option<TestApp> {
    let db = std::sync::Arc::new(test_support::database(backend, "notify").await?);
    Some(crate::helpers::spawn_on(db, |s| s.notifications.worker.enabled = false).await)
}

async fn status_changes_and_statements_reach_author_and_voters_once(app: TestApp) {
    let filed = app.file(Filing::new("Broken lamp", 1).by("author-1")).await;
    let other = app.file(Filing::new("Pothole", 2).by("author-2")).await;
    for (voter, target) in [("voter-1", filed.report), ("voter-2", other.report)] {
        let (status, body) = app
            .vote(&app.token(voter, &[]), &target.to_string(), 1)
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // voter-1 reads Czech (the token's locale claim, stored with the settings).
    let (status, _) = app
        .save_settings(&token_with("voter-1", None, Some("cs")), true, Value::Null)
        .await;
    assert_eq!(status, 200);

    let now = app.clock.now();
    app.accept(filed.issue, now).await;
    app.add_statement(filed.issue, "We are on it.", now).await;
    // Nothing in the feed until the worker runs.
    assert_eq!(fields(&feed(&app, "author-1").await, "tag").len(), 0);
    assert_eq!(worker(&app).run_once(app.clock.now()).await.unwrap(), 2);

    let author = feed(&app, "author-1").await;
    assert_eq!(
        fields(&author, "title"),
        vec![
            "The city has responded to a report",
            "Your report has a new status"
        ]
    );
    assert_eq!(
        fields(&author, "body"),
        vec![
            "A new statement on “Broken lamp”.",
            "“Broken lamp” is now accepted."
        ]
    );
    // Each entry leads to the report's page.
    let page = format!("https://city.example/reports/{}", filed.report);
    assert_eq!(fields(&author, "url"), vec![page.as_str(), page.as_str()]);
    assert_eq!(
        author["notifications"][1]["sent_at"],
        now.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    );
    let voter = feed(&app, "voter-1").await;
    assert_eq!(
        fields(&voter, "body"),
        vec![
            "Nové vyjádření k „Broken lamp“.",
            "„Broken lamp“ je nyní přijato."
        ]
    );
    // Not involved: nothing.
    for subject in ["author-2", "voter-2"] {
        assert_eq!(
            fields(&feed(&app, subject).await, "tag").len(),
            0,
            "{subject}"
        );
    }
    // Again: nothing pending, nothing doubled.
    assert_eq!(worker(&app).run_once(app.clock.now()).await.unwrap(), 0);
    assert_eq!(fields(&feed(&app, "author-1").await, "tag").len(), 2);
    let (_, count) = app
        .get_as(
            "/me/notifications/unread-count",
            Some(&app.token("voter-1", &[])),
        )
        .await;
    assert_eq!(count["unread_count"], 2);
}

async fn a_refused_step_writes_no_event(app: TestApp) {
    let filed = app.file(Filing::new("Bench", 1).by("author-1")).await;
    // Resolving an open issue is refused: the transaction rolls back with its event.
    let refused = app
        .desk()
        .try_status(filed.issue, Transition::Resolve, app.clock.now())
        .await;
    assert!(refused.is_err());
    assert_eq!(worker(&app).run_once(app.clock.now()).await.unwrap(), 0);
    assert_eq!(fields(&feed(&app, "author-1").await, "tag").len(), 0);
}

/// A citizen whose token says `locale=en`, in a city whose default is Czech, reads English from
/// the first thing they do (file, vote, subscribe) on, without saving any settings; saving
/// them with another token's language changes it, a later action does not.
async fn the_tokens_language_counts_from_the_first_action_until_the_settings_are_saved(
    app: TestApp,
) {
    let czech_city = Worker::new(
        app.stores.clone(),
        i18n::Locale::Cs,
        citizen_api::app::notifications::Links::none(),
    );
    let (status, _, body) = app
        .post_report(
            form("Broken lamp", "By the school"),
            Some(&token_with("author-en", None, Some("en"))),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let report: uuid::Uuid = body["id"].as_str().unwrap().parse().unwrap();
    let issue = app
        .stores
        .reports
        .report(report)
        .await
        .unwrap()
        .unwrap()
        .issues[0]
        .id;
    for (voter, locale) in [("voter-en", Some("en")), ("voter-plain", None)] {
        let (status, body) = app
            .vote(&token_with(voter, None, locale), &report.to_string(), 1)
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let now = app.clock.now();
    app.accept(issue, now).await;
    assert_eq!(czech_city.run_once(now).await.unwrap(), 1);
    let accepted_en = "“Broken lamp” is now accepted.";
    let accepted_cs = "„Broken lamp“ je nyní přijato.";
    assert_eq!(
        fields(&feed(&app, "author-en").await, "body"),
        [accepted_en]
    );
    assert_eq!(fields(&feed(&app, "voter-en").await, "body"), [accepted_en]);
    assert_eq!(
        fields(&feed(&app, "voter-plain").await, "body"),
        [accepted_cs]
    );

    // The settings saved with a Czech token choose Czech; a later vote with an English token
    // does not undo that choice.
    let (status, _) = app
        .save_settings(&token_with("voter-en", None, Some("cs")), true, Value::Null)
        .await;
    assert_eq!(status, 200);
    let english = token_with("voter-en", None, Some("en"));
    let (status, body) = app.revoke_votes(&english, &report.to_string(), 1).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.vote(&english, &report.to_string(), 1).await;
    assert_eq!(status, 200, "{body}");
    app.add_statement(issue, "We are on it.", now).await;
    assert_eq!(czech_city.run_once(now).await.unwrap(), 1);
    assert_eq!(
        fields(&feed(&app, "voter-en").await, "body"),
        ["Nové vyjádření k „Broken lamp“.", accepted_en]
    );
    assert_eq!(
        fields(&feed(&app, "author-en").await, "body"),
        ["A new statement on “Broken lamp”.", accepted_en]
    );
}
