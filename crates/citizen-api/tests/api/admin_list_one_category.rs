//! `GET /admin/reports` confined to one category: a `category` filter of one id, or an officer
//! of one category. Both backends serve these from a walk of the category's issues
//! (store/{postgres,sqlite}/admin/one_category.rs); every other list from the general query. The
//! confined list must equal the general one, which the same category given twice
//! (`category=X&category=X`) still takes, over ties in the filing time, a report with two
//! issues of the category, every issue filter, both directions and paging.

use serde_json::Value;
use test_support::on_both_backends;
use uuid::Uuid;

use crate::admin_helpers::{id, ids};
use crate::helpers::{Filing, TestApp};

on_both_backends!(crate::helpers::spawn_app;
    one_category_lists_equal_the_general_list,
);

/// The ids of every page of `query` at `limit` rows a page, checking `hasNextOffset`.
async fn paged(app: &TestApp, query: &str, token: &str, limit: usize) -> Vec<String> {
    let mut all = Vec::new();
    for offset in (0..).step_by(limit) {
        let body: Value = app
            .admin_list(&format!("{query}&limit={limit}&offset={offset}"), token)
            .await;
        let page = ids(&body);
        let more = body["hasNextOffset"].as_bool().expect("hasNextOffset");
        assert!(page.len() <= limit, "{query}: {body}");
        assert_eq!(more, page.len() == limit && more, "{query} at {offset}");
        all.extend(page);
        if !more {
            return all;
        }
    }
    unreachable!()
}

async fn one_category_lists_equal_the_general_list(app: TestApp) {
    let roads = app.admin_category("Roads", Some(3)).await;
    let light = app.admin_category("Lighting", None).await;
    app.assign("o-roads", roads).await;
    let boss = app.boss();
    // Twelve reports filed two by two at the same second: every filing time is a tie.
    let mut filed = Vec::new();
    for n in 0..12 {
        let filing = Filing::new(&format!("Report {n} pothole"), 1 + n / 2);
        let filing = if n % 4 == 0 {
            filing.at(14.42, 50.08)
        } else {
            filing
        };
        filed.push(app.file(filing).await);
    }
    app.clock.set(app.time(100));
    let mut roads_issues: Vec<Uuid> = Vec::new();
    // Reports 0, 1, 4, 5, 8 and 9 to Roads (three ties), 2, 6 and 10 to Lighting.
    for (n, f) in filed.iter().enumerate() {
        let target = match n % 4 {
            0 | 1 => roads,
            2 => light,
            _ => continue, // stays in the default category
        };
        let (status, moved) = app.move_to(f.issue, target, &boss).await;
        assert_eq!(status, 200, "{moved}");
        if target == roads {
            roads_issues.push(id(&moved, "issue_id"));
        }
    }
    // Report 4 (in Roads) is also opened in Lighting, which is then moved to Roads: two issues
    // of Roads on one report.
    let (status, opened) = app.open_in(filed[4].report, light, &boss).await;
    assert_eq!(status, 201, "{opened}");
    let (status, moved) = app.move_to(id(&opened, "issue_id"), roads, &boss).await;
    assert_eq!(status, 200, "{moved}");
    // Some Roads issues accepted, one resolved; then past the 3-day deadline of Roads.
    for issue in &roads_issues[..3] {
        let (status, body) = app.step(*issue, "accept", &boss).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = app.step(roads_issues[0], "resolve", &boss).await;
    assert_eq!(status, 200, "{body}");
    app.clock.set(app.time(100 + 4 * 86_400));

    let one = format!("category={roads}");
    let twice = format!("category={roads}&category={roads}");
    for filters in [
        "",
        "&status=open",
        "&status=accepted&status=resolved",
        "&overdue=true",
        "&overdue=false",
        "&q=pothole",
        "&q=report%201",
        "&location=14.42,50.08,100",
        "&orderDirection=asc",
        "&overdue=true&orderDirection=asc",
    ] {
        let general = paged(&app, &format!("{twice}{filters}"), &boss, 100).await;
        let confined = paged(&app, &format!("{one}{filters}"), &boss, 100).await;
        assert_eq!(confined, general, "category{filters}");
        let officer = paged(&app, &format!("x=1{filters}"), &app.officer("o-roads"), 100).await;
        assert_eq!(officer, general, "officer{filters}");
        for limit in [1, 2, 3] {
            let pages = paged(&app, &format!("{one}{filters}"), &boss, limit).await;
            assert_eq!(pages, general, "category{filters}, {limit} a page");
        }
    }
    // Six reports in Roads, each listed once, ties in the list's order (id, descending).
    let all = paged(&app, &one, &boss, 100).await;
    let expected: Vec<String> = [9, 8, 5, 4, 1, 0]
        .iter()
        .map(|n: &usize| filed[*n].report.to_string())
        .collect();
    let mut sorted = expected.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(all.len(), 6, "{all:?}");
    for pair in all.chunks(2) {
        assert!(pair[0] > pair[1], "ties by id, descending: {all:?}");
    }
    let mut listed = all.clone();
    listed.sort_by(|a, b| b.cmp(a));
    assert_eq!(listed, sorted);
}
