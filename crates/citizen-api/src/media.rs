//! Attachments of reports: type detection by the first bytes, metadata removal, storage
//! through `object_store` (a local folder by default, S3-compatible storage when configured)
//! and serving them back.
//!
//! A file is stored under its fresh `media_id` (a UUID v4) as the object key, below the
//! configured prefix, with nothing else in the key: `public_url` is
//! `<media.public_base_url>/<media_id>`, so a bucket published as it is serves the same
//! addresses. The media type is not stored beside the object: every stored object begins with
//! the bytes it was recognised by (stripping never changes a file's header), so [`MediaStore::open`]
//! recognises it again from its first bytes. On S3 the type is also set as the object's
//! `Content-Type` (the local file system cannot keep attributes).
//!
//! What is removed from which type is described in `jpeg`, `png`, `webp` and `heif`; PDF is
//! stored as sent. See docs/citizen-api/filing.md.

use std::sync::Arc;

use bytes::Bytes;
use futures::stream::{self, BoxStream, StreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as StorePath;
use object_store::{
    Attribute, Attributes, ObjectStore, ObjectStoreExt, PutMultipartOptions, WriteMultipart,
};
use secrecy::ExposeSecret;
use serde::Serialize;
use service_kit::multipart::{FilePart, MultipartLimits};
use uuid::Uuid;

mod error;
pub mod filename;
mod heif;
mod jpeg;
mod png;
pub mod serve;
mod settings;
mod strip;
mod types;
mod webp;

pub use error::MediaError;
pub use settings::MediaSettings;
pub use types::{MediaType, SNIFF_LEN};

pub use strip::Stripper;

/// Upload part size for S3: its minimum for every part but the last.
const S3_PART_BYTES: usize = 5 << 20;
/// Upload part size for the local folder: what one upload may hold before writing.
const LOCAL_PART_BYTES: usize = 512 << 10;
/// Parts of one upload being written at once.
const PARTS_IN_FLIGHT: usize = 2;
/// Text fields of the report form counted into the multipart total besides the files.
const FORM_TEXT_FIELDS: u64 = 4;

/// A file stored for a report (the spec's Media, with `public_url` from [`MediaStore::public_url`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredMedia {
    /// The object's key and the file's id.
    pub media_id: Uuid,
    /// The client's file name, sanitised (`attachment.<ext>` when it sent none).
    pub filename: String,
    /// The type recognised from the file's first bytes.
    pub media_type: MediaType,
    /// Bytes stored (after metadata removal).
    pub size: u64,
}

/// A file part whose type is recognised and whose id is chosen, not yet written
/// ([`MediaStore::sniff`]).
#[derive(Debug)]
pub struct Sniffed {
    /// The object's key and the file's id, once written.
    pub media_id: Uuid,
    /// The type recognised from the first bytes.
    pub media_type: MediaType,
    /// The chunks read to recognise it.
    first: Vec<Bytes>,
}

/// A stored file opened for reading.
pub struct OpenedMedia {
    /// The type recognised from the stored bytes.
    pub media_type: MediaType,
    /// Its length in bytes.
    pub size: u64,
    /// Its bytes, from the first.
    pub body: BoxStream<'static, Result<Bytes, object_store::Error>>,
}

impl std::fmt::Debug for OpenedMedia {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedMedia")
            .field("media_type", &self.media_type)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// Where attachments are kept; cheap to clone and shared by every worker.
#[derive(Clone)]
pub struct MediaStore {
    store: Arc<dyn ObjectStore>,
    prefix: StorePath,
    public_base_url: String,
    part_bytes: usize,
    /// Whether the store keeps `Content-Type` (S3); the local file system refuses attributes.
    keeps_attributes: bool,
}

impl std::fmt::Debug for MediaStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaStore")
            .field("store", &self.store.to_string())
            .field("prefix", &self.prefix.as_ref())
            .field("public_base_url", &self.public_base_url)
            .finish_non_exhaustive()
    }
}

impl MediaStore {
    /// The store of `settings`: the local folder `dir` (created when missing) or the S3 bucket
    /// of `store_url`.
    pub fn new(settings: &MediaSettings) -> anyhow::Result<Self> {
        settings.validate().map_err(anyhow::Error::msg)?;
        let Some(url) = &settings.store_url else {
            std::fs::create_dir_all(&settings.dir)
                .map_err(|err| anyhow::anyhow!("media.dir {}: {err}", settings.dir.display()))?;
            let local = LocalFileSystem::new_with_prefix(&settings.dir)?;
            return Ok(Self {
                store: Arc::new(local),
                prefix: StorePath::default(),
                public_base_url: settings.public_base_url.clone(),
                part_bytes: LOCAL_PART_BYTES,
                keeps_attributes: false,
            });
        };
        let rest = url.strip_prefix("s3://").unwrap_or(url);
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let mut builder = AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            .with_allow_http(settings.s3_allow_http);
        if let Some(endpoint) = &settings.s3_endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if let Some(region) = &settings.s3_region {
            builder = builder.with_region(region);
        }
        if let Some(key_id) = &settings.s3_access_key_id {
            builder = builder.with_access_key_id(key_id);
        }
        if let Some(secret) = &settings.s3_secret_access_key {
            builder = builder.with_secret_access_key(secret.expose_secret());
        }
        let s3 = builder
            .build()
            .map_err(|err| anyhow::anyhow!("media.store_url {url}: {err}"))?;
        Ok(Self {
            store: Arc::new(s3),
            prefix: StorePath::from(prefix),
            public_base_url: settings.public_base_url.clone(),
            part_bytes: S3_PART_BYTES,
            keeps_attributes: true,
        })
    }

    /// A store over any `object_store` (tests, other back ends); the type is not kept as an
    /// attribute.
    pub fn with_store(store: Arc<dyn ObjectStore>, public_base_url: &str) -> Self {
        Self {
            store,
            prefix: StorePath::default(),
            public_base_url: public_base_url.to_owned(),
            part_bytes: S3_PART_BYTES,
            keeps_attributes: false,
        }
    }

    /// The object key of `media_id`.
    fn key(&self, media_id: Uuid) -> StorePath {
        self.prefix.clone().join(media_id.to_string())
    }

    /// `<public_base_url>/<media_id>`.
    pub fn public_url(&self, media_id: Uuid) -> String {
        format!("{}/{media_id}", self.public_base_url.trim_end_matches('/'))
    }

    /// Reads `file` chunk by chunk, recognises its type from its first bytes, removes its
    /// metadata and writes it to the store under a fresh `media_id`. On any error the upload is
    /// aborted, so no object and no partial file stays behind. ([`MediaStore::sniff`] then
    /// [`MediaStore::write`], with nothing between them.)
    pub async fn store_upload(&self, file: &mut FilePart<'_>) -> Result<StoredMedia, MediaError> {
        let sniffed = self.sniff(file).await?;
        self.write(file, sniffed).await
    }

    /// Reads the first bytes of `file` and recognises its type; nothing is written yet. The
    /// caller records the [`Sniffed::media_id`] (its pending-upload row) before
    /// [`MediaStore::write`] stores any byte under it.
    pub async fn sniff(&self, file: &mut FilePart<'_>) -> Result<Sniffed, MediaError> {
        let mut first = Vec::new();
        let mut head = Vec::with_capacity(SNIFF_LEN);
        while head.len() < SNIFF_LEN {
            let Some(chunk) = file.chunk().await.map_err(MediaError::from_reader)? else {
                break;
            };
            let take = (SNIFF_LEN - head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
            first.push(chunk);
        }
        if head.is_empty() {
            return Err(MediaError::Empty);
        }
        let media_type = MediaType::sniff(&head).ok_or(MediaError::UnsupportedType)?;
        Ok(Sniffed {
            media_id: Uuid::new_v4(),
            media_type,
            first,
        })
    }

    /// Removes the metadata of the `sniffed` file and writes it, the rest read from `file`, to
    /// the store under its `media_id`. On any error the upload is aborted, so no object and no
    /// partial file stays behind.
    pub async fn write(
        &self,
        file: &mut FilePart<'_>,
        sniffed: Sniffed,
    ) -> Result<StoredMedia, MediaError> {
        let Sniffed {
            media_id,
            media_type,
            first,
        } = sniffed;
        let mut options = PutMultipartOptions::default();
        if self.keeps_attributes {
            let mut attributes = Attributes::new();
            attributes.insert(Attribute::ContentType, media_type.mime().into());
            options.attributes = attributes;
        }
        let upload = self
            .store
            .put_multipart_opts(&self.key(media_id), options)
            .await?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, self.part_bytes);
        let written = write_file(file, first, Stripper::new(media_type), &mut writer).await;
        let size = match written {
            Ok(size) => size,
            Err(err) => {
                if let Err(abort) = writer.abort().await {
                    tracing::warn!(%media_id, error = %abort, "aborting a failed upload failed");
                }
                return Err(err);
            }
        };
        writer.finish().await?;
        Ok(StoredMedia {
            media_id,
            filename: filename::sanitize(file.filename.as_deref(), media_type),
            media_type,
            size,
        })
    }

    /// Removes a stored file; one that is not there counts as removed.
    pub async fn delete(&self, media_id: Uuid) -> Result<(), MediaError> {
        match self.store.delete(&self.key(media_id)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(err) => Err(err.into()),
        }
    }

    /// Removes every file of `media_ids` (cleanup after a failed filing); failures are logged
    /// at warn, as the request is failing already.
    pub async fn discard(&self, media_ids: &[Uuid]) {
        for &media_id in media_ids {
            if let Err(err) = self.delete(media_id).await {
                tracing::warn!(%media_id, error = %err, "could not remove a stored file");
            }
        }
    }

    /// The stored file `media_id`, or `None` when there is none.
    pub async fn open(&self, media_id: Uuid) -> Result<Option<OpenedMedia>, MediaError> {
        let key = self.key(media_id);
        let found = match self.store.get(&key).await {
            Ok(found) => found,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(err) => return Err(err.into()),
        };
        let size = found.meta.size;
        let mut body = found.into_stream();
        let mut first = Vec::new();
        let mut head = Vec::with_capacity(SNIFF_LEN);
        while head.len() < SNIFF_LEN {
            let Some(chunk) = body.next().await.transpose()? else {
                break;
            };
            let take = (SNIFF_LEN - head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
            first.push(chunk);
        }
        let media_type =
            MediaType::sniff(&head).ok_or_else(|| MediaError::StoredUnknown(key.to_string()))?;
        let body = stream::iter(first.into_iter().map(Ok)).chain(body).boxed();
        Ok(Some(OpenedMedia {
            media_type,
            size,
            body,
        }))
    }
}

impl MediaSettings {
    /// The multipart reader's limits for the report form: these file limits, text fields of
    /// at most `max_text_bytes`, and a total of `max_total_bytes` plus room for the form's
    /// four text fields (so the text does not eat into the media allowance).
    pub fn multipart_limits(&self, max_text_bytes: u64) -> MultipartLimits {
        MultipartLimits {
            max_text_bytes,
            max_file_bytes: self.max_file_bytes,
            max_files: self.max_files,
            max_total_bytes: self
                .max_total_bytes
                .saturating_add(FORM_TEXT_FIELDS.saturating_mul(max_text_bytes)),
        }
    }
}

/// Filters the file's bytes (the `first` chunks already read, then the rest) into `writer`;
/// returns how many bytes were written.
async fn write_file(
    file: &mut FilePart<'_>,
    first: Vec<Bytes>,
    mut stripper: Stripper,
    writer: &mut WriteMultipart,
) -> Result<u64, MediaError> {
    let mut size = 0u64;
    let mut out = Vec::new();
    let mut pending = first.into_iter();
    loop {
        let chunk = match pending.next() {
            Some(chunk) => chunk,
            None => match file.chunk().await.map_err(MediaError::from_reader)? {
                Some(chunk) => chunk,
                None => break,
            },
        };
        out.clear();
        stripper.feed(&chunk, &mut out)?;
        size += put(writer, &out).await?;
    }
    out.clear();
    stripper.finish(&mut out)?;
    size += put(writer, &out).await?;
    Ok(size)
}

/// Writes `bytes` once the writer has room; returns their length.
async fn put(writer: &mut WriteMultipart, bytes: &[u8]) -> Result<u64, MediaError> {
    if bytes.is_empty() {
        return Ok(0);
    }
    writer.wait_for_capacity(PARTS_IN_FLIGHT).await?;
    writer.write(bytes);
    Ok(bytes.len() as u64)
}
