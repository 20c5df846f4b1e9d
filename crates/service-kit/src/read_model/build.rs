//! Building: one build at a time, in the background after a check or a write saw a new
//! generation, or awaited (`build_now`, the readiness check before the first model).

use async_trait::async_trait;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use super::{Held, ModelSource, ReadModel, Shared};
use crate::health::ReadinessCheck;

/// Starts a background build unless one is running.
pub(super) fn spawn_build<S: ModelSource>(shared: &Arc<Shared<S>>) {
    if shared.building.swap(true, Ordering::AcqRel) {
        return;
    }
    let shared = shared.clone();
    shared.runtime.clone().spawn(async move {
        let result = build_until_current(&shared).await;
        shared.building.store(false, Ordering::Release);
        if let Err(err) = result {
            tracing::warn!(
                model = shared.source.name(),
                error = format!("{err:#}"),
                "building the read model failed; reads go to the database"
            );
        }
    });
}

/// Builds models until one is of the newest generation seen (a write may commit while one is
/// built). One build at a time; returns at once when the model held is current.
pub(super) async fn build_until_current<S: ModelSource>(
    shared: &Arc<Shared<S>>,
) -> anyhow::Result<()> {
    let _build = shared.build.lock().await;
    loop {
        {
            let state = shared.read_state()?;
            if state.held.generation().is_some() && state.held.generation() == state.latest {
                return Ok(());
            }
        }
        let started = Instant::now();
        let (generation, model) = match shared.source.build().await {
            Ok(built) => built,
            Err(err) => {
                shared.failed_builds.fetch_add(1, Ordering::Relaxed);
                shared.first_built.store(true, Ordering::Release);
                return Err(err);
            }
        };
        let mut state = shared.write_state()?;
        if state.latest.is_some_and(|latest| generation < latest) {
            continue; // a check or a write saw a newer generation meanwhile: build again
        }
        if state.latest != Some(generation) || state.checked_at.is_none_or(|at| at < started) {
            // The snapshot read this generation after `started`.
            state.checked_at = Some(started);
        }
        state.latest = Some(generation);
        state.held = match model {
            Some(model) => Held::Model(generation, Arc::new(model)),
            None => {
                tracing::warn!(
                    model = shared.source.name(),
                    "the data is larger than a replica holds: reads go to the database"
                );
                Held::TooLarge(generation)
            }
        };
        shared.builds.fetch_add(1, Ordering::Relaxed);
        shared.first_built.store(true, Ordering::Release);
        // The source logs what it built (counts) at info.
        tracing::debug!(
            model = shared.source.name(),
            generation,
            build_ms = started.elapsed().as_millis() as u64,
            "read model installed"
        );
        return Ok(());
    }
}

pub(super) struct FirstModel<S: ModelSource>(pub(super) ReadModel<S>);

#[async_trait]
impl<S: ModelSource> ReadinessCheck for FirstModel<S> {
    fn name(&self) -> &'static str {
        self.0.shared.source.name()
    }

    async fn check(&self) -> anyhow::Result<()> {
        if self.0.shared.first_built.load(Ordering::Acquire) {
            return Ok(());
        }
        if let Err(err) = self.0.build_now().await {
            tracing::warn!(
                model = self.0.shared.source.name(),
                error = format!("{err:#}"),
                "no read model yet; reads go to the database"
            );
        }
        Ok(())
    }
}
