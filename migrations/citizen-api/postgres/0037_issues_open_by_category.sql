-- The officers' figures count each category's overdue issues (GET /admin/stats, "overdue now"):
-- the open and accepted issues placed in the category at or before the category's cutoff
-- (domain::issues::overdue_cutoff). Without this index the count read every open issue and
-- computed its deadline (0.73 s at 1 000 000 reports on PostgreSQL).
CREATE INDEX issues_open_by_category ON issues (category_id, inserted_at)
    WHERE status IN ('open', 'accepted');
