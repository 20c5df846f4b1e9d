-- citizen-api, SQLite: nothing to do. The PostgreSQL migration of this number adds the index
-- the admin list of one category walks (store/postgres/admin/one_category.rs); SQLite's admin
-- list keeps its general query. Kept so both dialects number their migrations alike.
SELECT 1;
