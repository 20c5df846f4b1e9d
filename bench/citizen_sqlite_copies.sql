-- The list's copies on each issue (migration 0014), filled once the indexes are back (its
-- triggers are dropped during the load by scripts/bench-citizen.sh and recreated after this).
UPDATE issues SET
    (author, title, description, search, location_radius_m, explicit, processed_at, media) =
        (SELECT v.author, v.title, v.description, v.search, v.location_radius_m, v.explicit,
                v.processed_at, v.media FROM report_copies v WHERE v.report_id = issues.report_id);
