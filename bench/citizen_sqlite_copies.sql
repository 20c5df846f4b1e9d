-- The list's copies on each issue (migration 0014), filled once the indexes are back (its
-- triggers are dropped during the load by scripts/bench-citizen.sh and recreated after this).
UPDATE issues SET
    (author, title, description, search, location_radius_m, explicit, processed_at) =
        (SELECT r.author, r.title, r.description, r.search, r.location_radius_m, r.explicit,
                r.processed_at FROM reports r WHERE r.id = issues.report_id),
    media = (SELECT json_group_array(json(o.m)) FROM (
                 SELECT json_object('id', m.id, 'filename', m.filename,
                                    'media_type', m.media_type, 'size_bytes', m.size_bytes) AS m
                 FROM media m WHERE m.report_id = issues.report_id ORDER BY m.position) o);
