//! The binary's own command, beside the `serve` and `migrate` every service has
//! (`service_kit::startup::main`): `import FILE`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::Subcommand;
use service_kit::startup;

use crate::import::{import_file, ImportOptions};
use crate::{store, Application, Settings};

/// streets-api's binary, for `service_kit::startup::main`.
pub struct Cli;

/// The commands besides `serve` and `migrate`.
#[derive(Subcommand)]
pub enum Commands {
    /// Replace all streets with those of a street file (atomic: all or nothing).
    Import {
        /// LineString/MultiLineString features with I_GM_U and N_GM_U, format by extension:
        /// .geojson/.json, .gpkg (GeoPackage), .shp (Shapefile with .dbf and .prj), .fgb.
        file: PathBuf,
        /// Source CRS: any EPSG code, e.g. EPSG:3067; default: the file's (GeoJSON `crs` member,
        /// else EPSG:4326; GeoPackage srs_id; Shapefile .prj; FlatGeobuf header).
        #[arg(long, value_name = "EPSG:CODE")]
        source_crs: Option<String>,
        /// Streets read, checked and written at a time; memory is about four batches (a few
        /// hundred bytes a street), whatever the file's size.
        #[arg(long, value_name = "N", default_value_t = streets_import::DEFAULT_BATCH_SIZE,
              value_parser = clap::value_parser!(usize))]
        batch_size: usize,
        /// Without a terminal (a Job), log the progress at most every this many seconds (on a
        /// terminal a progress bar shows it).
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
        progress_interval: f64,
    },
}

impl service_kit::startup::Binary for Cli {
    type App = Application;
    type Commands = Commands;
    const ABOUT: &'static str = "Public street geometries of the city (GeoJSON, WGS84)";

    async fn run(settings: &Settings, command: Commands) -> anyhow::Result<()> {
        match command {
            Commands::Import {
                file,
                source_crs,
                batch_size,
                progress_interval,
            } => {
                let options = ImportOptions {
                    source_crs,
                    batch_size: batch_size.max(1),
                    progress_interval: Duration::try_from_secs_f64(progress_interval)
                        .context("--progress-interval: a number of seconds, 0 or more")?,
                };
                import(settings, &file, &options).await
            }
        }
    }
}

/// `import FILE`: replaces every street with the file's, in a migrated database.
async fn import(settings: &Settings, file: &Path, options: &ImportOptions) -> anyhow::Result<()> {
    service_kit::telemetry::init(&settings.telemetry);
    let (db, _) = startup::open_database(
        &settings.database,
        store::migrations(),
        crate::settings::SPEC.name,
    )
    .await?;
    startup::require_current_schema(&db, &store::migrations(), "streets-api").await?;
    let summary = import_file(store::for_database(&db).as_ref(), file, options).await?;
    println!(
        "streets-api: imported {} streets ({} new, {} removed)",
        summary.total, summary.added, summary.removed
    );
    Ok(())
}
