//! Duplicate suggestions: when issues are opened (a report filed, an issue moved), the open or
//! accepted issues of other reports nearby, filed about the same time and with similar texts,
//! are recorded as possible duplicates for the officers (`domain::duplicates`).

use chrono::TimeDelta;
use domain::duplicates::{similarity, DuplicateRule};
use domain::geo::distance_m;

use crate::store::admin::{
    CandidateSearch, DuplicateStore, DuplicateSubject, NewSuggestion, Opened,
};
use crate::store::{Instant, StoreResult};

/// Most candidates read per opened issue (on PostgreSQL the nearest within the radius).
const MAX_CANDIDATES: u32 = 200;

/// Looks for possible duplicates of the issue(s) `opened` names and records them (setting each
/// one's `has_possible_duplicates`); returns how many were recorded.
pub async fn suggest(
    duplicates: &dyn DuplicateStore,
    opened: Opened,
    rule: &DuplicateRule,
    now: Instant,
) -> StoreResult<usize> {
    let mut recorded = 0;
    for subject in duplicates.duplicate_subjects(opened).await? {
        let filed = filed_within(&subject, rule);
        let candidates = duplicates
            .duplicate_candidates(CandidateSearch {
                subject: &subject,
                filed,
                radius_m: rule.radius_m,
                limit: MAX_CANDIDATES,
            })
            .await?;
        let text = text(&subject);
        let found: Vec<NewSuggestion> = candidates
            .iter()
            .filter_map(|candidate| {
                let distance = distance_m(subject.at, candidate.at);
                let sim = similarity(&text, &self::text(candidate));
                let apart = (subject.filed_at - candidate.filed_at).num_seconds();
                rule.suggests(distance, apart, sim)
                    .then_some(NewSuggestion {
                        candidate_id: candidate.issue_id,
                        distance_m: distance,
                        similarity: sim,
                    })
            })
            .collect();
        if !found.is_empty() {
            duplicates
                .record_suggestions(subject.issue_id, &found, now)
                .await?;
            recorded += found.len();
        }
    }
    Ok(recorded)
}

/// The filing times within the rule's window of the subject's; a window past a century (no
/// city's rule) counts as a century, which both databases can hold.
fn filed_within(subject: &DuplicateSubject, rule: &DuplicateRule) -> (Instant, Instant) {
    const CENTURY_SECONDS: i64 = 100 * 365 * 86_400;
    let window = TimeDelta::seconds(rule.window_seconds.saturating_abs().min(CENTURY_SECONDS));
    let at = subject.filed_at;
    (
        at.checked_sub_signed(window).unwrap_or(at),
        at.checked_add_signed(window).unwrap_or(at),
    )
}

/// What the texts' similarity is measured on.
fn text(subject: &DuplicateSubject) -> String {
    format!("{} {}", subject.title, subject.description)
}
