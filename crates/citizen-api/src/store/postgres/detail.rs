//! The public detail's statement (PostgreSQL: `json_agg`, instants as text);
//! `store/sql/detail.rs` reads its row.

use super::PgStore;

impl PgStore {
    /// The report with its active vote count, its media and its issues as JSON arrays; `$1` the
    /// report, `$2` now; `{REPORT_COLUMNS}` is written in once.
    pub(in crate::store) const DETAIL: &'static str = "SELECT {REPORT_COLUMNS}, \
     (SELECT count(*) FROM vote_tokens v WHERE v.target_id = r.id AND v.revoked_at IS NULL \
        AND (v.expires_at IS NULL OR v.expires_at > $2)) AS votes_count, \
     (SELECT coalesce(json_agg(json_build_object('id', m.id, 'filename', m.filename, \
        'media_type', m.media_type, 'size_bytes', m.size_bytes) ORDER BY m.position), '[]') \
        FROM media m WHERE m.report_id = r.id) AS media, \
     (SELECT coalesce(json_agg(json_build_object('id', i.id, 'category_id', i.category_id, \
        'status', i.status, 'parent_id', i.parent_id, \
        'has_possible_duplicates', i.has_possible_duplicates, 'inserted_at', i.inserted_at) \
        ORDER BY i.inserted_at, i.id), '[]') FROM issues i WHERE i.report_id = r.id) AS issues \
     FROM reports r WHERE r.id = $1";
}
