//! Media files of reports and statements: where they are published.

use serde::Deserialize;
use uuid::Uuid;

/// `media.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MediaSettings {
    /// Base of every stored file's `public_url` (`<public_base_url>/<media_id>`), e.g.
    /// `https://city.example/api/v1/media` or a CDN in front of the object store.
    pub public_base_url: String,
}

impl MediaSettings {
    /// The public address of a stored file.
    pub fn public_url(&self, media_id: Uuid) -> String {
        format!("{}/{media_id}", self.public_base_url.trim_end_matches('/'))
    }
}
