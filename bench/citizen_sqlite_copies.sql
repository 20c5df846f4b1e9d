-- The list's copies on each issue (migration 0014), filled once the indexes are back (its
-- triggers are dropped during the load by scripts/bench-citizen.sh and recreated after this).
UPDATE issues SET
    (author, title, description, search, location_radius_m, explicit, processed_at, media) =
        (SELECT v.author, v.title, v.description, v.search, v.location_radius_m, v.explicit,
                v.processed_at, v.media FROM report_copies v WHERE v.report_id = issues.report_id);
-- The kept vote counts (migration 0034; its triggers are dropped during the load as well).
UPDATE vote_tokens SET counted = 0
WHERE expires_at <= CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER);
UPDATE reports SET votes_count =
    (SELECT count(*) FROM vote_tokens v
     WHERE v.target_id = reports.id AND v.revoked_at IS NULL AND v.counted)
WHERE id IN (SELECT target_id FROM vote_tokens WHERE counted);
UPDATE issues SET votes_count = (SELECT r.votes_count FROM reports r WHERE r.id = issues.report_id)
WHERE report_id IN (SELECT id FROM reports WHERE votes_count <> 0);
