//! Writing a feed entry (PostgreSQL): the dialect of its inserted-at instant.

use super::PgStore;

impl PgStore {
    /// `$9` (now), or the newest entry of account `$2` plus a microsecond when that is later.
    pub(in crate::store) const NEXT_FEED_INSTANT: &'static str = "GREATEST($9, ( \
         SELECT max(inserted_at) + interval '1 microsecond' FROM notifications \
         WHERE subject = $2))";
}
