//! `streets-api import FILE`: the file is read on a thread of its own (streets-import), and its
//! streets go, a batch at a time through a short channel, to the store's import, which writes
//! them as they come and makes them visible only once the whole file has been read and found
//! valid. Memory is a few batches, whatever the file's size.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use streets_import::{ImportError, ImportedStreet, StreetSink};
use tokio::sync::mpsc;

use crate::progress::{Display, Progress};
use crate::store::{ImportSummary, StoreError, StoreResult, StreetBatches, StreetStore};

/// How an import reads and reports.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Source CRS overriding the file's.
    pub source_crs: Option<String>,
    /// Streets a batch holds: memory is about four batches (a few hundred bytes a street).
    pub batch_size: usize,
    /// Without a terminal, a progress line at most this often.
    pub progress_interval: Duration,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            source_crs: None,
            batch_size: streets_import::DEFAULT_BATCH_SIZE,
            progress_interval: Duration::from_secs(5),
        }
    }
}

/// Why an import did not happen; the served data is unchanged in every case.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    /// The file was refused (unreadable, or a feature invalid).
    #[error("{} was not imported; the served data is unchanged", file.display())]
    File {
        file: PathBuf,
        #[source]
        source: ImportError,
    },
    /// The file holds no street.
    #[error("{} holds no street; refusing to empty the data set", file.display())]
    Empty { file: PathBuf },
    /// The database refused or failed.
    #[error("{} was not imported; the served data is unchanged", file.display())]
    Store {
        file: PathBuf,
        #[source]
        source: StoreError,
    },
}

/// What the reading thread sends.
enum Message {
    Start(Option<u64>),
    Batch(Vec<ImportedStreet>),
    /// The whole file was read and is valid.
    End,
}

/// The reading thread's end of the channel.
struct ChannelSink(mpsc::Sender<Message>);

impl ChannelSink {
    fn send(&self, message: Message) -> Result<(), ImportError> {
        self.0
            .blocking_send(message)
            .map_err(|_| ImportError::Stopped("the database write ended".to_owned()))
    }
}

impl StreetSink for ChannelSink {
    fn start(&mut self, feature_count: Option<u64>) {
        // If the writer is gone, the next batch says so.
        let _ = self.send(Message::Start(feature_count));
    }

    fn batch(&mut self, streets: Vec<ImportedStreet>) -> Result<(), ImportError> {
        self.send(Message::Batch(streets))
    }
}

/// The store's end of the channel; counts what was written for the progress report.
struct ChannelBatches {
    rx: mpsc::Receiver<Message>,
    progress: Progress,
    /// Streets of the batch last handed out (written once the next is asked for).
    pending: u64,
    seen: u64,
    empty: bool,
}

#[async_trait]
impl StreetBatches for ChannelBatches {
    async fn next_batch(&mut self) -> StoreResult<Option<Vec<ImportedStreet>>> {
        if let Some(report) = self
            .progress
            .advance(std::mem::take(&mut self.pending), Instant::now())
        {
            tracing::info!(
                written = report.written,
                total = report.total,
                rate = report.rate.round(),
                "{report}"
            );
        }
        loop {
            match self.rx.recv().await {
                Some(Message::Start(total)) => self.progress.set_total(total),
                Some(Message::Batch(streets)) => {
                    self.pending = streets.len() as u64;
                    self.seen += self.pending;
                    return Ok(Some(streets));
                }
                Some(Message::End) if self.seen == 0 => {
                    self.empty = true;
                    return Err(StoreError::Other(anyhow::anyhow!(
                        "the file holds no street"
                    )));
                }
                Some(Message::End) => {
                    self.progress.finish();
                    tracing::info!(
                        streets = self.seen,
                        "every street is written; building the indexes and swapping the data set in"
                    );
                    return Ok(None);
                }
                None => {
                    return Err(StoreError::Other(anyhow::anyhow!(
                        "the file was not read to its end"
                    )))
                }
            }
        }
    }
}

/// Replaces every street with the file's, streaming it into `store`.
pub async fn import_file(
    store: &dyn StreetStore,
    file: &Path,
    options: &ImportOptions,
) -> Result<ImportSummary, ImportFailure> {
    // A batch being read, one in the channel, one being written.
    let (tx, rx) = mpsc::channel(1);
    let reader = {
        let (file, options) = (file.to_owned(), options.clone());
        std::thread::spawn(move || {
            let mut sink = ChannelSink(tx);
            let result = streets_import::read_streets(
                &file,
                options.source_crs.as_deref(),
                options.batch_size,
                &mut sink,
            );
            if result.is_ok() {
                sink.send(Message::End)?;
            }
            result
        })
    };
    let mut batches = ChannelBatches {
        rx,
        progress: Progress::new(
            Display::for_stderr(options.progress_interval),
            Instant::now(),
        ),
        pending: 0,
        seen: 0,
        empty: false,
    };
    let written = store.import_streets(&mut batches).await;
    batches.progress.finish();
    let empty = batches.empty;
    // Closing the channel stops the reader if the store stopped first.
    drop(batches);
    let read = tokio::task::spawn_blocking(move || reader.join())
        .await
        .map_err(|e| ImportError::Stopped(format!("the reader could not be joined: {e}")))
        .and_then(|joined| {
            joined.unwrap_or_else(|_| Err(ImportError::Stopped("the reader panicked".to_owned())))
        });
    let file = file.to_owned();
    match (read, written) {
        // The file's own problem comes first; a reader stopped by the store says nothing more.
        (Err(source), _) if !matches!(source, ImportError::Stopped(_)) => {
            Err(ImportFailure::File { file, source })
        }
        (_, Ok(summary)) => Ok(summary),
        (_, Err(_)) if empty => Err(ImportFailure::Empty { file }),
        (_, Err(source)) => Err(ImportFailure::Store { file, source }),
    }
}
