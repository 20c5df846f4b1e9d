//! The citizen-api binary: `serve` (default), `migrate`, `dev-token`, `import-news`.

use std::path::PathBuf;

use citizen_api::{store, Application, Settings};
use clap::{Parser, Subcommand};
use service_kit::auth::DevTokenArgs;
use service_kit::db::Database;
use service_kit::settings::ServiceSettings;

/// The process allocates through mimalloc (its `override` feature also serves the C libraries:
/// SQLite, Paho, OpenSSL). Under load glibc's malloc spent a quarter of a list page's CPU in its
/// arenas (perf, docs/benchmarks.md). Chosen here, by the binary, not by a library: tests and
/// tools linking the libraries keep the system allocator, so valgrind and AddressSanitizer see
/// their heap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "citizen-api",
    version,
    about = "Citizens' reports of problems in the city, with their issues and public timeline"
)]
struct Cli {
    /// Settings file read after the defaults (environment variables CITIZEN_API__… still win).
    #[arg(long, global = true, env = "CITIZEN_API_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default).
    Serve,
    /// Apply the database migrations and exit.
    Migrate,
    /// Print a token signed with auth.dev_secret (local use only).
    DevToken(DevTokenArgs),
    /// Publish the news items of a JSON file (an array in the shape of POST /news, each with
    /// an optional `id` so a file can be imported again).
    ImportNews {
        /// The JSON file.
        file: PathBuf,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let settings = Settings::load(cli.config.as_deref())?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            service_kit::telemetry::init(&settings.telemetry);
            Application::build(&settings)
                .await?
                .run_until_stopped()
                .await?;
        }
        Command::Migrate => {
            service_kit::telemetry::init(&settings.telemetry);
            let db = Database::connect(&settings.database, store::SCHEMA).await?;
            db.migrate(&store::migrations()).await?;
            db.close().await;
            println!("citizen-api: migrations applied");
        }
        Command::DevToken(args) => println!("{}", args.mint(&settings.auth)?),
        Command::ImportNews { file } => {
            service_kit::telemetry::init(&settings.telemetry);
            let (db, schema) = service_kit::startup::open_database(
                &settings.database,
                store::migrations(),
                citizen_api::SPEC.name,
            )
            .await?;
            anyhow::ensure!(
                !schema.is_behind(),
                "the database is not migrated: run `citizen-api migrate` first"
            );
            let stores = citizen_api::stores::for_database(&db);
            let summary =
                citizen_api::news_import::import_file(&stores, &file, chrono::Utc::now()).await;
            db.close().await;
            let summary = summary?;
            println!(
                "citizen-api: {} news items created, {} replaced",
                summary.created, summary.replaced
            );
        }
    }
    Ok(())
}
