//! The binary's own command, beside the `serve` and `migrate` every service has
//! (`service_kit::startup::main`): `dev-token`.

use clap::Subcommand;
use service_kit::auth::DevTokenArgs;

use crate::{Application, Settings};

/// platform-messages' binary, for `service_kit::startup::main`.
pub struct Cli;

/// The commands besides `serve` and `migrate`.
#[derive(Subcommand)]
pub enum Commands {
    /// Print a token signed with auth.dev_secret (local use only).
    DevToken(DevTokenArgs),
}

impl service_kit::startup::Binary for Cli {
    type App = Application;
    type Commands = Commands;
    const ABOUT: &'static str = "Operator announcements per client application, over REST and MQTT";

    async fn run(settings: &Settings, command: Commands) -> anyhow::Result<()> {
        match command {
            Commands::DevToken(args) => println!("{}", args.mint(&settings.auth)?),
        }
        Ok(())
    }
}
