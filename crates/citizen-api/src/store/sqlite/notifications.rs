//! Writing a feed entry (SQLite): the dialect of its inserted-at instant (INTEGER
//! microseconds).

use super::SqliteStore;

impl SqliteStore {
    /// `$9` (now), or the newest entry of account `$2` plus a microsecond when that is later.
    pub(in crate::store) const NEXT_FEED_INSTANT: &'static str = "max($9, coalesce(( \
         SELECT max(inserted_at) + 1 FROM notifications WHERE subject = $2), $9))";
}
