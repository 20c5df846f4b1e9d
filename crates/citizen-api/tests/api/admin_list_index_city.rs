//! The city of the officers' list index tests (admin_list_index.rs): three categories with
//! officers, 24 reports filed four per second, their issues moved, accepted, resolved, opened in
//! a second category or marked duplicates on both sides of a deadline, a photo marked explicit,
//! a duplicate flag set by SQL and some vote tokens; and the tokens the pages are read with.

use reqwest::Method;
use serde_json::json;
use uuid::Uuid;

use crate::admin_helpers::{id, READ};
use crate::helpers::{file, form, Filed, TestApp};
use crate::list_index::city_filing;
use crate::media_images::images;
use crate::news_generation::raw_execute;

pub struct City {
    pub roads: Uuid,
    pub light: Uuid,
    pub parks: Uuid,
    pub filed: Vec<Filed>,
    /// A report filed with a photo and marked explicit.
    pub photo: Uuid,
}

pub const DAY: i64 = 86_400;

/// Roads (deadline 3 days, `o-roads`), Lighting (none, `o-light` and `o-two`), Parks (1 day,
/// `o-two`); 24 reports, four per second, their issues moved, opened in a second category,
/// accepted, resolved or marked duplicates at second 10 and three days later.
pub async fn city(app: &TestApp) -> City {
    let roads = app.admin_category("Roads", Some(3)).await;
    let light = app.admin_category("Lighting", None).await;
    let parks = app.admin_category("Parks", Some(1)).await;
    app.assign("o-roads", roads).await;
    app.assign("o-light", light).await;
    app.assign("o-two", light).await;
    app.assign("o-two", parks).await;
    let mut filed = Vec::new();
    for i in 0..24_i64 {
        let filing = city_filing(i);
        let filing = if i % 3 == 0 {
            filing
        } else {
            filing.at(14.40 + (i % 7) as f64 / 1000.0, 50.08)
        };
        filed.push(app.file(filing).await);
    }
    app.clock.set(app.time(10));
    let (jpeg, _) = images::jpeg();
    let f = form("Lampa s fotkou", "Rozbita").part("media", file(jpeg, "lampa.jpg"));
    let citizen = app.token("citizen-1", &[]);
    let (status, _, body) = app.post_report(f, Some(&citizen)).await;
    assert_eq!(status, 201, "{body}");
    let photo = id(&body, "id");
    let boss = app.boss();
    let (status, body) = app
        .send_json(
            Method::PUT,
            &format!("/admin/reports/{photo}/explicit"),
            &boss,
            &json!({"explicit": true}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut parents = Vec::new();
    for (i, f) in filed.iter().enumerate() {
        if i % 8 == 7 {
            // Three days later (below): within Roads' deadline then.
            continue;
        }
        let target = [roads, light, parks][i % 3];
        let (status, body) = app.move_to(f.issue, target, &boss).await;
        assert_eq!(status, 200, "{body}");
        let issue = id(&body, "issue_id");
        match i % 5 {
            1 => assert_eq!(app.step(issue, "accept", &boss).await.0, 200),
            2 => {
                assert_eq!(app.step(issue, "accept", &boss).await.0, 200);
                assert_eq!(app.step(issue, "resolve", &boss).await.0, 200);
            }
            3 => {
                // Handled in a second category too.
                let other = [light, parks, roads][i % 3];
                let (status, body) = app.open_in(f.report, other, &boss).await;
                assert_eq!(status, 201, "{body}");
            }
            _ => parents.push(issue),
        }
        if i % 7 == 4 {
            if let Some(parent) = parents.first().copied().filter(|p| *p != issue) {
                let (status, body) = app.mark_duplicate(issue, parent, &boss).await;
                assert_eq!(status, 200, "{body}");
            }
        }
    }
    app.clock.set(app.time(3 * DAY + 5));
    for f in filed.iter().skip(7).step_by(8) {
        let (status, body) = app.move_to(f.issue, roads, &boss).await;
        assert_eq!(status, 200, "{body}");
    }
    // A flag the duplicate search would set, by SQL.
    raw_execute(
        app,
        &format!(
            "UPDATE issues SET has_possible_duplicates = true WHERE report_id = '{}'",
            filed[5].report
        ),
    )
    .await;
    // Some reports have vote tokens on them.
    let voter = app.token("voter", &[]);
    for (f, count) in filed.iter().rev().zip([3, 1, 2]) {
        let (status, body) = app
            .send_json(
                Method::POST,
                "/me/vote-tokens",
                &voter,
                &json!({"target": f.report, "count": count}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // Past Roads' deadline for the issues placed at second 10, within it for the later ones.
    app.clock.set(app.time(3 * DAY + 20));
    City {
        roads,
        light,
        parks,
        filed,
        photo,
    }
}

pub fn tokens(app: &TestApp) -> Vec<String> {
    vec![
        app.boss(),
        app.token("o-roads", &[READ]),
        app.token("o-two", &[READ]),
        app.token("nobody", &[READ]),
    ]
}
