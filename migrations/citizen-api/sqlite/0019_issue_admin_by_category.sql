-- citizen-api, SQLite: the admin list of one category walks that category's issues, as on
-- PostgreSQL since its migration 0017 (this dialect's 0017 was empty).
--
-- An officer of one category, or a `category` filter of one id, lists the reports that have an
-- issue there, newest first (store/sqlite/admin/one_category.rs). Walking every report and
-- probing its issues read about seven reports per row of the page with eight categories; this
-- index gives the category's issues in the order of their reports (date, then the report's id,
-- the admin list's order), so the page is one ordered walk that also serves its DISTINCT. The
-- issue rows carry the copies of the report columns the filters read (migration 0014).
CREATE INDEX issues_admin_by_category
    ON issues (category_id, report_inserted_at DESC, report_id DESC) WHERE status <> 'moved';
