//! The JSON documents of an export's archive. Their schemas are components of the OpenAPI
//! description (`ExportAccount`, `ExportReport`, and the API's own `Token` and
//! `NotificationItem`), so that the archive is portable (GDPR Art. 20).

use chrono::{DateTime, Utc};
use serde::Serialize;
use service_kit::instant;
use utoipa::ToSchema;
use uuid::Uuid;

use super::super::dto::{Report, StatusSteps, View};
use super::super::notifications::settings::SettingsBody;
use super::super::reports::status::status_steps;
use crate::app::export::{Account, OwnReport};
use crate::media::{filename, MediaStore};
use crate::store;
use crate::store::privacy::{EmailSubscription, PushSubscription};

/// The layout's version: `format_version` of `account.json`.
pub const FORMAT_VERSION: u32 = 1;

/// The archive's files besides the photos, in the order they are written.
pub const FILES: [&str; 4] = [
    "account.json",
    "reports.json",
    "votes.json",
    "notifications.json",
];

/// `account.json`: the account, its settings and subscriptions.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportAccount {
    /// The account: the subject of the city's sign-in tokens.
    pub subject: String,
    #[serde(serialize_with = "instant::serialize")]
    pub exported_at: DateTime<Utc>,
    /// The version of the archive's layout (docs/privacy.md).
    pub format_version: u32,
    /// The archive's files: `reports.json` (an array of `ExportReport`), `votes.json` (of
    /// `Token`), `notifications.json` (the feed, of `NotificationItem`), and `photos/…`.
    pub files: Vec<String>,
    pub notification_settings: SettingsBody,
    /// The e-mail subscription; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<ExportEmail>,
    /// The browsers subscribed to web push (their keys are not exported).
    pub webpush: Vec<ExportPush>,
    /// The news categories subscribed to.
    pub news_categories: Vec<ExportNewsCategory>,
}

/// The e-mail subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportEmail {
    pub email: String,
    /// The language of the e-mails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(serialize_with = "instant::serialize")]
    pub created_at: DateTime<Utc>,
}

/// A browser subscribed to web push.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportPush {
    pub endpoint: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(serialize_with = "instant::serialize")]
    pub created_at: DateTime<Utc>,
}

/// A news category subscribed to.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportNewsCategory {
    pub category_id: Uuid,
    pub name: String,
}

/// One of `reports.json`: a report as its author sees it, its public timeline, and where its
/// photos are in the archive.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportReport {
    pub report: Report,
    pub timeline: StatusSteps,
    pub photos: Vec<ExportPhoto>,
}

/// A photo of a report in the archive.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportPhoto {
    pub media_id: Uuid,
    /// Its path in the archive: `photos/<media_id>-<filename>`.
    pub path: String,
}

/// The archive path of a report's photo: its id and the name it is answered under (the
/// extension of its type, no format characters).
pub fn photo_path(m: &store::Media) -> String {
    format!(
        "photos/{}-{}",
        m.id,
        filename::shown(&m.filename, &m.media_type)
    )
}

impl ExportAccount {
    pub fn new(data: &Account, now: DateTime<Utc>) -> Self {
        let email = data
            .email
            .as_ref()
            .map(|e: &EmailSubscription| ExportEmail {
                email: e.email.clone(),
                locale: e.locale.clone(),
                created_at: e.created_at,
            });
        let push = |p: &PushSubscription| ExportPush {
            endpoint: p.endpoint.clone(),
            locale: p.locale.clone(),
            created_at: p.created_at,
        };
        Self {
            subject: data.subject.clone(),
            exported_at: now,
            format_version: FORMAT_VERSION,
            files: FILES[1..].iter().map(|f| (*f).to_owned()).collect(),
            notification_settings: SettingsBody::from(data.settings),
            email,
            webpush: data.push.iter().map(push).collect(),
            news_categories: data
                .news_categories
                .iter()
                .map(|c| ExportNewsCategory {
                    category_id: c.id,
                    name: c.name.clone(),
                })
                .collect(),
        }
    }
}

impl ExportReport {
    pub fn new(own: &OwnReport, media: &MediaStore) -> Self {
        let photos = own
            .report
            .report
            .media
            .iter()
            .map(|m| ExportPhoto {
                media_id: m.id,
                path: photo_path(m),
            })
            .collect();
        let mut report = Report::from_store(own.report.report.clone(), media, View::Trusted, None);
        report.status = own.report.status();
        Self {
            report,
            timeline: status_steps(&own.timeline, media),
            photos,
        }
    }
}
