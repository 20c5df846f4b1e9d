//! The demo news, news categories and projects of the embedded default (`demo.load_when_empty`),
//! loaded when the database has no news category, no news item and no project.

use chrono::TimeDelta;
use domain::geo::LonLat;
use uuid::Uuid;

use crate::store::composition::Stores;
use crate::store::news::{NewNewsCategory, NewsDraft, NewsQuery};
use crate::store::projects::{NewProjectMedia, ProjectDraft};
use crate::store::Instant;

/// (name, description, index of the parent in this list)
const CATEGORIES: [(&str, &str, Option<usize>); 6] = [
    ("Doprava", "Doprava ve městě", None),
    ("Uzavírky", "Uzavírky ulic a objízdné trasy", Some(0)),
    ("MHD", "Městská hromadná doprava", Some(0)),
    ("Kultura", "Koncerty, výstavy a festivaly", None),
    ("Životní prostředí", "Zeleň, ovzduší a odpady", None),
    ("Radnice", "Zprávy z radnice", None),
];

/// (title, description, categories, lon/lat, hours ago)
type DemoNews = (
    &'static str,
    &'static str,
    &'static [usize],
    Option<(f64, f64)>,
    i64,
);

const NEWS: [DemoNews; 6] = [
    (
        "Uzavírka Vinohradské ulice",
        "Od pondělí bude Vinohradská ulice mezi náměstím Míru a Jiřího z Poděbrad uzavřena kvůli opravě tramvajové trati.",
        &[1, 2],
        Some((14.4372, 50.0777)),
        5,
    ),
    (
        "Nové noční linky",
        "Od příštího měsíce jezdí dvě nové noční autobusové linky.",
        &[2],
        None,
        30,
    ),
    (
        "Koncert ve Stromovce",
        "V sobotu od 18 hodin zahraje městský orchestr u Šlechtovy restaurace.",
        &[3],
        Some((14.4213, 50.1055)),
        48,
    ),
    (
        "Výsadba stromů na Andělu",
        "Na Andělu přibude dvacet nových stromů; prosíme o ohleduplnost během prací.",
        &[4],
        Some((14.4036, 50.0706)),
        72,
    ),
    (
        "Zasedání zastupitelstva",
        "Zastupitelstvo zasedá ve čtvrtek od 9 hodin; jednání lze sledovat online.",
        &[5],
        None,
        96,
    ),
    (
        "Oprava Karlova mostu",
        "Restaurátoři pokračují v opravě dlažby Karlova mostu; provoz pro pěší je omezen.",
        &[0, 1],
        Some((14.4114, 50.0865)),
        120,
    ),
];

/// (title, description, days from now the project opens, media URL)
const PROJECTS: [(&str, &str, i64, Option<&str>); 3] = [
    (
        "Park u řeky",
        "Nový park na nábřeží s hřištěm a lavičkami. Hlasujte, zda jej má město postavit.",
        -10,
        Some("https://example.org/demo/park-u-reky.jpg"),
    ),
    (
        "Cyklostezka Holešovice",
        "Bezpečná cyklostezka z Holešovic do centra.",
        -2,
        None,
    ),
    (
        "Komunitní zahrada",
        "Zahrada pro sousedy na nevyužitém pozemku.",
        7,
        None,
    ),
];

/// Loads the demo data when there is no news category, news item or project; whether it did.
pub async fn load_when_empty(stores: &Stores, now: Instant) -> anyhow::Result<bool> {
    let empty = stores.news.news_categories().await?.is_empty()
        && stores
            .news
            .news_page(&NewsQuery {
                categories: Vec::new(),
                near: None,
                after: None,
                limit: 1,
            })
            .await?
            .is_empty()
        && stores.projects.projects(None, 1).await?.is_empty();
    if !empty {
        return Ok(false);
    }
    let mut ids: Vec<Uuid> = Vec::new();
    for (name, description, parent) in CATEGORIES {
        let created = crate::app::news_categories::create(
            stores.news.as_ref(),
            &NewNewsCategory {
                name: name.to_owned(),
                description: Some(description.to_owned()),
                parent_id: parent.and_then(|i| ids.get(i).copied()),
            },
            now,
        )
        .await
        .map_err(|err| anyhow::anyhow!("demo news category {name}: {err}"))?;
        ids.push(created.id);
    }
    for (title, description, categories, at, hours_ago) in NEWS {
        let draft = NewsDraft {
            title: title.to_owned(),
            description: description.to_owned(),
            image: None,
            date: now - TimeDelta::hours(hours_ago),
            location: at.map(|(lon, lat)| LonLat { lon, lat }),
            categories: categories
                .iter()
                .filter_map(|i| ids.get(*i).copied())
                .collect(),
        };
        stores
            .news
            .create_news_item(Uuid::now_v7(), &draft, now)
            .await
            .map_err(|err| anyhow::anyhow!("demo news item {title}: {err}"))?;
    }
    for (title, description, days, media) in PROJECTS {
        let draft = ProjectDraft {
            title: title.to_owned(),
            description: description.to_owned(),
            open_from: now + TimeDelta::days(days),
            media: media
                .map(|url| NewProjectMedia {
                    public_url: url.to_owned(),
                    original_filename: None,
                    media_type: Some("image/jpeg".to_owned()),
                })
                .into_iter()
                .collect(),
        };
        stores.projects.create_project(&draft, now).await?;
    }
    Ok(true)
}
