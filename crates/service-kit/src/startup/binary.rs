//! The command line every service's binary has: `serve` (the default), `migrate`, and the
//! service's own commands, with `--config FILE` (or `<PREFIX>_CONFIG`) read after the built-in
//! defaults. Each `main.rs` chooses the allocator and calls [`main`] with its service's
//! [`Binary`]; `serve` and `migrate` are the same for every service, through its [`ServiceApp`].

use std::ffi::OsString;
use std::future::Future;
use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use super::BuildOptions;
use crate::db::{Database, Migrations};
use crate::settings::ServiceSettings;

/// A service's application as `serve` and `migrate` use it: built from the service's settings,
/// served until shutdown, with the migrations of its database.
pub trait ServiceApp: Sized {
    /// The service's settings (their [`ServiceSettings::SPEC`] names the binary and the
    /// environment variables).
    type Settings: ServiceSettings;

    /// The migrations of the service's database, which `migrate` applies.
    fn migrations() -> Migrations<'static>;

    /// Builds the application: pool and migrations, readiness, the app and the bound listener
    /// (the steps of [`crate::startup`]), with what tests and benchmarks may change.
    fn build_with(
        settings: &Self::Settings,
        options: BuildOptions,
    ) -> impl Future<Output = anyhow::Result<Self>>;

    /// [`ServiceApp::build_with`] with the default options (the system clock): what `serve`
    /// builds.
    fn build(settings: &Self::Settings) -> impl Future<Output = anyhow::Result<Self>> {
        Self::build_with(settings, BuildOptions::default())
    }

    /// Serves until `shutdown` resolves, then drains within the grace period and stops what the
    /// application started (the pool, and whatever else the service runs).
    fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// The settings of `B`'s service.
type SettingsOf<B> = <<B as Binary>::App as ServiceApp>::Settings;

/// What a service's binary adds to the commands every service has.
pub trait Binary {
    /// The service's application, which `serve` builds and runs and whose migrations `migrate`
    /// applies.
    type App: ServiceApp;
    /// The service's own commands, beside `serve` and `migrate`.
    type Commands: Subcommand;
    /// What the service does, for `--help`.
    const ABOUT: &'static str;

    /// Runs one of the service's own commands (each sets up telemetry when it logs).
    fn run(
        settings: &SettingsOf<Self>,
        command: Self::Commands,
    ) -> impl Future<Output = anyhow::Result<()>>;
}

/// The command line, `C` being the service's own commands. Name, about text and the
/// environment variable of `--config` are the service's, set in [`parse`]. The version is the
/// workspace's, which every service shares.
#[derive(Parser)]
#[command(version)]
struct Cli<C: Subcommand> {
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command<C>>,
}

#[derive(Subcommand)]
enum Command<C: Subcommand> {
    /// Serve the HTTP API (the default).
    Serve,
    /// Apply the database migrations and exit.
    Migrate,
    #[command(flatten)]
    Service(C),
}

/// Parses the command line of `B`'s binary.
fn parse<B: Binary>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Result<Cli<B::Commands>, clap::Error> {
    let spec = SettingsOf::<B>::SPEC;
    let prefix = spec.env_prefix;
    let matches = Cli::<B::Commands>::command()
        .name(spec.name)
        .about(B::ABOUT)
        .mut_arg("config", |arg| {
            arg.env(format!("{prefix}_CONFIG")).help(format!(
                "Settings file read after the defaults (environment variables {prefix}__… still win)"
            ))
        })
        .try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}

/// The whole of a service's `main`: parses the command line (exiting as clap does on `--help`
/// or a mistake), loads the settings and runs the command on a multi-threaded runtime.
///
/// The allocator is the one thing `main.rs` adds: each binary allocates through mimalloc (its
/// `override` feature also serves the C libraries: SQLite, Paho, OpenSSL). Under load glibc's
/// malloc spent a quarter of a list page's CPU in its arenas (perf, docs/benchmarks.md). It is
/// chosen by the binary, not here nor in a service's library: tests and tools linking the
/// libraries keep the system allocator, so valgrind and AddressSanitizer see their heap.
pub fn main<B: Binary>() -> anyhow::Result<()> {
    let cli = parse::<B>(std::env::args_os()).unwrap_or_else(|err| err.exit());
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run::<B>(cli))
}

async fn run<B: Binary>(cli: Cli<B::Commands>) -> anyhow::Result<()> {
    let settings = SettingsOf::<B>::load(cli.config.as_deref())?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            crate::telemetry::init(settings.sections().telemetry);
            B::App::build(&settings)
                .await?
                .run_until(crate::http::shutdown_signal())
                .await
        }
        Command::Migrate => {
            crate::telemetry::init(settings.sections().telemetry);
            let migrations = B::App::migrations();
            let db = Database::connect(settings.sections().database, migrations.schema).await?;
            db.migrate(&migrations).await?;
            db.close().await;
            println!("{}: migrations applied", SettingsOf::<B>::SPEC.name);
            Ok(())
        }
        Command::Service(command) => B::run(&settings, command).await,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // test code

    use super::*;
    use crate::settings::{Sections, ServiceSpec};

    #[derive(serde::Deserialize)]
    struct Settings {}

    impl ServiceSettings for Settings {
        const SPEC: ServiceSpec = ServiceSpec {
            name: "example-api",
            env_prefix: "EXAMPLE_API",
            defaults_toml: "",
        };
        fn check(&self) -> Result<(), String> {
            Ok(())
        }
        fn sections(&self) -> Sections<'_> {
            unreachable!("not parsed")
        }
    }

    #[derive(Subcommand, Debug, PartialEq)]
    enum Own {
        /// Import a file.
        Import { file: PathBuf },
    }

    struct ExampleApp;

    impl ServiceApp for ExampleApp {
        type Settings = Settings;
        fn migrations() -> Migrations<'static> {
            unreachable!("not parsed")
        }
        async fn build_with(_: &Settings, _: BuildOptions) -> anyhow::Result<Self> {
            Ok(Self)
        }
        async fn run_until(
            self,
            _: impl Future<Output = ()> + Send + 'static,
        ) -> anyhow::Result<()> {
            Ok(())
        }
    }

    struct Example;

    impl Binary for Example {
        type App = ExampleApp;
        type Commands = Own;
        const ABOUT: &'static str = "An example service";
        async fn run(_: &Settings, _: Own) -> anyhow::Result<()> {
            Ok(())
        }
    }

    fn command(args: &[&str]) -> (Option<PathBuf>, &'static str) {
        let cli = parse::<Example>(args.iter().copied()).expect("parses");
        let name = match cli.command {
            None => "none",
            Some(Command::Serve) => "serve",
            Some(Command::Migrate) => "migrate",
            Some(Command::Service(Own::Import { .. })) => "import",
        };
        (cli.config, name)
    }

    #[test]
    fn serve_migrate_and_the_services_own_commands_are_parsed() {
        assert_eq!(command(&["example-api"]), (None, "none"));
        assert_eq!(command(&["example-api", "serve"]), (None, "serve"));
        assert_eq!(
            command(&["example-api", "migrate", "--config", "a.toml"]),
            (Some("a.toml".into()), "migrate")
        );
        assert_eq!(
            command(&["example-api", "--config", "b.toml", "import", "x.json"]),
            (Some("b.toml".into()), "import")
        );
        assert!(parse::<Example>(["example-api", "unknown"]).is_err());
    }

    #[test]
    fn help_names_the_service_and_its_config_variable() {
        let err = parse::<Example>(["example-api", "--help"])
            .err()
            .expect("help");
        let help = err.to_string();
        assert!(help.contains("An example service"), "{help}");
        assert!(help.contains("Usage: example-api"), "{help}");
        assert!(help.contains("EXAMPLE_API_CONFIG"), "{help}");
        assert!(help.contains("EXAMPLE_API__"), "{help}");
        assert!(help.contains("import"), "{help}");
    }
}
