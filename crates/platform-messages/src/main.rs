//! The platform-messages binary: `serve` (default), `migrate`, `dev-token`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use platform_messages::{load_settings, migrations, Application, SCHEMA};
use service_kit::auth::DevTokenArgs;
use service_kit::db::Database;

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
    let settings = load_settings(cli.config.as_deref())?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            service_kit::telemetry::init(&settings.telemetry);
            let app = Application::build(settings).await?;
            tracing::info!(port = app.port(), "platform-messages listening");
            app.run_until(service_kit::http::shutdown_signal()).await
        }
        Command::Migrate => {
            service_kit::telemetry::init(&settings.telemetry);
            let db = Database::connect(&settings.database, SCHEMA).await?;
            db.migrate(&migrations()).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        Command::DevToken(args) => {
            println!("{}", args.mint(&settings.auth)?);
            Ok(())
        }
    }
}
