//! Writing an export's archive while it downloads: `account.json`, then `reports.json`,
//! `votes.json` and `notifications.json` each written as it is read (a report or a page at a
//! time), then each photo streamed from the media store. Memory holds one report or page and one
//! chunk of a photo, however much the subject has (docs/benchmarks.md: the export's memory).

use async_zip::base::write::{EntryStreamWriter, ZipFileWriter};
use async_zip::{Compression, ZipEntryBuilder};
use chrono::{DateTime, Utc};
use futures::{AsyncWrite, AsyncWriteExt as _, StreamExt as _};
use serde::Serialize;
use uuid::Uuid;

use super::super::notifications::dto::NotificationItem;
use super::super::votes::Token;
use super::files::{photo_path, ExportAccount, ExportReport, FILES};
use crate::app::export::{self, Account};
use crate::media::MediaStore;
use crate::store::composition::Stores;

/// A JSON array written into an archive entry an item at a time.
struct JsonArray<'z, W: AsyncWrite + Unpin> {
    entry: EntryStreamWriter<'z, W>,
    items: usize,
}

impl<'z, W: AsyncWrite + Unpin> JsonArray<'z, W> {
    async fn open(zip: &'z mut ZipFileWriter<W>, name: &str) -> anyhow::Result<Self> {
        let entry = ZipEntryBuilder::new(name.to_owned().into(), Compression::Deflate);
        Ok(Self {
            entry: zip.write_entry_stream(entry).await?,
            items: 0,
        })
    }

    async fn push(&mut self, item: &impl Serialize) -> anyhow::Result<()> {
        let separator: &[u8] = if self.items == 0 { b"[\n" } else { b",\n" };
        self.entry.write_all(separator).await?;
        self.entry
            .write_all(&serde_json::to_vec_pretty(item)?)
            .await?;
        self.items += 1;
        Ok(())
    }

    async fn close(mut self) -> anyhow::Result<()> {
        let end: &[u8] = if self.items == 0 { b"[]\n" } else { b"\n]\n" };
        self.entry.write_all(end).await?;
        self.entry.close().await?;
        Ok(())
    }
}

/// Writes the archive of `account`'s subject to `out` (exported at `now`), reading the rest
/// from `stores` as it goes, then closes the archive; a photo missing from the media store is
/// left out.
pub async fn write(
    out: impl tokio::io::AsyncWrite + Unpin,
    stores: &Stores,
    account: Account,
    media: &MediaStore,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let subject = account.subject.as_str();
    let mut zip = ZipFileWriter::with_tokio(out);
    let [account_json, reports_json, votes_json, feed_json] = FILES;
    let document = serde_json::to_vec_pretty(&ExportAccount::new(&account, now))?;
    let entry = ZipEntryBuilder::new(account_json.to_owned().into(), Compression::Deflate);
    zip.write_entry_whole(entry, &document).await?;

    let mut photos: Vec<(Uuid, String)> = Vec::new();
    let mut reports = JsonArray::open(&mut zip, reports_json).await?;
    for id in stores.privacy.reports_of(subject).await? {
        let Some(own) = export::own_report(stores, id).await? else {
            continue;
        };
        let media_of = own.report.report.media.iter();
        photos.extend(media_of.map(|m| (m.id, photo_path(m))));
        reports.push(&ExportReport::new(&own, media)).await?;
    }
    reports.close().await?;

    let mut votes = JsonArray::open(&mut zip, votes_json).await?;
    let mut last = None;
    loop {
        let page = export::votes_after(stores, subject, last.as_ref(), now).await?;
        let done = export::is_last(&page);
        for token in &page {
            votes.push(&Token::from(token.clone())).await?;
        }
        last = page.into_iter().last();
        if done {
            break;
        }
    }
    votes.close().await?;

    let mut feed = JsonArray::open(&mut zip, feed_json).await?;
    let mut last = None;
    loop {
        let page = export::feed_after(stores, subject, last.as_ref()).await?;
        let done = export::is_last(&page);
        for entry in &page {
            feed.push(&NotificationItem::from(entry.clone())).await?;
        }
        last = page.into_iter().last();
        if done {
            break;
        }
    }
    feed.close().await?;

    for (media_id, path) in photos {
        let Some(opened) = media.open(media_id).await? else {
            tracing::warn!(%media_id, "a photo of an export is not in the media store");
            continue;
        };
        // Photos are compressed already: stored as they are.
        let entry = ZipEntryBuilder::new(path.into(), Compression::Stored);
        let mut writer = zip.write_entry_stream(entry).await?;
        let mut body = opened.body;
        while let Some(chunk) = body.next().await {
            writer.write_all(&chunk?).await?;
        }
        writer.close().await?;
    }
    let mut out = zip.close().await?;
    out.close().await?;
    Ok(())
}
