//! Deliveries under faults of the receivers: a mail server and a push service of the test's own
//! (both on 127.0.0.1, switched by the test between down — nothing listens —, refusing or
//! failing, slow, and never answering) in front of citizen-api's own binary with delivery on,
//! small back-off settings and real time:
//!
//! * an outage is retried with back-off (no attempt sooner than the back-off after the one
//!   before) and every message is delivered once the receiver recovers, exactly once;
//! * a push endpoint answering 404 or 410 loses its subscription at its first answer and is
//!   never called again; a permanent SMTP refusal (550) is not retried;
//! * a citizen with a digest interval gets no message per entry, and one digest per period,
//!   delivered once across an outage of the mail server at the period's end;
//! * a receiver that never answers holds the worker no longer than its send's time-out: another
//!   citizen's message still goes out within that bound.
//!
//! The mail server and push receiver here are shared with `replicas.rs`.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use chrono::{Timelike as _, Utc};
use serde_json::json;

use crate::delivery_setup::{
    accepted_report, citizen_token, delivery_env, eventually, save_settings, subscribe_email,
    subscribe_push, Browser, Db, BACKOFF_MAX_SECS, MAIL_HOST, MAX_ATTEMPTS, MIN_GAP,
};
use crate::harness::{one_case_at_a_time, token, Platform, Tally, MANAGER};
use test_support::push::{PushMode, PushReceiver};
use test_support::smtp::SmtpServer;

/// The service's time-out of one push (`notify::push_send`: reqwest's `timeout`, 10 s).
const PUSH_TIMEOUT: Duration = Duration::from_secs(10);
/// The service's time-out of one e-mail, connect and conversation (`notify::mail::SEND_TIMEOUT`).
const SMTP_TIMEOUT: Duration = Duration::from_secs(20);
/// What a message may take from its event to its receiver, whatever another send holds: the
/// outbox drain, the next claim, the send itself on a loaded 2-core machine.
const MARGIN: Duration = Duration::from_secs(4);

// ---------------------------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_server_down_refusing_and_slow_is_retried_with_backoff_and_delivered_once() {
    const CASE: &str = "SMTP down, refusing, slow";
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("smtpdown", false).await else {
        return;
    };
    let started = Instant::now();
    let smtp = &SmtpServer::start().await;
    smtp.close().await;
    let api = platform
        .citizen_api(None, &delivery_env(Some(smtp), false, 100))
        .await;
    let db = &Db::open(&platform).await;
    let officer = token("officer-1", MANAGER);

    let citizens: &Vec<(String, String)> = &(0..4)
        .map(|n| (format!("citizen-{n}"), format!("citizen-{n}@example.org")))
        .collect();
    let mut tokens = Vec::new();
    for (subject, address) in citizens {
        tokens.push(subscribe_email(&api, subject, address).await);
    }
    // An address the server refuses for good (550 at RCPT), and a citizen on a daily digest.
    let refused = subscribe_email(&api, "refused-1", "refused@example.org").await;
    smtp.refuse_recipient("refused@example.org");
    let daily = subscribe_email(&api, "daily-1", "daily@example.org").await;
    save_settings(&api, &daily, json!("daily")).await;

    for (n, bearer) in tokens.iter().enumerate() {
        accepted_report(&api, &officer, bearer, &format!("Lamp {n}")).await;
    }
    accepted_report(&api, &officer, &refused, "Refused lamp").await;
    accepted_report(&api, &officer, &daily, "Daily lamp").await;

    // Down: nothing listens; every message is tried, and tried again after its back-off.
    let tried_twice = eventually(Duration::from_secs(20), move || async move {
        let rows = db.deliveries("email").await;
        rows.len() == 5 && rows.iter().all(|r| r.attempts >= 2)
    })
    .await;
    let rows = db.deliveries("email").await;
    assert!(
        tried_twice,
        "not every e-mail tried twice while down: {rows:#?}"
    );
    assert!(
        rows.iter()
            .all(|r| r.done_at.is_none() && r.failed_at.is_none()),
        "{rows:#?}"
    );

    // Refusing: the server answers the end of DATA with 451 (try again later).
    smtp.answer_data_with(451);
    smtp.open().await;
    let refused_twice = eventually(Duration::from_secs(20), move || async move {
        citizens
            .iter()
            .all(|(_, address)| smtp.mails_to(address).len() >= 2)
    })
    .await;
    assert!(refused_twice, "451 not retried: {:#?}", smtp.mails());
    // Slow: each session's greeting comes after 1.5 s; then the server accepts.
    smtp.set_greeting_delay(Duration::from_millis(1500));
    smtp.answer_data_with(250);
    let all_done = eventually(Duration::from_secs(25), move || async move {
        let rows = db.deliveries("email").await;
        rows.iter()
            .filter(|r| r.subject.starts_with("citizen-"))
            .all(|r| r.done_at.is_some())
    })
    .await;
    let rows = db.deliveries("email").await;
    assert!(all_done, "not delivered after the recovery: {rows:#?}");
    // Recovered: a new event goes out at once.
    smtp.set_greeting_delay(Duration::ZERO);
    accepted_report(&api, &officer, &tokens[0], "After the recovery").await;
    let sent = eventually(Duration::from_secs(10), move || async move {
        db.deliveries("email").await.iter().all(|r| {
            r.done_at.is_some() || r.failed_at.is_some() || !r.subject.starts_with("citizen-")
        }) && smtp.accepted_to("citizen-0@example.org").len() == 2
    })
    .await;
    assert!(sent, "the event after the recovery: {:#?}", smtp.mails());

    // Exactly once, each with the identity of its entry.
    let rows = db.deliveries("email").await;
    let entries = db.entries().await;
    let mut tally = Tally::default();
    for (subject, address) in citizens {
        let want: BTreeSet<String> = entries
            .iter()
            .filter(|(_, s)| s == subject)
            .map(|(tag, _)| format!("<{tag}@{MAIL_HOST}>"))
            .collect();
        let got = smtp.accepted_to(address);
        tally.sent += want.len();
        tally.acknowledged += got.len();
        let distinct: BTreeSet<String> = got.iter().cloned().collect();
        tally.twice += got.len() - distinct.len();
        tally.found += want.intersection(&distinct).count();
        tally.lost += want.difference(&distinct).count();
        assert_eq!(distinct, want, "the e-mails to {address}");
        // Back-off between the refused attempts of one message.
        let times: Vec<Instant> = smtp
            .mails_to(address)
            .iter()
            .filter(|m| m.code == Some(451))
            .map(|m| m.at)
            .collect();
        for pair in times.windows(2) {
            let gap = pair[1] - pair[0];
            assert!(
                gap >= MIN_GAP,
                "{address}: attempts {gap:?} apart (back-off {BACKOFF_MAX_SECS} s)"
            );
        }
    }
    let retried = rows.iter().filter(|r| r.attempts > 1).count();
    let attempts: i32 = rows.iter().map(|r| r.attempts).sum();
    let refused_row = rows
        .iter()
        .find(|r| r.subject == "refused-1")
        .expect("the refused address's row");
    tally.report(
        CASE,
        "e-mails (sent: expected; acknowledged: accepted by the server)",
    );
    eprintln!(
        "{CASE}: rows {}, retried {retried}, attempts {attempts}, refused for good {}, \
         daily-digest rows {}, took {:?}",
        rows.len(),
        usize::from(refused_row.failed_at.is_some()),
        rows.iter().filter(|r| r.subject == "daily-1").count(),
        started.elapsed()
    );
    assert_eq!(tally.twice, 0, "e-mails delivered twice");
    assert_eq!(tally.lost, 0, "e-mails not delivered");
    assert!(retried >= 4, "{rows:#?}");
    assert!(rows.iter().all(|r| r.attempts <= MAX_ATTEMPTS), "{rows:#?}");
    // 550 is not retried: the row failed at the first answer, the address asked once.
    assert!(refused_row.failed_at.is_some(), "{refused_row:?}");
    assert!(
        refused_row
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("550")),
        "{refused_row:?}"
    );
    assert_eq!(smtp.recipients_refused("refused@example.org"), 1);
    assert!(smtp.mails_to("refused@example.org").is_empty());
    // The digest's rule: nothing per entry for a daily citizen.
    assert!(
        rows.iter().all(|r| r.subject != "daily-1"),
        "a delivery row per entry for a daily citizen: {rows:#?}"
    );
    assert!(smtp.mails_to("daily@example.org").is_empty());
    api.process.terminate(Duration::from_secs(30)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_service_down_failing_and_slow_is_retried_and_gone_endpoints_are_removed() {
    const CASE: &str = "push service down, 500, slow, 404/410";
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("pushdown", false).await else {
        return;
    };
    let started = Instant::now();
    let push = &PushReceiver::start().await;
    push.close().await;
    let api = platform
        .citizen_api(None, &delivery_env(None, true, 100))
        .await;
    let db = &Db::open(&platform).await;
    let officer = token("officer-1", MANAGER);

    // Three citizens; the first two also have an old browser whose subscription has expired
    // at the push service (410, 404).
    let mut browsers: Vec<(String, Browser)> = Vec::new();
    let mut tokens = Vec::new();
    for n in 0..3 {
        let subject = format!("citizen-{n}");
        let bearer = citizen_token(&subject, None);
        browsers.push((
            subject.clone(),
            subscribe_push(&api, &bearer, push, &format!("live-{n}")).await,
        ));
        tokens.push(bearer);
    }
    let gone = [("old-0", 410), ("old-1", 404)];
    for (n, (name, status)) in gone.iter().enumerate() {
        push.answer_endpoint(name, PushMode::Answer(*status));
        let browser = subscribe_push(&api, &tokens[n], push, name).await;
        browsers.push((format!("citizen-{n}"), browser));
    }
    for (n, bearer) in tokens.iter().enumerate() {
        accepted_report(&api, &officer, bearer, &format!("Lamp {n}")).await;
    }

    // Down: every push tried twice.
    let tried_twice = eventually(Duration::from_secs(20), move || async move {
        let rows = db.deliveries("webpush").await;
        rows.len() == 5 && rows.iter().all(|r| r.attempts >= 2)
    })
    .await;
    let rows = db.deliveries("webpush").await;
    assert!(
        tried_twice,
        "not every push tried twice while down: {rows:#?}"
    );

    // Failing: 500 to the live endpoints; the expired ones answer 404/410 at once.
    push.set_mode(PushMode::Answer(500));
    push.open().await;
    let failed_twice = eventually(Duration::from_secs(20), move || async move {
        (0..3).all(|n| push.requests_to(&format!("live-{n}")).len() >= 2)
            && db
                .deliveries("webpush")
                .await
                .iter()
                .filter(|r| r.target.contains("/old-"))
                .all(|r| r.failed_at.is_some())
    })
    .await;
    assert!(
        failed_twice,
        "500 not retried or 404/410 not recorded: {:#?}",
        push.requests()
    );
    // Slow: 1.5 s before each answer (within the service's 10 s time-out), then 201.
    push.set_mode(PushMode::Slow(Duration::from_millis(1500), 201));
    let all_done = eventually(Duration::from_secs(25), move || async move {
        db.deliveries("webpush")
            .await
            .iter()
            .filter(|r| r.target.contains("/live-"))
            .all(|r| r.done_at.is_some())
    })
    .await;
    let rows = db.deliveries("webpush").await;
    assert!(all_done, "not delivered after the recovery: {rows:#?}");
    // A later event reaches the live browsers only: the expired ones are unsubscribed.
    push.set_mode(PushMode::Answer(201));
    for (n, bearer) in tokens.iter().enumerate().take(2) {
        accepted_report(&api, &officer, bearer, &format!("Later lamp {n}")).await;
    }
    let later = eventually(Duration::from_secs(10), move || async move {
        let rows = db.deliveries("webpush").await;
        rows.len() == 7
            && rows
                .iter()
                .all(|r| r.done_at.is_some() || r.failed_at.is_some())
    })
    .await;
    let rows = db.deliveries("webpush").await;
    assert!(later, "the later events: {rows:#?}");

    let entries = db.entries().await;
    let mut tally = Tally::default();
    for (subject, browser) in &browsers {
        let requests = push.requests_to(&browser.name);
        if browser.name.starts_with("old-") {
            // One request, answered 404/410; the subscription is gone, in the API too.
            assert_eq!(requests.len(), 1, "{}: {requests:#?}", browser.name);
            assert!(
                !db.push_subscribed(&browser.endpoint).await,
                "{}",
                browser.name
            );
            let (status, body) = api
                .get(
                    &citizen_token(subject, None),
                    &format!("/me/notifications/webpush?endpoint={}", browser.endpoint),
                )
                .await;
            assert_eq!(
                (status, &body["status"]),
                (Some(200), &json!(false)),
                "{body}"
            );
            continue;
        }
        let want: BTreeSet<String> = entries
            .iter()
            .filter(|(_, s)| s == subject)
            .map(|(tag, _)| tag.replace('-', ""))
            .collect();
        let delivered: Vec<String> = requests
            .iter()
            .filter(|r| r.status.is_some_and(|s| (200..300).contains(&s)))
            .map(|r| r.topic.clone())
            .collect();
        let distinct: BTreeSet<String> = delivered.iter().cloned().collect();
        tally.sent += want.len();
        tally.acknowledged += delivered.len();
        tally.twice += delivered.len() - distinct.len();
        tally.found += want.intersection(&distinct).count();
        tally.lost += want.difference(&distinct).count();
        assert_eq!(distinct, want, "the pushes to {}", browser.name);
        let times: Vec<Instant> = requests
            .iter()
            .filter(|r| r.status == Some(500))
            .map(|r| r.at)
            .collect();
        for pair in times.windows(2) {
            let gap = pair[1] - pair[0];
            assert!(gap >= MIN_GAP, "{}: attempts {gap:?} apart", browser.name);
        }
        assert!(
            db.push_subscribed(&browser.endpoint).await,
            "{}",
            browser.name
        );
    }
    let retried = rows.iter().filter(|r| r.attempts > 1).count();
    let removed = rows
        .iter()
        .filter(|r| r.last_error.as_deref() == Some("subscription gone"))
        .count();
    tally.report(CASE, "pushes (sent: expected; acknowledged: answered 2xx)");
    eprintln!(
        "{CASE}: rows {}, retried {retried}, attempts {}, subscriptions removed on 404/410 \
         {removed}, took {:?}",
        rows.len(),
        rows.iter().map(|r| r.attempts).sum::<i32>(),
        started.elapsed()
    );
    assert_eq!(tally.twice, 0, "pushes delivered twice");
    assert_eq!(tally.lost, 0, "pushes not delivered");
    assert!(retried >= 3, "{rows:#?}");
    assert_eq!(removed, 2, "{rows:#?}");
    api.process.terminate(Duration::from_secs(30)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_service_that_never_answers_holds_the_worker_no_longer_than_its_timeout() {
    never_answering(Silent::Push).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_server_that_never_answers_holds_the_worker_no_longer_than_its_timeout() {
    never_answering(Silent::Mail).await;
}

/// The receiver that takes one citizen's message and never answers it.
#[derive(Clone, Copy, PartialEq)]
enum Silent {
    /// A push endpoint (answered again after its first request: the retry delivers).
    Push,
    /// A mail server, for one address (for good).
    Mail,
}

/// While a receiver holds one send unanswered, another citizen's e-mail and another browser's
/// push go out within a margin, without waiting for the silent send; the silent send is given
/// up at its time-out; a silent push endpoint answering again gets the message once.
async fn never_answering(silent: Silent) {
    let (case, timeout) = match silent {
        Silent::Push => ("push service never answers", PUSH_TIMEOUT),
        Silent::Mail => ("mail server never answers", SMTP_TIMEOUT),
    };
    let _one = one_case_at_a_time().await;
    let Some(platform) = Platform::start("silent", false).await else {
        return;
    };
    let started = Instant::now();
    let push = &PushReceiver::start().await;
    let smtp = &SmtpServer::start().await;
    let api = platform
        .citizen_api(None, &delivery_env(Some(smtp), true, 100))
        .await;
    let db = &Db::open(&platform).await;
    let officer = token("officer-1", MANAGER);

    let (stuck, silent_endpoint) = match silent {
        Silent::Push => {
            push.answer_endpoint("silent", PushMode::Silent);
            let stuck = citizen_token("stuck-1", None);
            let browser = subscribe_push(&api, &stuck, push, "silent").await;
            (stuck, Some(browser.endpoint))
        }
        Silent::Mail => {
            smtp.never_answer("stuck@example.org");
            let stuck = subscribe_email(&api, "stuck-1", "stuck@example.org").await;
            (stuck, None)
        }
    };
    let mailed = subscribe_email(&api, "mailed-1", "mailed@example.org").await;
    let pushed = citizen_token("pushed-1", None);
    subscribe_push(&api, &pushed, push, "quick").await;
    // (when it was sent, when its connection ended) of each silent send.
    let silent_sends = move || -> Vec<(Instant, Option<Instant>)> {
        match silent {
            Silent::Push => push
                .requests_to("silent")
                .iter()
                .map(|r| (r.at, r.ended))
                .collect(),
            Silent::Mail => smtp
                .mails_to("stuck@example.org")
                .iter()
                .map(|m| (m.at, m.ended))
                .collect(),
        }
    };

    accepted_report(&api, &officer, &stuck, "Lamp of the silent receiver").await;
    let held = eventually(Duration::from_secs(10), move || async move {
        !silent_sends().is_empty()
    })
    .await;
    assert!(held, "{case}: the silent receiver was never sent to");
    if silent == Silent::Push {
        // The request under way stays unanswered; the next one to this endpoint is answered.
        push.answer_endpoint("silent", PushMode::Answer(201));
    }
    // The worker is inside the silent send now: the others' events come after it.
    let asked = Instant::now();
    accepted_report(&api, &officer, &mailed, "Lamp of the mailed citizen").await;
    accepted_report(&api, &officer, &pushed, "Lamp of the quick browser").await;
    // The silent send holds one of the worker's places, not the others.
    let bound = MARGIN;
    let others = eventually(bound, move || async move {
        smtp.accepted_to("mailed@example.org").len() == 1 && !push.delivered_to("quick").is_empty()
    })
    .await;
    let others_took = asked.elapsed();
    // The silent send was given up at the time-out (the service closed the connection).
    let released = eventually(timeout + MARGIN, move || async move {
        silent_sends()[0].1.is_some()
    })
    .await;
    let (sent_at, ended) = silent_sends()[0];
    let held_for = ended.map(|end| end - sent_at);
    eprintln!(
        "{case}: the others' messages went out {others_took:?} after their events (bound \
         {bound:?}); the silent send held {held_for:?}; e-mails to the other citizen {}, pushes \
         to the other browser {}; took {:?}",
        smtp.accepted_to("mailed@example.org").len(),
        push.delivered_to("quick").len(),
        started.elapsed()
    );
    assert!(
        others,
        "{case}: another citizen's e-mail and push not sent within {bound:?}: e-mails {:#?}, \
         pushes {:#?}",
        smtp.mails(),
        push.requests()
    );
    assert!(released, "{case}: the silent send was never given up");
    let held_for = held_for.expect("released");
    assert!(
        held_for <= timeout + Duration::from_secs(1),
        "{case}: a send held its worker {held_for:?} (time-out {timeout:?})"
    );
    assert_eq!(push.delivered_to("quick").len(), 1);
    assert_eq!(smtp.accepted_to("mailed@example.org").len(), 1);
    if silent == Silent::Push {
        // The retry delivers, once.
        let retried = eventually(Duration::from_secs(15), move || async move {
            !push.delivered_to("silent").is_empty()
        })
        .await;
        let rows = db.deliveries("webpush").await;
        assert!(
            retried,
            "the silent endpoint's message was not sent again: {rows:#?}"
        );
        assert_eq!(push.delivered_to("silent").len(), 1);
        let row = rows
            .iter()
            .find(|r| Some(&r.target) == silent_endpoint.as_ref())
            .expect("the silent browser's row");
        assert!(
            row.done_at.is_some() && row.attempts == 2,
            "{row:?}\n{:#?}",
            push.requests()
        );
    }
    api.process.terminate(Duration::from_secs(30)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_goes_out_once_per_period_across_a_mail_server_outage() {
    const CASE: &str = "digest across an SMTP outage";
    // Not one case at a time: this one mostly waits for a whole minute of the wall clock (up to
    // 75 s) and loads little, so it runs beside the others and the suite keeps within its
    // 5 minutes.
    let Some(platform) = Platform::start("digest", false).await else {
        return;
    };
    let started = Instant::now();
    let smtp = &SmtpServer::start().await;
    // The period ends at the first whole minute (UTC) at least 15 s away: time to start the
    // binary and write the entries before it. (`local_time` is HH:MM.)
    let now = Utc::now();
    let mut end = now
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .expect("a whole minute")
        + chrono::TimeDelta::minutes(1);
    if end - now < chrono::TimeDelta::seconds(15) {
        end += chrono::TimeDelta::minutes(1);
    }
    let mut env = delivery_env(Some(smtp), false, 100);
    env.push((
        "NOTIFICATIONS__DIGEST__LOCAL_TIME",
        end.format("%H:%M").to_string(),
    ));
    let api = platform.citizen_api(None, &env).await;
    let db = &Db::open(&platform).await;
    let officer = token("officer-1", MANAGER);

    let daily = subscribe_email(&api, "daily-1", "daily@example.org").await;
    save_settings(&api, &daily, json!("daily")).await;
    let immediate = subscribe_email(&api, "now-1", "now@example.org").await;
    let mut issues = Vec::new();
    for n in 0..3 {
        issues.push(accepted_report(&api, &officer, &daily, &format!("Daily lamp {n}")).await);
    }
    let step = api.step(&officer, issues[0], "resolve").await;
    assert_eq!(step.status, Some(200), "{step:?}");
    for n in 0..2 {
        accepted_report(&api, &officer, &immediate, &format!("Lamp {n}")).await;
    }
    let drained = eventually(Duration::from_secs(10), move || async move {
        let entries = db.entries().await;
        entries.iter().filter(|(_, s)| s == "daily-1").count() == 4
            && smtp.accepted_to("now@example.org").len() == 2
    })
    .await;
    assert!(
        drained,
        "entries not written or sent: {:#?}",
        db.entries().await
    );
    let written_by = db.newest_entry("daily-1").await;
    assert!(
        written_by < end,
        "the entries were written at {written_by}, after the period's end {end}: the setup \
         took longer than the margin"
    );
    assert!(
        smtp.mails_to("daily@example.org").is_empty(),
        "a per-entry e-mail to a daily citizen"
    );

    // The mail server refuses (451) around the period's end; the digest is retried.
    smtp.answer_data_with(451);
    let wait = (end - Utc::now()).to_std().unwrap_or_default() + Duration::from_secs(20);
    let refused = eventually(wait, move || async move {
        smtp.mails_to("daily@example.org").len() >= 2
    })
    .await;
    assert!(
        refused,
        "the digest was not tried twice: {:#?}",
        db.deliveries("email").await
    );
    smtp.answer_data_with(250);
    let delivered = eventually(Duration::from_secs(10), move || async move {
        smtp.accepted_to("daily@example.org").len() == 1
    })
    .await;
    assert!(delivered, "the digest not delivered: {:#?}", smtp.mails());
    // A few more rounds of the worker (100 ms apart) send nothing more.
    tokio::time::sleep(Duration::from_secs(2)).await;

    let entries = db.entries().await;
    let digests = db.digests().await;
    let rows = db.deliveries("email").await;
    let to_daily = smtp.accepted_to("daily@example.org");
    let mail = smtp
        .mails_to("daily@example.org")
        .into_iter()
        .find(|m| m.code == Some(250))
        .expect("the digest");
    let newest = db.newest_tag("daily-1").await;
    let mut tally = Tally {
        sent: 3,
        acknowledged: to_daily.len() + smtp.accepted_to("now@example.org").len(),
        ..Tally::default()
    };
    let now_ids: BTreeSet<String> = smtp.accepted_to("now@example.org").into_iter().collect();
    tally.twice = (to_daily.len().saturating_sub(1))
        + (smtp.accepted_to("now@example.org").len() - now_ids.len());
    tally.found = usize::from(!to_daily.is_empty()) + now_ids.len();
    tally.lost = tally.sent - tally.found;
    tally.report(CASE, "e-mails (sent: expected, a digest and two entries)");
    eprintln!(
        "{CASE}: digests written {}, the digest's attempts {}, its subject {:?}, entries of \
         the daily citizen {} (the last {} s before the period's end), took {:?}",
        digests.len(),
        rows.iter()
            .find(|r| r.subject == "daily-1")
            .map_or(0, |r| r.attempts),
        mail.subject,
        entries.iter().filter(|(_, s)| s == "daily-1").count(),
        (end - written_by).num_seconds(),
        started.elapsed()
    );
    assert_eq!(tally.twice, 0, "delivered twice");
    assert_eq!(tally.lost, 0);
    assert_eq!(
        digests,
        vec![("daily-1".to_owned(), end)],
        "one digest for the period"
    );
    assert_eq!(to_daily, vec![format!("<{newest}@{MAIL_HOST}>")]);
    assert!(mail.subject.contains("4 new notifications"), "{mail:?}");
    let digest_rows: Vec<_> = rows.iter().filter(|r| r.subject == "daily-1").collect();
    assert_eq!(digest_rows.len(), 1, "{rows:#?}");
    assert!(
        digest_rows[0].attempts >= 3 && digest_rows[0].done_at.is_some(),
        "{rows:#?}"
    );
    api.process.terminate(Duration::from_secs(30)).await;
}
