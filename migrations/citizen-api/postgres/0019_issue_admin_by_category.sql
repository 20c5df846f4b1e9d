-- citizen-api, PostgreSQL: nothing to do. The SQLite migration of this number adds the index its
-- admin list of one category walks, which PostgreSQL has had since its migration 0017. Kept so
-- both dialects number their migrations alike.
SELECT 1;
