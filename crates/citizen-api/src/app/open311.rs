//! mySociety's `servicerequestupdates` from the store's history (docs/open311.md, "Updates"):
//! each report's recorded changes and statements replayed in order
//! ([`domain::open311::updates`]), so an update carries the report's derived status, not one
//! issue's.

use std::collections::HashMap;

use domain::issues::IssueStatus;
use domain::open311::{updates as replay, Event};
use uuid::Uuid;

use crate::store::open311::RequestStore;
use crate::store::{Instant, Media, StoreResult};

/// One update: a change of a report's status, or an officer's statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// The change's or the statement's id.
    pub id: Uuid,
    pub report_id: Uuid,
    /// The report's derived status after it.
    pub status: IssueStatus,
    pub at: Instant,
    /// The statement's text; empty for a status change.
    pub description: String,
    /// The statement's first file.
    pub media: Option<Media>,
}

/// The updates from `from` to `to` (both included), oldest first (then by id).
pub async fn updates(
    store: &dyn RequestStore,
    from: Instant,
    to: Instant,
) -> StoreResult<Vec<Update>> {
    let history = store.history(from, to).await?;
    // Per report, its events in order; a statement made at the instant of a change (a step
    // with its statement) comes after it.
    let mut reports: HashMap<Uuid, Vec<(Instant, u8, Uuid)>> = HashMap::new();
    let mut changes = HashMap::new();
    for change in history.changes {
        reports
            .entry(change.report_id)
            .or_default()
            .push((change.at, 0, change.id));
        changes.insert(change.id, change);
    }
    let mut statements = HashMap::new();
    for (report_id, statement) in history.statements {
        reports
            .entry(report_id)
            .or_default()
            .push((statement.inserted_at, 1, statement.id));
        statements.insert(statement.id, (report_id, statement));
    }
    let inside = |at: Instant| at >= from && at <= to;
    let mut out = Vec::new();
    for (report_id, mut events) in reports {
        events.sort();
        let replayed = replay(events.iter().map(|&(at, kind, id)| {
            let event = match (kind, changes.get(&id)) {
                (0, Some(change)) => Event::Changed {
                    id,
                    issue: change.issue_id,
                    status: change.status,
                },
                _ => Event::Stated { id },
            };
            (event, inside(at))
        }));
        for update in replayed {
            let (at, description, media) = match statements.remove(&update.id) {
                Some((_, statement)) => (
                    statement.inserted_at,
                    statement.text,
                    statement.media.into_iter().next(),
                ),
                None => match changes.get(&update.id) {
                    Some(change) => (change.at, String::new(), None),
                    None => continue,
                },
            };
            out.push(Update {
                id: update.id,
                report_id,
                status: update.status,
                at,
                description,
                media,
            });
        }
    }
    out.sort_by_key(|u| (u.at, u.id));
    Ok(out)
}
