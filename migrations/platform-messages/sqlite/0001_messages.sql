-- platform-messages, SQLite: operator announcements per client application.
-- Same tables as the PostgreSQL dialect; instants are INTEGER microseconds since the Unix epoch
-- (UTC) so that SQL comparisons order them correctly, UUIDs are their hyphenated text form.

-- One row per client application that ever had a message; `revision` is the per-client write
-- counter, incremented in the same transaction as every create, update and delete, never reset.
CREATE TABLE clients (
    client_id  TEXT PRIMARY KEY,
    revision   INTEGER NOT NULL CHECK (revision > 0),
    updated_at INTEGER NOT NULL
);

-- The messages. `roles` is a JSON array of strings, non-empty exactly when audience = 'roles'.
-- The window is half-open: visible for valid_from <= t < valid_to; NULL is open on that side.
CREATE TABLE messages (
    id          TEXT PRIMARY KEY,
    client_id   TEXT NOT NULL REFERENCES clients (client_id),
    title       TEXT,
    text        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('info', 'maintenance', 'outage')),
    audience    TEXT NOT NULL CHECK (audience IN ('everyone', 'signed_in', 'roles')),
    roles       TEXT NOT NULL DEFAULT '[]',
    dismissible INTEGER NOT NULL,
    valid_from  INTEGER,
    valid_to    INTEGER,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_to > valid_from)
);

-- Reads are always per client, newest first.
CREATE INDEX messages_client_created ON messages (client_id, created_at DESC, id);
-- The scheduler looks for window starts and ends in a time range.
CREATE INDEX messages_valid_from ON messages (valid_from) WHERE valid_from IS NOT NULL;
CREATE INDEX messages_valid_to ON messages (valid_to) WHERE valid_to IS NOT NULL;
