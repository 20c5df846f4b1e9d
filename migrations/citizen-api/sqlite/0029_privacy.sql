-- citizen-api, SQLite: a citizen's export of its data (GDPR Art. 15, 20) and the indexes of the
-- retention sweep (Art. 5(1)(e)); docs/privacy.md.
--
-- One export per account at a time: `POST /me/data-export` writes the row (a new one replaces
-- the old, and with it the old link), `GET /data-exports/{token}` streams the archive until
-- `expires_at`. The token is kept as it was handed out, since `GET /me/data-export` gives the
-- link again (whoever reads this table reads what the archive holds anyway).
CREATE TABLE data_exports (
    subject      TEXT PRIMARY KEY,
    token        TEXT NOT NULL UNIQUE,
    requested_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX data_exports_expiry ON data_exports (expires_at);

-- The retention sweep (docs/privacy.md, "Retention") finds what is past its time by age alone,
-- a batch at a time: feed entries by `sent_at`, digests by `created_at`, officers' events whose
-- detail is still there by `at`.
CREATE INDEX notifications_sent ON notifications (sent_at);
CREATE INDEX notification_digests_created ON notification_digests (created_at);
CREATE INDEX admin_events_detail_at ON admin_events (at) WHERE detail <> '{}';
