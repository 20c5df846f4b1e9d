-- platform-messages, PostgreSQL: operator announcements per client application.
-- Runs with search_path = platform_messages (the service's own schema, created before migrating).

-- One row per client application that ever had a message. `revision` is the per-client write
-- counter: every create, update and delete of a message increments it in the same transaction
-- (`UPDATE ... SET revision = revision + 1 RETURNING revision`), so concurrent writers on several
-- replicas get distinct, increasing values. It is never reset (rows are never deleted), which keeps
-- the version fingerprint from repeating after all messages are deleted.
CREATE TABLE clients (
    client_id  TEXT PRIMARY KEY,
    revision   BIGINT NOT NULL CHECK (revision > 0),
    updated_at TIMESTAMPTZ NOT NULL
);

-- The messages. `roles` is a JSON array of strings, non-empty exactly when audience = 'roles'.
-- The window is half-open: visible for valid_from <= t < valid_to; NULL is open on that side.
CREATE TABLE messages (
    id          UUID PRIMARY KEY,
    client_id   TEXT NOT NULL REFERENCES clients (client_id),
    title       TEXT,
    text        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('info', 'maintenance', 'outage')),
    audience    TEXT NOT NULL CHECK (audience IN ('everyone', 'signed_in', 'roles')),
    roles       TEXT NOT NULL DEFAULT '[]',
    dismissible BOOLEAN NOT NULL,
    valid_from  TIMESTAMPTZ,
    valid_to    TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_to > valid_from)
);

-- Reads are always per client, newest first.
CREATE INDEX messages_client_created ON messages (client_id, created_at DESC, id);
-- The scheduler looks for window starts and ends in a time range.
CREATE INDEX messages_valid_from ON messages (valid_from) WHERE valid_from IS NOT NULL;
CREATE INDEX messages_valid_to ON messages (valid_to) WHERE valid_to IS NOT NULL;
