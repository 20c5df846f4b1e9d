//! Building the read model: one build at a time, in the background after a check saw a new
//! generation, or awaited (after an import through this process, by the readiness check).

use async_trait::async_trait;
use service_kit::health::ReadinessCheck;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use super::model::Model;
use super::{Held, ReadModelStreets, Shared};
use crate::store::{DatasetSnapshot, StoreError, StoreResult};

/// Starts a background build unless one is running.
pub(super) fn spawn_build(shared: &Arc<Shared>) {
    if shared.building.swap(true, Ordering::AcqRel) {
        return;
    }
    let shared = shared.clone();
    shared.runtime.clone().spawn(async move {
        let result = build_until_current(&shared).await;
        shared.building.store(false, Ordering::Release);
        if let Err(err) = result {
            tracing::warn!(
                error = format!("{err:#}"),
                "building the streets read model failed; reads go to the database"
            );
        }
    });
}

/// Builds models until one is of the newest generation seen (an import may commit while one
/// is built). One build at a time; returns at once when the model held is current.
pub(super) async fn build_until_current(shared: &Arc<Shared>) -> StoreResult<()> {
    let _build = shared.build.lock().await;
    loop {
        {
            let state = shared.read_state()?;
            if state.held.generation().is_some() && state.held.generation() == state.latest {
                return Ok(());
            }
        }
        let started = Instant::now();
        let built = build_once(shared).await;
        let held = match built {
            Ok(held) => held,
            Err(err) => {
                shared.failed_builds.fetch_add(1, Ordering::Relaxed);
                return Err(err);
            }
        };
        let Some(generation) = held.generation() else {
            continue;
        };
        let mut state = shared.write_state()?;
        if state.latest.is_some_and(|latest| generation < latest) {
            continue; // a check saw a newer import meanwhile: build again
        }
        if state.latest != Some(generation) || state.checked_at.is_none_or(|at| at < started) {
            // The snapshot read this generation after `started`.
            state.checked_at = Some(started);
        }
        state.latest = Some(generation);
        state.held = held;
        shared.builds.fetch_add(1, Ordering::Relaxed);
        shared.first_built.store(true, Ordering::Release);
        return Ok(());
    }
}

async fn build_once(shared: &Shared) -> StoreResult<Held> {
    let at_most = u64::try_from(shared.settings.max_entries).unwrap_or(u64::MAX);
    let snapshot: DatasetSnapshot = shared.inner.dataset_snapshot(at_most).await?;
    if snapshot.total > at_most {
        tracing::warn!(
            streets = snapshot.total,
            max_entries = at_most,
            "more streets than cache.max_entries: reads go to the database"
        );
        return Ok(Held::TooLarge(snapshot.generation));
    }
    let began = Instant::now();
    let model = tokio::task::spawn_blocking(move || Model::build(snapshot))
        .await
        .map_err(|e| StoreError::Other(anyhow::Error::new(e).context("model build")))?
        .map_err(|e| StoreError::Other(anyhow::Error::new(e).context("model build")))?;
    tracing::info!(
        streets = model.len(),
        generation = model.generation(),
        build_ms = began.elapsed().as_millis() as u64,
        "streets read model built"
    );
    Ok(Held::Model(Arc::new(model)))
}

pub(super) struct FirstModel(pub(super) ReadModelStreets);

#[async_trait]
impl ReadinessCheck for FirstModel {
    fn name(&self) -> &'static str {
        "streets"
    }

    async fn check(&self) -> anyhow::Result<()> {
        if self.0.shared.first_built.load(Ordering::Acquire) {
            return Ok(());
        }
        if let Err(err) = self.0.build_now().await {
            tracing::warn!(
                error = format!("{err:#}"),
                "no streets read model yet; reads go to the database"
            );
        }
        Ok(())
    }
}
