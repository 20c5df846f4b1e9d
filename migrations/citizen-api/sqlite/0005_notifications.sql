-- citizen-api, SQLite: notifications (see the PostgreSQL migration).

CREATE TABLE notification_settings (
    subject    TEXT PRIMARY KEY,
    enabled    INTEGER NOT NULL,
    "interval" TEXT CHECK ("interval" IN ('daily', 'weekly', 'monthly')),
    locale     TEXT,
    updated_at INTEGER NOT NULL
);

CREATE TABLE notifications (
    tag         TEXT PRIMARY KEY,
    subject     TEXT NOT NULL,
    event_id    TEXT,
    title       TEXT NOT NULL,
    body        TEXT,
    url         TEXT,
    icon        TEXT,
    sent_at     INTEGER NOT NULL,
    inserted_at INTEGER NOT NULL,
    read_at     INTEGER,
    UNIQUE (subject, inserted_at),
    UNIQUE (event_id, subject)
);
CREATE INDEX notifications_feed ON notifications (subject, sent_at DESC, inserted_at DESC);
CREATE INDEX notifications_unread ON notifications (subject) WHERE read_at IS NULL;

CREATE TABLE webpush_subscriptions (
    endpoint   TEXT PRIMARY KEY,
    subject    TEXT NOT NULL,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    locale     TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX webpush_subscriptions_subject ON webpush_subscriptions (subject);

CREATE TABLE email_subscriptions (
    subject           TEXT PRIMARY KEY,
    email             TEXT NOT NULL,
    locale            TEXT,
    unsubscribe_token TEXT NOT NULL UNIQUE,
    created_at        INTEGER NOT NULL
);

-- The transactional outbox (see the PostgreSQL migration). The worker drains it inside
-- BEGIN IMMEDIATE (the write lock is the claim); claimed_until is the lease of deliveries made
-- outside a transaction.
CREATE TABLE notification_outbox (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('report_status', 'statement', 'news')),
    report_id     TEXT,
    news_id       TEXT,
    status        TEXT,
    occurred_at   INTEGER NOT NULL,
    processed_at  INTEGER,
    claimed_until INTEGER,
    attempts      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX notification_outbox_pending ON notification_outbox (occurred_at, id)
    WHERE processed_at IS NULL;
