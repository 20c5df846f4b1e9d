//! The demo data of the embedded default (`demo.load_when_empty`): a few categories and reports
//! in various states, so `curl localhost:8080/api/v1/reports` shows something at once; the demo
//! news, news categories and projects come from [`crate::demo::news`].

pub mod news;

use chrono::TimeDelta;
use domain::geo::{LocationParam, LonLat};
use domain::issues::Transition;
use domain::limits::Page;
use uuid::Uuid;

use crate::app::{filing, workflow};
use crate::store::composition::Stores;
use crate::store::{Instant, NewCategory, NewReport, ReportFilter};

/// The officer the demo statements are written by (`dev-token --sub demo-officer`).
pub const DEMO_OFFICER: &str = "demo-officer";
/// The citizen who filed the signed-in demo reports (`dev-token --sub demo-citizen`).
pub const DEMO_CITIZEN: &str = "demo-citizen";

const CATEGORIES: [(&str, u32); 3] = [
    ("Komunikace a chodníky", 14),
    ("Veřejné osvětlení", 7),
    ("Zeleň", 30),
];

/// (title, description, lon, lat, author is the demo citizen, hours ago)
const REPORTS: [(&str, &str, f64, f64, bool, i64); 4] = [
    (
        "Výtluk na Karlově mostě",
        "U třetí sochy od Staroměstské strany je v dlažbě díra, hrozí zakopnutí.",
        14.4114,
        50.0865,
        true,
        72,
    ),
    (
        "Nesvítí lampa",
        "Pouliční lampa před domem Vinohradská 12 nesvítí už týden.",
        14.4372,
        50.0777,
        false,
        48,
    ),
    (
        "Spadlá větev v parku",
        "Na cestě ve Stromovce leží velká větev, cesta je neprůchodná.",
        14.4213,
        50.1055,
        true,
        24,
    ),
    (
        "Přeplněný koš",
        "Koš na zastávce Anděl je plný a odpadky jsou všude kolem.",
        14.4036,
        50.0706,
        false,
        2,
    ),
];

/// Loads the demo data when the database holds no report; returns how many reports it filed.
pub async fn load_when_empty(stores: &Stores, now: Instant) -> anyhow::Result<Option<usize>> {
    // News, news categories and projects have their own probe (see demo::news).
    crate::demo::news::load_when_empty(stores, now).await?;
    let probe = ReportFilter::newest(Page {
        limit: 1,
        offset: 0,
    });
    if !stores.reports.public_reports(&probe).await?.rows.is_empty() {
        return Ok(None);
    }
    let mut categories = Vec::new();
    for (name, days) in CATEGORIES {
        let category = stores
            .categories
            .create_category(
                &NewCategory {
                    name: name.to_owned(),
                    is_default: false,
                    statement_deadline_days: Some(days),
                },
                now,
            )
            .await?;
        stores
            .categories
            .assign_officer(DEMO_OFFICER, category.id)
            .await?;
        categories.push(category.id);
    }
    let mut issues = Vec::new();
    for (title, description, lon, lat, signed_in, hours_ago) in REPORTS {
        let report = filing::file_report(
            stores.issues.as_ref(),
            &NewReport {
                id: Uuid::now_v7(),
                author: signed_in.then(|| DEMO_CITIZEN.to_owned()),
                title: title.to_owned(),
                description: description.to_owned(),
                location: Some(LocationParam {
                    point: LonLat { lon, lat },
                    radius_m: None,
                }),
                ..NewReport::default()
            },
            now - TimeDelta::hours(hours_ago),
        )
        .await?
        .ok_or_else(|| anyhow::anyhow!("no default report category"))?;
        let found = stores.reports.report(report.id).await?;
        let issue = found
            .and_then(|r| r.issues.first().map(|i| i.id))
            .ok_or_else(|| anyhow::anyhow!("a filed report has no issue"))?;
        issues.push(issue);
    }
    // The pothole: moved to roads, accepted, with a statement, then resolved.
    let at = |hours: i64| now - TimeDelta::hours(hours);
    let issue_store = stores.issues.as_ref();
    let roads =
        workflow::move_issue(issue_store, issues[0], categories[0], DEMO_OFFICER, at(70)).await?;
    workflow::change_status(
        issue_store,
        roads.id,
        Transition::Accept,
        DEMO_OFFICER,
        at(60),
    )
    .await?;
    workflow::add_statement(
        issue_store,
        roads.id,
        "Děkujeme, závadu jsme předali správci mostu.",
        false,
        &[],
        DEMO_OFFICER,
        at(59),
    )
    .await?;
    workflow::add_statement(
        issue_store,
        roads.id,
        "Dlažba byla opravena.",
        true,
        &[],
        DEMO_OFFICER,
        at(12),
    )
    .await?;
    workflow::change_status(
        issue_store,
        roads.id,
        Transition::Resolve,
        DEMO_OFFICER,
        at(12),
    )
    .await?;
    // The lamp: moved to lighting and accepted.
    let lighting =
        workflow::move_issue(issue_store, issues[1], categories[1], DEMO_OFFICER, at(40)).await?;
    workflow::change_status(
        issue_store,
        lighting.id,
        Transition::Accept,
        DEMO_OFFICER,
        at(30),
    )
    .await?;
    // The branch stays open in the default category; the bin too.
    Ok(Some(REPORTS.len()))
}
