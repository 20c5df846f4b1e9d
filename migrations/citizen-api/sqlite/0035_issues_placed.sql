-- citizen-api, SQLite: the issues placed in a period (the officers' figures, GET
-- /admin/stats, issue 56): `inserted_at` is when an issue was placed in its category (filed,
-- moved or added there); the figures walk a period's issues through this index.
CREATE INDEX issues_placed ON issues (inserted_at);
