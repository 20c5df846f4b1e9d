//! `media.*` settings.

use std::path::PathBuf;

use secrecy::SecretString;
use serde::Deserialize;

const MIB: u64 = 1 << 20;

/// `media.*`: where attachments of reports are stored and how large they may be.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MediaSettings {
    /// Folder of the default (local) media store; created when missing. Ignored when
    /// `store_url` is set.
    #[serde(default = "default_dir")]
    pub dir: PathBuf,
    /// Base of the public address of a stored file: its `public_url` is
    /// `<public_base_url>/<media_id>`. In the embedded default the service itself serves
    /// `GET /api/v1/media/{media_id}`.
    #[serde(default = "default_public_base_url")]
    pub public_base_url: String,
    /// S3-compatible storage instead of the local folder: `s3://bucket` or `s3://bucket/prefix`.
    /// Unset: the local folder `dir`.
    #[serde(default)]
    pub store_url: Option<String>,
    /// S3 endpoint for S3-compatible services (MinIO, Ceph), e.g. `http://minio:9000`; unset:
    /// AWS itself.
    #[serde(default)]
    pub s3_endpoint: Option<String>,
    /// S3 region (`us-east-1` for most S3-compatible services).
    #[serde(default)]
    pub s3_region: Option<String>,
    /// S3 access key id; unset: taken from the usual AWS environment/instance credentials.
    #[serde(default)]
    pub s3_access_key_id: Option<String>,
    /// S3 secret access key; from the environment only
    /// (`CITIZEN_API__MEDIA__S3_SECRET_ACCESS_KEY`).
    #[serde(default)]
    pub s3_secret_access_key: Option<SecretString>,
    /// Allow a plain `http://` endpoint (MinIO in a cluster); never for storage reached over
    /// the internet.
    #[serde(default)]
    pub s3_allow_http: bool,
    /// Largest single file in bytes (default 10 MiB); larger ones are answered 413.
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
    /// Most files in one report (default 5).
    #[serde(default = "default_max_files")]
    pub max_files: usize,
    /// Largest total of a report's files in bytes (default 25 MiB); more is answered 400
    /// `TOTAL_MEDIA_SIZE_TOO_LARGE`.
    #[serde(default = "default_max_total_bytes")]
    pub max_total_bytes: u64,
    /// Minutes after which a file written for a request that never committed its row (a
    /// killed process) is deleted by the pending-upload sweep (default 60, at least 1; longer
    /// than any request takes).
    #[serde(default = "default_pending_max_age_minutes")]
    pub pending_max_age_minutes: u32,
    /// Minutes between two pending-upload sweeps of a replica (default 10); 0 turns the sweep
    /// off (`citizen-api sweep-uploads` still runs one).
    #[serde(default = "default_pending_sweep_interval_minutes")]
    pub pending_sweep_interval_minutes: u32,
}

fn default_dir() -> PathBuf {
    PathBuf::from("data/media")
}

fn default_public_base_url() -> String {
    "http://localhost:8080/api/v1/media".to_owned()
}

const fn default_max_file_bytes() -> u64 {
    10 * MIB
}

const fn default_max_files() -> usize {
    5
}

const fn default_max_total_bytes() -> u64 {
    25 * MIB
}

const fn default_pending_max_age_minutes() -> u32 {
    60
}

const fn default_pending_sweep_interval_minutes() -> u32 {
    10
}

impl Default for MediaSettings {
    fn default() -> Self {
        Self {
            dir: default_dir(),
            public_base_url: default_public_base_url(),
            store_url: None,
            s3_endpoint: None,
            s3_region: None,
            s3_access_key_id: None,
            s3_secret_access_key: None,
            s3_allow_http: false,
            max_file_bytes: default_max_file_bytes(),
            max_files: default_max_files(),
            max_total_bytes: default_max_total_bytes(),
            pending_max_age_minutes: default_pending_max_age_minutes(),
            pending_sweep_interval_minutes: default_pending_sweep_interval_minutes(),
        }
    }
}

impl MediaSettings {
    /// Checks values the types cannot; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.max_file_bytes == 0 {
            return Err("media.max_file_bytes must be at least 1".into());
        }
        if self.max_files == 0 {
            return Err("media.max_files must be at least 1".into());
        }
        if self.pending_max_age_minutes == 0 {
            return Err("media.pending_max_age_minutes must be at least 1".into());
        }
        if self.max_total_bytes < self.max_file_bytes {
            return Err("media.max_total_bytes must be at least media.max_file_bytes".into());
        }
        if !(self.public_base_url.starts_with("http://")
            || self.public_base_url.starts_with("https://")
            || self.public_base_url.starts_with('/'))
        {
            return Err("media.public_base_url must be an http(s) URL or an absolute path".into());
        }
        if let Some(url) = &self.store_url {
            if !url.starts_with("s3://") || url.len() <= "s3://".len() {
                return Err(format!(
                    "media.store_url must be s3://bucket[/prefix], got {url:?}"
                ));
            }
        }
        Ok(())
    }
}
