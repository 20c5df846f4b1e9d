-- citizen-api, SQLite: nothing to do. The PostgreSQL migration of this number adds functions
-- that place and revoke vote tokens in one statement; SQLite takes its write lock for the whole
-- transaction instead (BEGIN IMMEDIATE). Kept so both dialects number their migrations alike.
SELECT 1;
