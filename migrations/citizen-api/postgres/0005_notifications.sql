-- citizen-api, PostgreSQL: notifications (spec 2.7, 2.8, 4.1 /me/notifications*).

-- A citizen's delivery settings; no row means the defaults (enabled, as it happens). `locale`
-- is the language of what is written to them (the token's `locale` claim when they last set
-- something, else the configured default).
CREATE TABLE notification_settings (
    subject    TEXT PRIMARY KEY,
    enabled    BOOLEAN NOT NULL,
    "interval" TEXT CHECK ("interval" IN ('daily', 'weekly', 'monthly')),
    locale     TEXT,
    updated_at TIMESTAMPTZ NOT NULL
);

-- The feed. `tag` is the notification's identity (a UUID derived from the event and the
-- recipient, so a repeat after a crash is the same entry). `inserted_at` is unique per subject
-- (a later entry of the same subject gets at least one microsecond more), so the spec's
-- two-string cursor [sent_at, inserted_at] orders the feed totally, ties included.
CREATE TABLE notifications (
    tag         TEXT PRIMARY KEY,
    subject     TEXT NOT NULL,
    event_id    UUID,
    title       TEXT NOT NULL,
    body        TEXT,
    url         TEXT,
    icon        TEXT,
    sent_at     TIMESTAMPTZ NOT NULL,
    inserted_at TIMESTAMPTZ NOT NULL,
    read_at     TIMESTAMPTZ,
    UNIQUE (subject, inserted_at),
    UNIQUE (event_id, subject)
);
-- The feed page, newest first.
CREATE INDEX notifications_feed ON notifications (subject, sent_at DESC, inserted_at DESC);
-- The unread count.
CREATE INDEX notifications_unread ON notifications (subject) WHERE read_at IS NULL;

-- Web push subscriptions (one per endpoint; a browser that subscribes again replaces its keys).
CREATE TABLE webpush_subscriptions (
    endpoint   TEXT PRIMARY KEY,
    subject    TEXT NOT NULL,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    locale     TEXT,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX webpush_subscriptions_subject ON webpush_subscriptions (subject);

-- E-mail subscriptions: the address of the token's `email` claim when the citizen subscribed.
-- `unsubscribe_token` is the secret of the one-click unsubscribe link.
CREATE TABLE email_subscriptions (
    subject           TEXT PRIMARY KEY,
    email             TEXT NOT NULL,
    locale            TEXT,
    unsubscribe_token TEXT NOT NULL UNIQUE,
    created_at        TIMESTAMPTZ NOT NULL
);

-- The transactional outbox: an event is written in the same transaction as the change behind
-- it (nothing lost, nothing for a change that rolled back). The worker claims rows with
-- FOR UPDATE SKIP LOCKED, writes the feed entries of every recipient and marks the row
-- processed in one transaction. kind: report_status (status set), statement, news.
CREATE TABLE notification_outbox (
    id            UUID PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('report_status', 'statement', 'news')),
    report_id     UUID,
    news_id       UUID,
    status        TEXT,
    occurred_at   TIMESTAMPTZ NOT NULL,
    processed_at  TIMESTAMPTZ,
    claimed_until TIMESTAMPTZ,
    attempts      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX notification_outbox_pending ON notification_outbox (occurred_at, id)
    WHERE processed_at IS NULL;
