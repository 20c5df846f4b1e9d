//! The bundled demo data set: 16 streets of central Prague in S-JTSK (EPSG:5514), so that
//! `make run` serves something at once and the demo exercises the same reprojecting import.

use crate::store::{ImportSummary, StreetStore};

/// The demo file, in the city's own projection.
pub const DEMO_GEOJSON: &[u8] = include_bytes!("../demo/prague-demo-5514.geojson");

/// Loads the demo streets when the store is empty; `None` when it already had streets.
pub async fn load_when_empty(store: &dyn StreetStore) -> anyhow::Result<Option<ImportSummary>> {
    if store.count_streets().await? > 0 {
        return Ok(None);
    }
    let streets = streets_import::read_geojson(DEMO_GEOJSON, None)?;
    Ok(Some(store.replace_all_streets(&streets).await?))
}
