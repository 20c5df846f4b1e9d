//! Filing a report (spec 2.1): the report with its media and one open issue in the default
//! category, in one transaction, with the change recorded (its actor the citizen, none when
//! anonymous) and the report's first public status for MQTT. With an `Idempotency-Key`, the
//! same transaction stores the filing's answer under the key (`app::idempotency`), so a
//! committed filing always has its stored answer.
//!
//! The answer is the report as committed, not read back after the commit: a read that failed
//! then (the database gone between the two) would refuse a filing that is stored, and the
//! refusal would delete its photos (the fault suite's database restart).

use uuid::Uuid;

use super::workflow::record_status_if_changed;
use crate::store::idempotency::StoredAnswer;
use crate::store::{Instant, IssueChange, IssueStore, NewIssue, NewReport, Report, StoreResult};

/// An answer to store under an `Idempotency-Key` claimed by the filing.
#[derive(Debug, Clone, Copy)]
pub struct Answering<'a> {
    pub scope: &'a str,
    pub key: &'a str,
    pub answer: &'a StoredAnswer,
}

/// Where a report is filed and who files it: the category of its first issue (`None`: the
/// default one) and the actor its opening is recorded under (`None`: the report's author).
/// `POST /reports` files in the default category as the citizen; an Open311 integrator files in
/// the service's category under its own name (`open311:<integrator>`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Placement<'a> {
    pub category: Option<Uuid>,
    pub actor: Option<&'a str>,
}

/// Files `new` (its media already stored): the report as committed; `None` when there is no
/// default category.
pub async fn file_report(
    issues: &dyn IssueStore,
    new: &NewReport,
    now: Instant,
) -> StoreResult<Option<Report>> {
    file_report_answering(issues, new, now, None).await
}

/// [`file_report`], storing `answering`'s answer under its key in the same transaction.
pub async fn file_report_answering(
    issues: &dyn IssueStore,
    new: &NewReport,
    now: Instant,
    answering: Option<Answering<'_>>,
) -> StoreResult<Option<Report>> {
    file_report_placed(issues, new, Placement::default(), now, answering).await
}

/// [`file_report_answering`] as `placement` says: `None` when its category (or, without one,
/// the default category) does not exist.
pub async fn file_report_placed(
    issues: &dyn IssueStore,
    new: &NewReport,
    placement: Placement<'_>,
    now: Instant,
    answering: Option<Answering<'_>>,
) -> StoreResult<Option<Report>> {
    let mut tx = issues.begin_step().await?;
    let category_id = match placement.category {
        Some(id) => tx.category_exists(id).await?.then_some(id),
        None => tx.default_category().await?,
    };
    let Some(category_id) = category_id else {
        return Ok(None);
    };
    tx.insert_report(new, now).await?;
    let issue = tx
        .open_issue(NewIssue::of(new.id, category_id), now)
        .await?;
    let actor = placement.actor.or(new.author.as_deref());
    tx.record_change(&IssueChange::opened(issue.id, now), actor)
        .await?;
    record_status_if_changed(tx.as_mut(), new.id, None, now).await?;
    if let Some(a) = answering {
        tx.complete_idempotency(a.scope, a.key, a.answer).await?;
    }
    tx.commit().await?;
    Ok(Some(Report::filed(new, now)))
}
