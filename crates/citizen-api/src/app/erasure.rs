//! Erasing a subject's personal data (GDPR Art. 17; docs/privacy.md): a citizen's own request
//! (`DELETE /me`) or an operator's for anyone, officers included (`citizen-api erase`).
//!
//! One transaction, which the writers that fan out to subjects (the outbox drain, the digests)
//! never run beside (`PrivacyStore::begin_erasure`): the vote account (its lock first, as placing
//! and revoking take it), the
//! delivery channels, the feed with its deliveries, the settings, the photos of the subject's
//! reports it asks for, the reports' author, and the subject's name in the audit
//! trail, which becomes a pseudonym; then the removed photos' stored files. Erasing again finds
//! nothing and answers the same.

use uuid::Uuid;

use crate::media::MediaStore;
use crate::store::privacy::PrivacyStore;
use crate::store::StoreResult;

/// What an erasure changed (for the operator's command and the log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erasure {
    /// What stands for the subject in the audit trail from now on.
    pub pseudonym: String,
    /// Vote tokens deleted: active ones no longer count on their reports.
    pub vote_tokens: u64,
    /// Web push and e-mail subscriptions deleted.
    pub subscriptions: u64,
    /// Feed entries (with their deliveries), digests, notification settings and news
    /// subscriptions deleted.
    pub feed_rows: u64,
    /// Photos of the subject's reports deleted (those asked for).
    pub photos: usize,
    /// Reports that lost their author (they stay public, as anonymous filings).
    pub reports: u64,
    /// Audit rows (status changes, statements, officers' events) now naming the pseudonym.
    pub audit_rows: u64,
    /// Category assignments deleted (an officer's).
    pub assignments: u64,
    /// `Idempotency-Key` rows of the subject's filings deleted (their scope is a hash of the
    /// subject, which would still lead back to it; their stored answers name its reports).
    pub filing_keys: u64,
}

/// A new pseudonym: random, so that nothing, not even a key, leads back to the subject; the
/// same for every audit row of one erasure, so an auditor still sees which actions were one
/// person's.
fn pseudonym() -> String {
    format!("erased-{}", Uuid::new_v4().simple())
}

/// Which photos of the subject's reports an erasure deletes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Photos {
    /// None: the reports keep their photos.
    #[default]
    Keep,
    /// All of them.
    RemoveAll,
    /// These (ids of other files are passed over).
    Remove(Vec<Uuid>),
}

/// Erases `subject`'s personal data, and the photos of its reports that `photos` names.
#[tracing::instrument(name = "erase_subject", skip_all)]
pub async fn erase(
    store: &dyn PrivacyStore,
    media: &MediaStore,
    subject: &str,
    photos: &Photos,
) -> StoreResult<Erasure> {
    let pseudonym = pseudonym();
    let mut tx = store.begin_erasure().await?;
    let vote_tokens = tx.delete_votes(subject).await?;
    let subscriptions = tx.delete_channels(subject).await?;
    let feed_rows = tx.delete_feed(subject).await?;
    let photos = match photos {
        Photos::Keep => Vec::new(),
        Photos::RemoveAll => tx.delete_report_media(subject, None).await?,
        Photos::Remove(ids) => tx.delete_report_media(subject, Some(ids)).await?,
    };
    let reports = tx.disown_reports(subject).await?;
    let audit_rows = tx.pseudonymise_audit(subject, &pseudonym).await?;
    let assignments = tx.delete_assignments(subject).await?;
    let filing_keys = tx
        .delete_idempotency_keys(&crate::app::idempotency::scope_of_subject(subject))
        .await?;
    tx.commit().await?;
    // The rows are gone: the files are unreachable whatever happens next; a failure is logged.
    media.discard(&photos).await;
    let erasure = Erasure {
        pseudonym,
        vote_tokens,
        subscriptions,
        feed_rows,
        photos: photos.len(),
        reports,
        audit_rows,
        assignments,
        filing_keys,
    };
    tracing::info!(?erasure, "erased a subject's personal data");
    Ok(erasure)
}
