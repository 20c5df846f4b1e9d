-- citizen-api, SQLite: a citizen's export of its data (GDPR Art. 15, 20; docs/privacy.md).
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
