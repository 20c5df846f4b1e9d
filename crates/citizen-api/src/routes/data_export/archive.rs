//! Writing an export's archive while it downloads: the JSON documents, then each photo streamed
//! from the media store; nothing is held in memory but one document and one chunk of a photo.

use async_zip::base::write::ZipFileWriter;
use async_zip::{Compression, ZipEntryBuilder};
use chrono::{DateTime, Utc};
use futures::{AsyncWriteExt as _, StreamExt as _};
use serde::Serialize;
use tokio::io::AsyncWrite;

use super::super::notifications::model::NotificationItem;
use super::super::votes::Token;
use super::files::{photo_path, ExportAccount, ExportReport, FILES};
use crate::app::export::SubjectData;
use crate::media::MediaStore;

/// Writes the archive of `data` to `out` (exported at `now`), then closes the archive; a
/// photo missing from the media store is left out.
pub async fn write(
    out: impl AsyncWrite + Unpin,
    data: SubjectData,
    media: &MediaStore,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let mut zip = ZipFileWriter::with_tokio(out);
    let reports: Vec<ExportReport> = data
        .reports
        .iter()
        .map(|own| ExportReport::new(own, media))
        .collect();
    let votes: Vec<Token> = data.votes.iter().cloned().map(Token::from).collect();
    let feed: Vec<NotificationItem> = data
        .feed
        .iter()
        .cloned()
        .map(NotificationItem::from)
        .collect();
    let [account_json, reports_json, votes_json, feed_json] = FILES;
    document(&mut zip, account_json, &ExportAccount::new(&data, now)).await?;
    document(&mut zip, reports_json, &reports).await?;
    document(&mut zip, votes_json, &votes).await?;
    document(&mut zip, feed_json, &feed).await?;
    drop((reports, votes, feed));
    for m in data
        .reports
        .iter()
        .flat_map(|r| r.report.report.media.iter())
    {
        let Some(opened) = media.open(m.id).await? else {
            tracing::warn!(media_id = %m.id, "a photo of an export is not in the media store");
            continue;
        };
        // Photos are compressed already: stored as they are.
        let entry = ZipEntryBuilder::new(photo_path(m.id, &m.filename).into(), Compression::Stored);
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

/// Writes `value` as the JSON file `name`.
async fn document<W, T>(zip: &mut ZipFileWriter<W>, name: &str, value: &T) -> anyhow::Result<()>
where
    W: futures::AsyncWrite + Unpin,
    T: Serialize,
{
    let json = serde_json::to_vec_pretty(value)?;
    let entry = ZipEntryBuilder::new(name.to_owned().into(), Compression::Deflate);
    zip.write_entry_whole(entry, &json).await?;
    Ok(())
}
