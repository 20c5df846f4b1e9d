//! A subject's export (GDPR Art. 15, 20; docs/privacy.md): its link, and everything the
//! platform holds about the subject, gathered from every store for the archive
//! (`routes::data_export`) and for the operator's `citizen-api subject-report`.

use chrono::TimeDelta;
use uuid::Uuid;

use crate::store::news::NewsCategory;
use crate::store::notifications::{Notification, Settings};
use crate::store::privacy::{DataExport, EmailSubscription, PrivacyStore, PushSubscription};
use crate::store::votes::VoteToken;
use crate::store::{Instant, ReportWithIssues, StoreResult, TimelineData};
use crate::stores::Stores;

/// How many rows a paged read asks for at once.
const PAGE: u32 = 100;

/// One of the subject's reports: as its author sees it, with its public timeline.
#[derive(Debug)]
pub struct OwnReport {
    pub report: ReportWithIssues,
    pub timeline: TimelineData,
}

/// Everything the platform holds about a subject (photos: by the media ids of its reports).
#[derive(Debug)]
pub struct SubjectData {
    pub subject: String,
    pub reports: Vec<OwnReport>,
    /// Every vote token, active, revoked or expired, newest first.
    pub votes: Vec<VoteToken>,
    pub settings: Settings,
    pub email: Option<EmailSubscription>,
    pub push: Vec<PushSubscription>,
    /// The news categories subscribed to.
    pub news_categories: Vec<NewsCategory>,
    /// The notification feed, newest first.
    pub feed: Vec<Notification>,
}

impl SubjectData {
    /// The number of the subject's photos (those of its reports).
    pub fn photo_count(&self) -> usize {
        self.reports
            .iter()
            .map(|r| r.report.report.media.len())
            .sum()
    }
}

/// What `citizen-api subject-report` prints: the subject's data, and what it did as an officer.
#[derive(Debug)]
pub struct SubjectReport {
    pub data: SubjectData,
    /// The report categories the subject is assigned to (an officer's).
    pub categories: Vec<String>,
    /// The audit rows that name the subject (steps, statements, officers' events).
    pub audit_rows: u64,
    /// The subject's export link, while it works.
    pub export: Option<DataExport>,
    /// When the report was made.
    pub at: Instant,
}

/// Everything the platform holds about `subject` at `now`, for an operator.
pub async fn subject_report(
    stores: &Stores,
    subject: &str,
    now: Instant,
) -> StoreResult<SubjectReport> {
    Ok(SubjectReport {
        data: collect(stores, subject, now).await?,
        categories: stores
            .categories
            .officer_categories(subject)
            .await?
            .into_iter()
            .map(|c| c.name)
            .collect(),
        audit_rows: stores.privacy.audit_mentions(subject).await?,
        export: stores.privacy.export_of(subject, now).await?,
        at: now,
    })
}

impl std::fmt::Display for SubjectReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = &self.data;
        let active = d
            .votes
            .iter()
            .filter(|t| t.revoked_at.is_none() && t.expires_at.is_none_or(|e| e > self.at))
            .count();
        let unread = d.feed.iter().filter(|n| n.read_at.is_none()).count();
        writeln!(f, "subject: {}", d.subject)?;
        writeln!(
            f,
            "reports filed: {} ({} photos)",
            d.reports.len(),
            d.photo_count()
        )?;
        for own in &d.reports {
            let r = &own.report.report;
            let status = own
                .report
                .status()
                .map_or("-".to_owned(), |s| s.to_string());
            writeln!(
                f,
                "  {} {} {status} {}",
                r.id,
                r.inserted_at.to_rfc3339(),
                r.title
            )?;
        }
        writeln!(f, "vote tokens: {} ({active} active)", d.votes.len())?;
        let interval = d.settings.interval.map(|i| format!("{i:?}"));
        writeln!(
            f,
            "notification settings: enabled {}, interval {}",
            d.settings.enabled,
            interval.as_deref().unwrap_or("none (as it happens)")
        )?;
        match &d.email {
            Some(e) => writeln!(
                f,
                "e-mail: {} (since {})",
                e.email,
                e.created_at.to_rfc3339()
            )?,
            None => writeln!(f, "e-mail: none")?,
        }
        writeln!(f, "web push subscriptions: {}", d.push.len())?;
        for p in &d.push {
            writeln!(f, "  {}", p.endpoint)?;
        }
        let news: Vec<&str> = d.news_categories.iter().map(|c| c.name.as_str()).collect();
        writeln!(f, "news subscriptions: {}", news.join(", "))?;
        writeln!(
            f,
            "notification feed: {} entries ({unread} unread)",
            d.feed.len()
        )?;
        writeln!(
            f,
            "report categories assigned: {}",
            self.categories.join(", ")
        )?;
        writeln!(f, "audit rows naming the subject: {}", self.audit_rows)?;
        match &self.export {
            Some(e) => writeln!(f, "data export link: until {}", e.expires_at.to_rfc3339()),
            None => writeln!(f, "data export link: none"),
        }
    }
}

/// Starts (or restarts) the subject's export: a new link, valid for `valid` from `now`; an
/// earlier link stops working.
pub async fn start(
    store: &dyn PrivacyStore,
    subject: &str,
    now: Instant,
    valid: TimeDelta,
) -> StoreResult<DataExport> {
    let export = DataExport {
        subject: subject.to_owned(),
        // 244 random bits (two version 4 UUIDs).
        token: format!("{}{}", Uuid::new_v4().simple(), Uuid::new_v4().simple()),
        requested_at: now,
        expires_at: now + valid,
    };
    store.put_export(&export).await?;
    Ok(export)
}

/// Everything the platform holds about `subject` at `now`.
#[tracing::instrument(name = "collect_subject_data", skip_all)]
pub async fn collect(stores: &Stores, subject: &str, now: Instant) -> StoreResult<SubjectData> {
    let mut reports = Vec::new();
    for id in stores.privacy.reports_of(subject).await? {
        // A report deleted since the ids were read is left out.
        let (Some(report), Some(timeline)) = (
            stores.reports.report_detail(id, now).await?,
            stores.reports.timeline(id).await?,
        ) else {
            continue;
        };
        reports.push(OwnReport { report, timeline });
    }
    let subscribed = stores.news.subscriptions(subject).await?;
    let news_categories = stores
        .news
        .news_categories()
        .await?
        .into_iter()
        .filter(|c| subscribed.contains(&c.id))
        .collect();
    Ok(SubjectData {
        subject: subject.to_owned(),
        reports,
        votes: all_votes(stores, subject, now).await?,
        settings: stores.notifications.settings(subject).await?,
        email: stores.privacy.email_subscription(subject).await?,
        push: stores.privacy.push_subscriptions(subject).await?,
        news_categories,
        feed: whole_feed(stores, subject).await?,
    })
}

async fn all_votes(stores: &Stores, subject: &str, now: Instant) -> StoreResult<Vec<VoteToken>> {
    let mut out: Vec<VoteToken> = Vec::new();
    loop {
        let after = out.last().map(|t| (t.inserted_at, t.id));
        let page = stores
            .votes
            .vote_tokens(subject, None, after, PAGE, now)
            .await?;
        let done = page.len() < PAGE as usize;
        out.extend(page);
        if done {
            return Ok(out);
        }
    }
}

async fn whole_feed(stores: &Stores, subject: &str) -> StoreResult<Vec<Notification>> {
    let mut out: Vec<Notification> = Vec::new();
    loop {
        let after = out.last().map(|n| (n.sent_at, n.inserted_at));
        let page = stores
            .notifications
            .notifications(subject, after, PAGE)
            .await?;
        let done = page.len() < PAGE as usize;
        out.extend(page);
        if done {
            return Ok(out);
        }
    }
}
