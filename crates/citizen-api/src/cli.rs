//! The binary's own commands, beside the `serve` and `migrate` every service has
//! (`service_kit::startup::main`): `dev-token`, `import-news`, `erase`, `subject-report` and
//! `sweep-uploads` and `expire-votes`.

use std::path::PathBuf;

use clap::Subcommand;
use service_kit::auth::DevTokenArgs;
use service_kit::db::Database;

use crate::app::erasure::Photos;
use crate::media::MediaStore;
use crate::store::composition::Stores;
use crate::{store, Application, Settings};

/// citizen-api's binary, for `service_kit::startup::main`.
pub struct Cli;

/// The commands besides `serve` and `migrate`.
#[derive(Subcommand)]
pub enum Commands {
    /// Print a token signed with auth.dev_secret (local use only).
    DevToken(DevTokenArgs),
    /// Publish the news items of a JSON file (an array in the shape of POST /news, each with
    /// an optional `id` so a file can be imported again).
    ImportNews {
        /// The JSON file.
        file: PathBuf,
    },
    /// Erase a subject's personal data, an officer's too (docs/privacy.md): its reports stay
    /// public without author, the audit trail names a pseudonym instead. Erasing again is
    /// harmless.
    Erase {
        /// The token subject (`sub`) whose data goes.
        #[arg(long)]
        subject: String,
        /// Also delete all the photos of the subject's reports.
        #[arg(long, conflicts_with = "remove_photo")]
        remove_photos: bool,
        /// Also delete this photo of one of the subject's reports (a media id; repeatable).
        #[arg(long)]
        remove_photo: Vec<uuid::Uuid>,
    },
    /// Print what the platform holds about a subject (for a request by letter; the subject's
    /// own copy is its data export).
    SubjectReport {
        /// The token subject (`sub`).
        #[arg(long)]
        subject: String,
    },
    /// Delete, once, the files of uploads whose request died before committing them (pending
    /// longer than media.pending_max_age_minutes); every replica also does this every
    /// media.pending_sweep_interval_minutes.
    SweepUploads,
    /// Take every vote token that has expired out of its report's `votes_count`, once; every
    /// replica also does this every votes.expiry_sweep_seconds.
    ExpireVotes,
}

impl service_kit::startup::Binary for Cli {
    type App = Application;
    type Commands = Commands;
    const ABOUT: &'static str =
        "Citizens' reports of problems in the city, with their issues and public timeline";

    async fn run(settings: &Settings, command: Commands) -> anyhow::Result<()> {
        match command {
            Commands::DevToken(args) => println!("{}", args.mint(&settings.auth)?),
            Commands::ImportNews { file } => import_news(settings, &file).await?,
            Commands::Erase {
                subject,
                remove_photos,
                remove_photo,
            } => {
                let photos = match (remove_photos, remove_photo.is_empty()) {
                    (true, _) => Photos::RemoveAll,
                    (false, true) => Photos::Keep,
                    (false, false) => Photos::Remove(remove_photo),
                };
                erase(settings, &subject, &photos).await?
            }
            Commands::SubjectReport { subject } => {
                let (db, stores) = open_stores(settings).await?;
                let report =
                    crate::app::export::subject_report(&stores, &subject, chrono::Utc::now()).await;
                db.close().await;
                print!("{}", report?);
            }
            Commands::SweepUploads => {
                let media = MediaStore::new(&settings.media)?;
                let (db, stores) = open_stores(settings).await?;
                let swept = crate::app::pending_uploads::sweep(
                    stores.uploads.as_ref(),
                    &media,
                    crate::app::pending_uploads::max_age(settings.media.pending_max_age_minutes),
                    chrono::Utc::now(),
                )
                .await;
                db.close().await;
                println!("citizen-api: removed {} abandoned uploads", swept?);
            }
            Commands::ExpireVotes => {
                let (db, stores) = open_stores(settings).await?;
                let expired =
                    crate::app::vote_expiry::sweep(stores.votes.as_ref(), chrono::Utc::now()).await;
                db.close().await;
                println!(
                    "citizen-api: {} expired vote tokens stopped counting",
                    expired?
                );
            }
        }
        Ok(())
    }
}

/// The migrated database of `settings` and its stores, for a command.
async fn open_stores(settings: &Settings) -> anyhow::Result<(Database, Stores)> {
    service_kit::telemetry::init(&settings.telemetry);
    let (db, schema) = service_kit::startup::open_database(
        &settings.database,
        store::migrations(),
        crate::SPEC.name,
    )
    .await?;
    anyhow::ensure!(
        !schema.is_behind(),
        "the database is not migrated: run `citizen-api migrate` first"
    );
    let stores = crate::store::composition::for_database(&db);
    Ok((db, stores))
}

/// `erase --subject S [--remove-photos | --remove-photo ID…]`: erases the subject's data and
/// prints what changed.
async fn erase(settings: &Settings, subject: &str, photos: &Photos) -> anyhow::Result<()> {
    let media = MediaStore::new(&settings.media)?;
    let (db, stores) = open_stores(settings).await?;
    let erased = crate::app::erasure::erase(stores.privacy.as_ref(), &media, subject, photos).await;
    db.close().await;
    let e = erased?;
    println!(
        "citizen-api: erased {} vote tokens, {} subscriptions, {} feed and settings rows, {} \
         photos, {} category assignments, {} filing keys; {} reports without author; {} audit rows now name {}",
        e.vote_tokens,
        e.subscriptions,
        e.feed_rows,
        e.photos,
        e.assignments,
        e.filing_keys,
        e.reports,
        e.audit_rows,
        e.pseudonym
    );
    Ok(())
}

/// `import-news FILE`: publishes the file's news items into a migrated database.
async fn import_news(settings: &Settings, file: &std::path::Path) -> anyhow::Result<()> {
    let (db, stores) = open_stores(settings).await?;
    let summary = crate::news_import::import_file(&stores, file, chrono::Utc::now()).await;
    db.close().await;
    let summary = summary?;
    println!(
        "citizen-api: {} news items created, {} replaced",
        summary.created, summary.replaced
    );
    Ok(())
}
