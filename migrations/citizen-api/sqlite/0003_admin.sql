-- citizen-api, SQLite: the officers' side (see the PostgreSQL migration).

CREATE INDEX reports_by_date ON reports (inserted_at DESC, id DESC);

CREATE TABLE duplicate_suggestions (
    issue_id     TEXT NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    candidate_id TEXT NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    distance_m   REAL NOT NULL,
    similarity   REAL NOT NULL,
    inserted_at  INTEGER NOT NULL,
    dismissed_at INTEGER,
    PRIMARY KEY (issue_id, candidate_id),
    CHECK (issue_id <> candidate_id)
);

CREATE TABLE admin_events (
    id        TEXT PRIMARY KEY,
    report_id TEXT REFERENCES reports (id) ON DELETE CASCADE,
    issue_id  TEXT REFERENCES issues (id) ON DELETE CASCADE,
    action    TEXT NOT NULL,
    actor     TEXT NOT NULL,
    detail    TEXT NOT NULL DEFAULT '{}',
    at        INTEGER NOT NULL
);
CREATE INDEX admin_events_report ON admin_events (report_id, at) WHERE report_id IS NOT NULL;
