-- citizen-api, PostgreSQL: report categories, reports, their issues, status history, statements
-- and media. Runs with search_path = citizen_api (the service's own schema, created before
-- migrating); PostGIS lives in public.

-- Report categories (spec 2.3). Exactly one may be the default: new reports get their first
-- issue there. `statement_deadline_days` is the officers' deadline for a first statement (the
-- admin list's `overdue`); NULL means no deadline.
CREATE TABLE report_categories (
    id                      UUID PRIMARY KEY,
    name                    TEXT NOT NULL UNIQUE CHECK (length(btrim(name)) > 0),
    is_default              BOOLEAN NOT NULL DEFAULT FALSE,
    statement_deadline_days INTEGER CHECK (statement_deadline_days > 0),
    created_at              TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX report_categories_one_default ON report_categories (is_default) WHERE is_default;

-- Which officer (token subject) works in which category.
CREATE TABLE category_officers (
    subject     TEXT NOT NULL,
    category_id UUID NOT NULL REFERENCES report_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (subject, category_id)
);

-- A citizen's report. `author` is the token subject of a signed-in citizen, NULL for an
-- anonymous filing. `search` is the folded (lowercase, no diacritics) title, description and id
-- that `q` is matched against, with a trigram index for substring search. The location is kept
-- twice: as a geography for the index-assisted radius and nearest-first queries, and as plain
-- numbers the service reads back.
CREATE TABLE reports (
    id                UUID PRIMARY KEY,
    author            TEXT,
    title             TEXT NOT NULL,
    description       TEXT NOT NULL,
    search            TEXT NOT NULL,
    longitude         DOUBLE PRECISION,
    latitude          DOUBLE PRECISION,
    location_radius_m DOUBLE PRECISION CHECK (location_radius_m > 0),
    location          public.geography(Point, 4326),
    explicit          BOOLEAN NOT NULL DEFAULT FALSE,
    inserted_at       TIMESTAMPTZ NOT NULL,
    processed_at      TIMESTAMPTZ,
    CHECK ((longitude IS NULL) = (latitude IS NULL) AND (longitude IS NULL) = (location IS NULL))
);
CREATE INDEX reports_author ON reports (author, inserted_at DESC, id DESC) WHERE author IS NOT NULL;
CREATE INDEX reports_search ON reports USING gin (search public.gin_trgm_ops);

-- One issue per category a report is handled in (spec section 3). The report's filing time and
-- location are copied here (they never change) so the public list, one row per issue, is served
-- from this table's indexes alone. `parent_id` is set for a duplicate.
CREATE TABLE issues (
    id                      UUID PRIMARY KEY,
    report_id               UUID NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    category_id             UUID NOT NULL REFERENCES report_categories (id),
    status                  TEXT NOT NULL
        CHECK (status IN ('open', 'moved', 'accepted', 'duplicate', 'resolved')),
    parent_id               UUID REFERENCES issues (id),
    has_possible_duplicates BOOLEAN NOT NULL DEFAULT FALSE,
    inserted_at             TIMESTAMPTZ NOT NULL,
    status_changed_at       TIMESTAMPTZ NOT NULL,
    report_inserted_at      TIMESTAMPTZ NOT NULL,
    location                public.geography(Point, 4326),
    CHECK ((status = 'duplicate') = (parent_id IS NOT NULL))
);
CREATE INDEX issues_report ON issues (report_id);
CREATE INDEX issues_public_by_date ON issues (report_inserted_at DESC, id DESC) WHERE status <> 'moved';
CREATE INDEX issues_public_by_category ON issues (category_id, report_inserted_at DESC, id DESC)
    WHERE status <> 'moved';
CREATE INDEX issues_public_by_status ON issues (status, report_inserted_at DESC, id DESC);
CREATE INDEX issues_public_location ON issues USING gist (location) WHERE status <> 'moved';

-- Every change of an issue's state (the first row is its opening), with who made it: the public
-- timeline and the audit trail read it.
CREATE TABLE issue_changes (
    id        UUID PRIMARY KEY,
    issue_id  UUID NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    status    TEXT NOT NULL
        CHECK (status IN ('open', 'moved', 'accepted', 'duplicate', 'resolved')),
    parent_id UUID REFERENCES issues (id),
    actor     TEXT,
    at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX issue_changes_issue ON issue_changes (issue_id, at);

-- Officers' statements on an issue; public without their author.
CREATE TABLE statements (
    id          UUID PRIMARY KEY,
    issue_id    UUID NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    final       BOOLEAN NOT NULL,
    author      TEXT NOT NULL,
    inserted_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX statements_issue ON statements (issue_id, inserted_at DESC);

-- Stored files: a report's attachments or a statement's. The bytes live in the media store under
-- the media id; `position` keeps the upload order.
CREATE TABLE media (
    id           UUID PRIMARY KEY,
    report_id    UUID REFERENCES reports (id) ON DELETE CASCADE,
    statement_id UUID REFERENCES statements (id) ON DELETE CASCADE,
    filename     TEXT NOT NULL,
    media_type   TEXT NOT NULL,
    size_bytes   BIGINT NOT NULL CHECK (size_bytes >= 0),
    position     INTEGER NOT NULL,
    inserted_at  TIMESTAMPTZ NOT NULL,
    CHECK ((report_id IS NULL) <> (statement_id IS NULL))
);
CREATE INDEX media_report ON media (report_id, position) WHERE report_id IS NOT NULL;
CREATE INDEX media_statement ON media (statement_id, position) WHERE statement_id IS NOT NULL;
