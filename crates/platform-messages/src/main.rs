//! The platform-messages binary: `serve` (default), `migrate`, `dev-token`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use platform_messages::{store, Application, Settings};
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
    name = "platform-messages",
    version,
    about = "Operator announcements per client application, over REST and MQTT"
)]
struct Cli {
    /// Settings file read after the defaults (environment variables PLATFORM_MESSAGES__… still win).
    #[arg(long, global = true, env = "PLATFORM_MESSAGES_CONFIG")]
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
            println!("platform-messages: migrations applied");
        }
        Command::DevToken(args) => println!("{}", args.mint(&settings.auth)?),
    }
    Ok(())
}
