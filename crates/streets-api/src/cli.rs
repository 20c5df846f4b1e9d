//! The binary's own command, beside the `serve` and `migrate` every service has
//! (`service_kit::startup::main`): `import FILE`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Subcommand;
use service_kit::startup;

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
    },
}

impl service_kit::startup::Binary for Cli {
    type App = Application;
    type Commands = Commands;
    const ABOUT: &'static str = "Public street geometries of the city (GeoJSON, WGS84)";

    async fn run(settings: &Settings, command: Commands) -> anyhow::Result<()> {
        match command {
            Commands::Import { file, source_crs } => {
                import(settings, &file, source_crs.as_deref()).await
            }
        }
    }
}

/// `import FILE`: replaces every street with the file's, in a migrated database.
async fn import(settings: &Settings, file: &Path, source_crs: Option<&str>) -> anyhow::Result<()> {
    service_kit::telemetry::init(&settings.telemetry);
    let streets = streets_import::read_file(file, source_crs).with_context(|| {
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
        crate::settings::SPEC.name,
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
    Ok(())
}
