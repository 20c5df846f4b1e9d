//! `GET /admin/stats`: the officers' figures against a brute-force computation over the same
//! data. A city of reports is filed, moved, answered, accepted, resolved and marked duplicate at
//! known instants (the test's log); each answer of the API, JSON and CSV, for several periods
//! and callers, must equal what the log gives when counted and sorted by hand.

use std::collections::BTreeMap;

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::Value;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::READ;
use crate::helpers::{assert_error, Filing, TestApp, ACCESS_ALL};

on_both_backends!(crate::helpers::spawn_app;
    figures_equal_a_brute_force_count_for_every_period_and_caller,
    the_period_and_the_format_are_checked_at_their_edges,
);

/// What the test did, at which instant.
#[derive(Default)]
struct Log {
    /// Issue → (category, placed at).
    placed: BTreeMap<Uuid, (Uuid, DateTime<Utc>)>,
    /// Issue → its statements' instants.
    statements: BTreeMap<Uuid, Vec<DateTime<Utc>>>,
    /// (issue, "accepted" | "resolved" | "duplicate", at).
    steps: Vec<(Uuid, &'static str, DateTime<Utc>)>,
    /// Issue → its state now.
    state: BTreeMap<Uuid, &'static str>,
}

/// The nearest-rank percentile, by hand.
fn rank(mut values: Vec<i64>, percent: usize) -> Value {
    if values.is_empty() {
        return Value::Null;
    }
    values.sort();
    let at = (percent * values.len()).div_ceil(100).max(1) - 1;
    Value::from(values[at].div_euclid(1_000_000))
}

impl Log {
    /// The figures of the issues whose category is in `categories`, over `[from, to)`, as the
    /// API writes them.
    fn figures(
        &self,
        categories: &[Uuid],
        deadlines: &BTreeMap<Uuid, i64>,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Value {
        let mine = |issue: &Uuid| categories.contains(&self.placed[issue].0);
        let received: Vec<&Uuid> = self
            .placed
            .iter()
            .filter(|(issue, (_, at))| mine(issue) && *at >= from && *at < to)
            .map(|(issue, _)| issue)
            .collect();
        let micros = |d: TimeDelta| d.num_microseconds().unwrap();
        let to_statement: Vec<i64> = received
            .iter()
            .filter_map(|issue| {
                let first = self.statements.get(*issue)?.iter().min()?;
                Some(micros(*first - self.placed[*issue].1))
            })
            .collect();
        let to_resolution: Vec<i64> = received
            .iter()
            .filter_map(|issue| {
                let (_, _, at) = self
                    .steps
                    .iter()
                    .find(|(i, kind, _)| i == *issue && *kind == "resolved")?;
                Some(micros(*at - self.placed[*issue].1))
            })
            .collect();
        let steps = |kind: &str| {
            self.steps
                .iter()
                .filter(|(issue, k, at)| *k == kind && mine(issue) && *at >= from && *at < to)
                .count()
        };
        let overdue = self
            .placed
            .iter()
            .filter(|(issue, (category, at))| {
                mine(issue)
                    && matches!(self.state[*issue], "open" | "accepted")
                    && deadlines
                        .get(category)
                        .is_some_and(|days| *at + TimeDelta::days(*days) <= now)
            })
            .count();
        let durations = |values: Vec<i64>| {
            serde_json::json!({
                "measured": values.len(),
                "median_seconds": rank(values.clone(), 50),
                "p90_seconds": rank(values, 90),
            })
        };
        serde_json::json!({
            "received": received.len(),
            "accepted": steps("accepted"),
            "resolved": steps("resolved"),
            "duplicates": steps("duplicate"),
            "overdue_now": overdue,
            "first_statement": durations(to_statement),
            "resolution": durations(to_resolution),
        })
    }
}

/// A deterministic sequence in 0..n (a linear congruential generator).
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Files and works 40 reports over 40 hours in the default category and two others (one with a
/// 1-day deadline); returns the log, the categories and their deadlines.
async fn city(app: &TestApp) -> (Log, Vec<Uuid>, BTreeMap<Uuid, i64>) {
    let lights = app.category("Osvětlení", Some(1)).await.id;
    let roads = app.category("Silnice", None).await.id;
    let default = app
        .stores
        .categories
        .categories()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.is_default)
        .unwrap()
        .id;
    let deadlines = BTreeMap::from([(lights, 1)]);
    let mut log = Log::default();
    let mut dice = Dice(56);
    let mut parent = None;
    for k in 0..40 {
        let filed_at = app.time(k * 3_600);
        let filed = app
            .file(Filing::new(&format!("report {k}"), k * 3_600))
            .await;
        log.placed.insert(filed.issue, (default, filed_at));
        log.state.insert(filed.issue, "open");
        let mut issue = filed.issue;
        let mut at = filed_at;
        match dice.roll(3) {
            0 => {}
            moved_to => {
                at += TimeDelta::seconds(60 + dice.roll(600) as i64);
                let category = if moved_to == 1 { lights } else { roads };
                let next = app.desk().move_to(issue, category, at).await;
                log.state.insert(issue, "moved");
                issue = next.id;
                log.placed.insert(issue, (category, at));
                log.state.insert(issue, "open");
            }
        }
        for _ in 0..dice.roll(3) {
            at += TimeDelta::seconds(1 + dice.roll(20_000) as i64);
            app.add_statement(issue, "Řešíme.", at).await;
            log.statements.entry(issue).or_default().push(at);
        }
        match dice.roll(4) {
            0 => {}
            1 if parent.is_some() => {
                at += TimeDelta::seconds(1 + dice.roll(5_000) as i64);
                app.desk()
                    .duplicate_of(issue, parent.unwrap_or(issue), at)
                    .await;
                log.steps.push((issue, "duplicate", at));
                log.state.insert(issue, "duplicate");
            }
            step => {
                at += TimeDelta::seconds(1 + dice.roll(30_000) as i64);
                app.accept(issue, at).await;
                log.steps.push((issue, "accepted", at));
                log.state.insert(issue, "accepted");
                if step == 3 {
                    at += TimeDelta::seconds(1 + dice.roll(90_000) as i64);
                    app.desk()
                        .status(issue, domain::issues::Transition::Resolve, at)
                        .await;
                    log.steps.push((issue, "resolved", at));
                    log.state.insert(issue, "resolved");
                }
            }
        }
        if parent.is_none() && log.state[&issue] != "duplicate" {
            parent = Some(issue);
        }
    }
    (log, vec![default, lights, roads], deadlines)
}

fn query(from: DateTime<Utc>, to: DateTime<Utc>) -> String {
    let at = |t: DateTime<Utc>| t.to_rfc3339().replace('+', "%2B");
    format!("/admin/stats?dateFrom={}&dateTo={}", at(from), at(to))
}

async fn figures_equal_a_brute_force_count_for_every_period_and_caller(app: TestApp) {
    let (log, categories, deadlines) = city(&app).await;
    let [_, lights, roads] = categories[..] else {
        unreachable!()
    };
    // Later than every step: some issues of the 1-day deadline are overdue, some are not yet.
    let now = app.time(40 * 3_600 + 20_000);
    app.clock.set(now);
    let boss = app.token("stats-boss", &[READ, ACCESS_ALL]);
    app.assign("stats-lights", lights).await;
    let officer = app.token("stats-lights", &[READ]);
    let periods = [
        (app.time(-1), now),
        (app.time(5 * 3_600), app.time(17 * 3_600 + 1_234)),
        (app.time(30 * 3_600), app.time(30 * 3_600 + 1)),
    ];
    let mut anything = 0;
    for (from, to) in periods {
        for (token, shown) in [(&boss, &categories[..]), (&officer, &[lights][..])] {
            let (status, body) = app.get_as(&query(from, to), Some(token)).await;
            assert_eq!(status, 200, "{body}");
            let rows = body["categories"].as_array().unwrap();
            assert_eq!(rows.len(), shown.len(), "{body}");
            for row in rows {
                let id: Uuid = row["category_id"].as_str().unwrap().parse().unwrap();
                assert!(shown.contains(&id));
                let expected = log.figures(&[id], &deadlines, from, to, now);
                assert_eq!(row["figures"], expected, "{from}..{to}, category {id}");
            }
            let total = log.figures(shown, &deadlines, from, to, now);
            assert_eq!(body["total"], total, "{from}..{to}, total");
            anything += total["received"].as_u64().unwrap() + total["resolved"].as_u64().unwrap();
        }
    }
    assert!(
        anything > 40,
        "the city gave the figures too little to check ({anything})"
    );
    // `category` narrows the caller's categories, and another's is not shown to an officer.
    let (from, to) = periods[0];
    let narrowed = format!("{}&category={roads}", query(from, to));
    let (_, body) = app.get_as(&narrowed, Some(&boss)).await;
    assert_eq!(body["categories"].as_array().unwrap().len(), 1);
    assert_eq!(
        body["total"],
        log.figures(&[roads], &deadlines, from, to, now)
    );
    let (_, body) = app.get_as(&narrowed, Some(&officer)).await;
    assert_eq!(body["categories"], serde_json::json!([]));
    assert_eq!(body["total"]["received"], 0);
    // The CSV: a header, a line per category, the total last, the same figures as the JSON.
    let csv = app
        .get_response(&format!("{}&format=csv", query(from, to)))
        .await;
    assert_eq!(
        csv.status(),
        401,
        "the download needs a token as the JSON does"
    );
    let csv = app
        .http
        .get(format!("{}{}&format=csv", app.base, query(from, to)))
        .bearer_auth(&boss)
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    assert!(csv.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/csv"));
    assert!(csv.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"stats-"));
    let text = csv.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + categories.len() + 1, "{text}");
    assert!(lines[0].starts_with("category_id,category_name,date_from,date_to,received,"));
    let total = log.figures(&categories, &deadlines, from, to, now);
    let last: Vec<&str> = lines[lines.len() - 1].split(',').collect();
    assert_eq!(&last[..2], ["", "total"]);
    assert_eq!(last[4], total["received"].to_string());
    assert_eq!(last[8], total["overdue_now"].to_string());
    let median = &total["resolution"]["median_seconds"];
    assert_eq!(
        last[13],
        if median.is_null() {
            String::new()
        } else {
            median.to_string()
        }
    );
}

async fn the_period_and_the_format_are_checked_at_their_edges(app: TestApp) {
    let boss = app.token("stats-boss", &[READ, ACCESS_ALL]);
    let day0 = app.time(0);
    // 366 days is the longest period; one second more, an empty or reversed one, are refused.
    let (status, body) = app
        .get_as(&query(day0, day0 + TimeDelta::days(366)), Some(&boss))
        .await;
    assert_eq!(status, 200, "{body}");
    for (from, to) in [
        (day0, day0 + TimeDelta::days(366) + TimeDelta::seconds(1)),
        (day0, day0),
        (day0 + TimeDelta::seconds(1), day0),
    ] {
        let (status, body) = app.get_as(&query(from, to), Some(&boss)).await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    // Without dates: the last 30 days to now.
    let (status, body) = app.get_as("/admin/stats", Some(&boss)).await;
    assert_eq!(status, 200, "{body}");
    let from: DateTime<Utc> = body["date_from"].as_str().unwrap().parse().unwrap();
    let to: DateTime<Utc> = body["date_to"].as_str().unwrap().parse().unwrap();
    assert_eq!(to - from, TimeDelta::days(30));
    for bad in [
        "format=xml",
        "dateFrom=yesterday",
        "dateTo=2026-13-01T00:00:00Z",
        "category=nope",
    ] {
        let (status, body) = app
            .get_as(&format!("/admin/stats?{bad}"), Some(&boss))
            .await;
        assert_error(status, &body, 400, "VALIDATION_ERROR");
    }
    // Officers only: a citizen's token is refused, no token is unauthorised.
    let (status, body) = app
        .get_as("/admin/stats", Some(&app.token("citizen", &[])))
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = app.get_as("/admin/stats", None).await;
    assert_eq!(status, 401);
}
