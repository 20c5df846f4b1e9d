//! The binary's own commands, beside the `serve` and `migrate` every service has
//! (`service_kit::startup::main`): `dev-token` and `import-news`.

use std::path::PathBuf;

use clap::Subcommand;
use service_kit::auth::DevTokenArgs;

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
        }
        Ok(())
    }
}

/// `import-news FILE`: publishes the file's news items into a migrated database.
async fn import_news(settings: &Settings, file: &std::path::Path) -> anyhow::Result<()> {
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
    let stores = crate::stores::for_database(&db);
    let summary = crate::news_import::import_file(&stores, file, chrono::Utc::now()).await;
    db.close().await;
    let summary = summary?;
    println!(
        "citizen-api: {} news items created, {} replaced",
        summary.created, summary.replaced
    );
    Ok(())
}
