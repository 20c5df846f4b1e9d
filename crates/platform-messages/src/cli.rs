//! The binary's own command, beside the `serve` and `migrate` every service has
//! (`service_kit::startup::main`): `dev-token`.

use std::future::Future;

use clap::Subcommand;
use service_kit::auth::DevTokenArgs;
use service_kit::db::Migrations;

use crate::{store, Application, Settings};

/// platform-messages' binary, for `service_kit::startup::main`.
pub struct Cli;

/// The commands besides `serve` and `migrate`.
#[derive(Subcommand)]
pub enum Commands {
    /// Print a token signed with auth.dev_secret (local use only).
    DevToken(DevTokenArgs),
}

impl service_kit::startup::Binary for Cli {
    type Settings = Settings;
    type Commands = Commands;
    const ABOUT: &'static str = "Operator announcements per client application, over REST and MQTT";

    fn migrations() -> Migrations<'static> {
        store::migrations()
    }

    async fn serve(
        settings: &Settings,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        Application::build(settings)
            .await?
            .run_until(shutdown)
            .await
    }

    async fn run(settings: &Settings, command: Commands) -> anyhow::Result<()> {
        match command {
            Commands::DevToken(args) => println!("{}", args.mint(&settings.auth)?),
        }
        Ok(())
    }
}
