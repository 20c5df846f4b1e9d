-- citizen-api, PostgreSQL: the officers' side (issue 9): the admin list's date order, duplicate
-- suggestions and the audit trail of changes that are no status change or statement.

-- The admin list is one row per report, newest first by default.
CREATE INDEX reports_by_date ON reports (inserted_at DESC, id DESC);

-- Possible duplicates found when an issue was opened (on filing and on move): an open or
-- accepted issue of the same category, near and recent, with a similar text. `dismissed_at` is
-- set when an officer dismisses them (kept, so a later check never suggests them again).
CREATE TABLE duplicate_suggestions (
    issue_id     UUID NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    candidate_id UUID NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    distance_m   DOUBLE PRECISION NOT NULL,
    similarity   DOUBLE PRECISION NOT NULL,
    inserted_at  TIMESTAMPTZ NOT NULL,
    dismissed_at TIMESTAMPTZ,
    PRIMARY KEY (issue_id, candidate_id),
    CHECK (issue_id <> candidate_id)
);

-- Officers' changes besides status changes (issue_changes) and statements: dismissed
-- suggestions, deleted media, category and assignment changes. `report_id` is set for changes
-- of a report (read by GET /admin/reports/{reportId}/audit); `detail` is a short JSON text.
CREATE TABLE admin_events (
    id        UUID PRIMARY KEY,
    report_id UUID REFERENCES reports (id) ON DELETE CASCADE,
    issue_id  UUID REFERENCES issues (id) ON DELETE CASCADE,
    action    TEXT NOT NULL,
    actor     TEXT NOT NULL,
    detail    TEXT NOT NULL DEFAULT '{}',
    at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX admin_events_report ON admin_events (report_id, at) WHERE report_id IS NOT NULL;
