//! The streets-api binary: `serve` (default), `migrate`, `import FILE`.

use anyhow::Context;
use clap::{Parser, Subcommand};
use service_kit::db::Database;
use service_kit::settings::ServiceSettings;
use service_kit::startup;
use std::path::PathBuf;
use streets_api::{store, Application, Settings};

/// The process allocates through mimalloc (its `override` feature also serves the C libraries:
/// SQLite, Paho, OpenSSL). Under load glibc's malloc spent a quarter of a list page's CPU in its
/// arenas (perf, docs/benchmarks.md). Chosen here, by the binary, not by a library: tests and
/// tools linking the libraries keep the system allocator, so valgrind and AddressSanitizer see
/// their heap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "streets-api",
    version,
    about = "Public street geometries of the city (GeoJSON, WGS84)"
)]
struct Cli {
    /// A TOML file whose values override the built-in defaults (environment variables still win).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the HTTP API (the default).
    Serve,
    /// Apply the database migrations and exit.
    Migrate,
    /// Replace all streets with those of a street file (atomic: all or nothing).
    Import {
        /// LineString/MultiLineString features with I_GM_U and N_GM_U, format by extension:
        /// .geojson/.json, .gpkg (GeoPackage), .shp (Shapefile with .dbf and .prj), .fgb.
        file: PathBuf,
        /// Source CRS: any EPSG code, e.g. EPSG:3067; default: the file's (GeoJSON `crs` member,
        /// else EPSG:4326; GeoPackage srs_id; Shapefile .prj; FlatGeobuf header).
        #[arg(long, value_name = "EPSG:CODE")]
        source_crs: Option<String>,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let settings = Settings::load(cli.config.as_deref())?;
    service_kit::telemetry::init(&settings.telemetry);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            Application::build(&settings)
                .await?
                .run_until_stopped()
                .await?
        }
        Command::Migrate => {
            let db = Database::connect(&settings.database, store::SCHEMA).await?;
            db.migrate(&store::migrations()).await?;
            println!("streets-api: migrations applied");
        }
        Command::Import { file, source_crs } => {
            let streets =
                streets_import::read_file(&file, source_crs.as_deref()).with_context(|| {
                    format!(
                        "{} was not imported; the served data is unchanged",
                        file.display()
                    )
                })?;
            anyhow::ensure!(
                !streets.is_empty(),
                "{} holds no street; refusing to empty the data set",
                file.display()
            );
            let (db, _) = startup::open_database(
                &settings.database,
                store::migrations(),
                streets_api::settings::SPEC.name,
            )
            .await?;
            startup::require_current_schema(&db, &store::migrations(), "streets-api").await?;
            let summary = store::for_database(&db)
                .replace_all_streets(&streets)
                .await?;
            println!(
                "streets-api: imported {} streets ({} new, {} removed)",
                summary.total, summary.added, summary.removed
            );
        }
    }
    Ok(())
}
