//! A subject's export (GDPR Art. 15, 20; docs/privacy.md): its link, and the reads of
//! everything the platform holds about the subject, from every store: a report or a page at a
//! time for the archive (`routes::data_export`, which streams them), all at once for the
//! operator's `citizen-api subject-report`.

use chrono::TimeDelta;
use uuid::Uuid;

use crate::store::composition::Stores;
use crate::store::news::NewsCategory;
use crate::store::notifications::{Notification, Settings};
use crate::store::privacy::{DataExport, EmailSubscription, PrivacyStore, PushSubscription};
use crate::store::votes::{TokenQuery, VoteToken};
use crate::store::{Instant, ReportWithIssues, StoreResult, TimelineData};

/// How many rows a paged read asks for at once.
const PAGE: u32 = 100;

/// One of the subject's reports: as its author sees it, with its public timeline.
#[derive(Debug)]
pub struct OwnReport {
    pub report: ReportWithIssues,
    pub timeline: TimelineData,
}

/// The subject's account: its settings and subscriptions.
#[derive(Debug)]
pub struct Account {
    pub subject: String,
    pub settings: Settings,
    pub email: Option<EmailSubscription>,
    pub push: Vec<PushSubscription>,
    /// The news categories subscribed to.
    pub news_categories: Vec<NewsCategory>,
}

/// Everything the platform holds about a subject (photos: by the media ids of its reports), in
/// memory: what `citizen-api subject-report` sums up. The export's archive reads the same a
/// report or a page at a time instead ([`own_report`], [`votes_after`], [`feed_after`]).
#[derive(Debug)]
pub struct SubjectData {
    pub account: Account,
    pub reports: Vec<OwnReport>,
    /// Every vote token, active, revoked or expired, newest first.
    pub votes: Vec<VoteToken>,
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

/// The subject's account.
pub async fn account(stores: &Stores, subject: &str) -> StoreResult<Account> {
    let subscribed = stores.news.subscriptions(subject).await?;
    let news_categories = stores
        .news
        .news_categories()
        .await?
        .into_iter()
        .filter(|c| subscribed.contains(&c.id))
        .collect();
    Ok(Account {
        subject: subject.to_owned(),
        settings: stores.notifications.settings(subject).await?,
        email: stores.privacy.email_subscription(subject).await?,
        push: stores.privacy.push_subscriptions(subject).await?,
        news_categories,
    })
}

/// The report `id` with its timeline; `None` when it has been deleted since its id was read.
pub async fn own_report(stores: &Stores, id: Uuid) -> StoreResult<Option<OwnReport>> {
    Ok(
        match (
            stores.reports.report_detail(id).await?,
            stores.reports.timeline(id).await?,
        ) {
            (Some(report), Some(timeline)) => Some(OwnReport { report, timeline }),
            _ => None,
        },
    )
}

/// The page of the subject's vote tokens after `after` (newest first; [`PAGE`] at most, fewer
/// on the last page).
pub async fn votes_after(
    stores: &Stores,
    subject: &str,
    after: Option<&VoteToken>,
    now: Instant,
) -> StoreResult<Vec<VoteToken>> {
    let after = after.map(|t| (t.inserted_at, t.id));
    stores
        .votes
        .vote_tokens(TokenQuery {
            subject,
            active: None,
            after,
            limit: PAGE,
            now,
        })
        .await
}

/// The page of the subject's feed after `after` (newest first; [`PAGE`] at most).
pub async fn feed_after(
    stores: &Stores,
    subject: &str,
    after: Option<&Notification>,
) -> StoreResult<Vec<Notification>> {
    let after = after.map(|n| (n.sent_at, n.inserted_at));
    stores
        .notifications
        .notifications(subject, after, PAGE)
        .await
}

/// Whether `page` is the last (shorter than [`PAGE`]).
pub fn is_last<T>(page: &[T]) -> bool {
    page.len() < PAGE as usize
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
        let a = &d.account;
        writeln!(f, "subject: {}", a.subject)?;
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
        let interval = a.settings.interval.map(|i| format!("{i:?}"));
        writeln!(
            f,
            "notification settings: enabled {}, interval {}",
            a.settings.enabled,
            interval.as_deref().unwrap_or("none (as it happens)")
        )?;
        match &a.email {
            Some(e) => writeln!(
                f,
                "e-mail: {} (since {})",
                e.email,
                e.created_at.to_rfc3339()
            )?,
            None => writeln!(f, "e-mail: none")?,
        }
        writeln!(f, "web push subscriptions: {}", a.push.len())?;
        for p in &a.push {
            writeln!(f, "  {}", p.endpoint)?;
        }
        let news: Vec<&str> = a.news_categories.iter().map(|c| c.name.as_str()).collect();
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

/// Everything the platform holds about `subject` at `now`, in memory.
#[tracing::instrument(name = "collect_subject_data", skip_all)]
pub async fn collect(stores: &Stores, subject: &str, now: Instant) -> StoreResult<SubjectData> {
    let mut reports = Vec::new();
    for id in stores.privacy.reports_of(subject).await? {
        reports.extend(own_report(stores, id).await?);
    }
    let mut votes: Vec<VoteToken> = Vec::new();
    loop {
        let page = votes_after(stores, subject, votes.last(), now).await?;
        let last = is_last(&page);
        votes.extend(page);
        if last {
            break;
        }
    }
    let mut feed: Vec<Notification> = Vec::new();
    loop {
        let page = feed_after(stores, subject, feed.last()).await?;
        let last = is_last(&page);
        feed.extend(page);
        if last {
            break;
        }
    }
    Ok(SubjectData {
        account: account(stores, subject).await?,
        reports,
        votes,
        feed,
    })
}
