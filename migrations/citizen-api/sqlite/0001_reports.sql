-- citizen-api, SQLite (the embedded default): the same tables as the PostgreSQL dialect.
-- UUIDs are their hyphenated text form, instants INTEGER microseconds since the Unix epoch (UTC)
-- so that SQL comparisons order them, booleans 0/1, locations plain longitude/latitude (no
-- spatial index: the embedded default serves a local demo, not a city).

CREATE TABLE report_categories (
    id                      TEXT PRIMARY KEY,
    name                    TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    is_default              INTEGER NOT NULL DEFAULT 0,
    statement_deadline_days INTEGER CHECK (statement_deadline_days > 0),
    created_at              INTEGER NOT NULL
);
CREATE UNIQUE INDEX report_categories_one_default ON report_categories (is_default) WHERE is_default;

CREATE TABLE category_officers (
    subject     TEXT NOT NULL,
    category_id TEXT NOT NULL REFERENCES report_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (subject, category_id)
);

-- `search`: folded title, description and id (see the PostgreSQL migration).
CREATE TABLE reports (
    id                TEXT PRIMARY KEY,
    author            TEXT,
    title             TEXT NOT NULL,
    description       TEXT NOT NULL,
    search            TEXT NOT NULL,
    longitude         REAL,
    latitude          REAL,
    location_radius_m REAL CHECK (location_radius_m > 0),
    explicit          INTEGER NOT NULL DEFAULT 0,
    inserted_at       INTEGER NOT NULL,
    processed_at      INTEGER,
    CHECK ((longitude IS NULL) = (latitude IS NULL))
);
CREATE INDEX reports_author ON reports (author, inserted_at DESC, id DESC) WHERE author IS NOT NULL;

-- The report's filing time and location are copied onto each issue for the public list.
CREATE TABLE issues (
    id                      TEXT PRIMARY KEY,
    report_id               TEXT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    category_id             TEXT NOT NULL REFERENCES report_categories (id),
    status                  TEXT NOT NULL
        CHECK (status IN ('open', 'moved', 'accepted', 'duplicate', 'resolved')),
    parent_id               TEXT REFERENCES issues (id),
    has_possible_duplicates INTEGER NOT NULL DEFAULT 0,
    inserted_at             INTEGER NOT NULL,
    status_changed_at       INTEGER NOT NULL,
    report_inserted_at      INTEGER NOT NULL,
    longitude               REAL,
    latitude                REAL,
    CHECK ((status = 'duplicate') = (parent_id IS NOT NULL))
);
CREATE INDEX issues_report ON issues (report_id);
CREATE INDEX issues_public_by_date ON issues (report_inserted_at DESC, id DESC) WHERE status <> 'moved';
CREATE INDEX issues_public_by_category ON issues (category_id, report_inserted_at DESC, id DESC)
    WHERE status <> 'moved';
CREATE INDEX issues_public_by_status ON issues (status, report_inserted_at DESC, id DESC);

CREATE TABLE issue_changes (
    id        TEXT PRIMARY KEY,
    issue_id  TEXT NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    status    TEXT NOT NULL
        CHECK (status IN ('open', 'moved', 'accepted', 'duplicate', 'resolved')),
    parent_id TEXT REFERENCES issues (id),
    actor     TEXT,
    at        INTEGER NOT NULL
);
CREATE INDEX issue_changes_issue ON issue_changes (issue_id, at);

CREATE TABLE statements (
    id          TEXT PRIMARY KEY,
    issue_id    TEXT NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    final       INTEGER NOT NULL,
    author      TEXT NOT NULL,
    inserted_at INTEGER NOT NULL
);
CREATE INDEX statements_issue ON statements (issue_id, inserted_at DESC);

CREATE TABLE media (
    id           TEXT PRIMARY KEY,
    report_id    TEXT REFERENCES reports (id) ON DELETE CASCADE,
    statement_id TEXT REFERENCES statements (id) ON DELETE CASCADE,
    filename     TEXT NOT NULL,
    media_type   TEXT NOT NULL,
    size_bytes   INTEGER NOT NULL CHECK (size_bytes >= 0),
    position     INTEGER NOT NULL,
    inserted_at  INTEGER NOT NULL,
    CHECK ((report_id IS NULL) <> (statement_id IS NULL))
);
CREATE INDEX media_report ON media (report_id, position) WHERE report_id IS NOT NULL;
CREATE INDEX media_statement ON media (statement_id, position) WHERE statement_id IS NOT NULL;
