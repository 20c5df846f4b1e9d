//! `read_model::ReadModel` with a source in memory: the model is used while the last check is
//! within the staleness bound, dropped when the generation moves or the process writes, never
//! held when the data is too large, and a failed build leaves reads to the database.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a test failure

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use service_kit::read_model::{ModelSource, ReadModel};

/// The "database": a generation; a model is the generation it was built of.
#[derive(Default)]
struct Source {
    generation: AtomicI64,
    too_large: AtomicBool,
    failing: AtomicBool,
}

/// The model's view of the source (the test keeps another to move it).
struct Db(Arc<Source>);

#[async_trait]
impl ModelSource for Db {
    type Model = i64;

    fn name(&self) -> &'static str {
        "things"
    }

    async fn generation(&self) -> anyhow::Result<i64> {
        Ok(self.0.generation.load(Ordering::SeqCst))
    }

    async fn build(&self) -> anyhow::Result<(i64, Option<i64>)> {
        if self.0.failing.load(Ordering::SeqCst) {
            anyhow::bail!("the database is gone");
        }
        let generation = self.0.generation.load(Ordering::SeqCst);
        let model = (!self.0.too_large.load(Ordering::SeqCst)).then_some(generation);
        Ok((generation, model))
    }
}

fn model(staleness: Duration) -> (Arc<Source>, ReadModel<Db>) {
    let source = Arc::new(Source::default());
    source.generation.store(1, Ordering::SeqCst);
    (source.clone(), ReadModel::new(Db(source), staleness))
}

async fn current<S: ModelSource<Model = i64>>(model: &ReadModel<S>) -> Option<i64> {
    model.current().await.unwrap().map(|m| *m)
}

#[tokio::test]
async fn the_model_follows_the_generation_within_the_bound() {
    let (source, patient) = model(Duration::from_secs(3600));
    assert_eq!(
        current(&patient).await,
        None,
        "no model before the first build"
    );
    patient.build_now().await.unwrap();
    assert_eq!(current(&patient).await, Some(1));

    source.generation.store(2, Ordering::SeqCst);
    assert_eq!(
        current(&patient).await,
        Some(1),
        "within the bound the model is not checked"
    );

    let eager = ReadModel::new(Db(source.clone()), Duration::ZERO);
    eager.build_now().await.unwrap();
    assert_eq!(eager.model_generation(), Some(2));
    source.generation.store(3, Ordering::SeqCst);
    assert_eq!(
        current(&eager).await,
        None,
        "a check that sees a new generation drops the model"
    );
    eager.build_now().await.unwrap();
    assert_eq!(eager.model_generation(), Some(3));
    assert_eq!(current(&eager).await, Some(3));
    let stats = eager.stats();
    assert_eq!((stats.memory, stats.failed_builds), (1, 0));
    assert!(stats.builds >= 2);
}

#[tokio::test]
async fn a_write_through_the_process_is_seen_at_once() {
    let (source, patient) = model(Duration::from_secs(3600));
    patient.build_now().await.unwrap();
    source.generation.store(2, Ordering::SeqCst);
    patient.written().await;
    assert_eq!(current(&patient).await, None, "the database answers");
    patient.build_now().await.unwrap();
    assert_eq!(current(&patient).await, Some(2));
}

#[tokio::test]
async fn too_large_or_failing_data_is_left_to_the_database() {
    let (source, model) = model(Duration::from_secs(3600));
    source.too_large.store(true, Ordering::SeqCst);
    model.build_now().await.unwrap();
    assert_eq!(model.model_generation(), None);
    assert_eq!(current(&model).await, None);

    let (source, model) = self::model(Duration::from_secs(3600));
    source.failing.store(true, Ordering::SeqCst);
    assert!(model.build_now().await.is_err());
    assert_eq!(model.stats().failed_builds, 1);
    assert!(
        model.readiness().check().await.is_ok(),
        "a failed build does not hold readiness"
    );
    source.failing.store(false, Ordering::SeqCst);
    model.build_now().await.unwrap();
    assert_eq!(current(&model).await, Some(1));
}

/// Where a held call stops: it signals `reached` once it has read the database, and answers
/// when `open` fires (a read that started before a write committed, answered after it).
struct Gate {
    reached: tokio::sync::oneshot::Sender<()>,
    open: tokio::sync::oneshot::Receiver<()>,
}

/// The test's end of a [`Gate`].
struct Held {
    reached: tokio::sync::oneshot::Receiver<()>,
    open: tokio::sync::oneshot::Sender<()>,
}

fn gate() -> (Gate, Held) {
    let (reached_tx, reached_rx) = tokio::sync::oneshot::channel();
    let (open_tx, open_rx) = tokio::sync::oneshot::channel();
    (
        Gate {
            reached: reached_tx,
            open: open_rx,
        },
        Held {
            reached: reached_rx,
            open: open_tx,
        },
    )
}

/// A source whose next `generation` or `build` call can be held at a gate.
#[derive(Default)]
struct Gated {
    generation: AtomicI64,
    next_generation: std::sync::Mutex<Option<Gate>>,
    next_build: std::sync::Mutex<Option<Gate>>,
}

impl Gated {
    async fn pass(slot: &std::sync::Mutex<Option<Gate>>) {
        let gate = slot.lock().unwrap().take();
        if let Some(Gate { reached, open }) = gate {
            let _ = reached.send(());
            let _ = open.await;
        }
    }

    fn hold(slot: &std::sync::Mutex<Option<Gate>>) -> Held {
        let (gate, held) = gate();
        *slot.lock().unwrap() = Some(gate);
        held
    }
}

struct GatedDb(Arc<Gated>);

#[async_trait]
impl ModelSource for GatedDb {
    type Model = i64;

    fn name(&self) -> &'static str {
        "gated"
    }

    async fn generation(&self) -> anyhow::Result<i64> {
        let generation = self.0.generation.load(Ordering::SeqCst);
        Gated::pass(&self.0.next_generation).await;
        Ok(generation)
    }

    async fn build(&self) -> anyhow::Result<(i64, Option<i64>)> {
        let generation = self.0.generation.load(Ordering::SeqCst);
        Gated::pass(&self.0.next_build).await;
        Ok((generation, Some(generation)))
    }
}

/// A check that read the generation before a write committed, and answers after the write's
/// `written`, must not take the model back to that older generation: otherwise a build of the
/// older snapshot finishing next would be installed as current, and the writer's next read,
/// within the bound, would not see its own write.
#[tokio::test]
async fn a_check_answered_after_a_write_does_not_bring_back_the_older_generation() {
    let source = Arc::new(Gated::default());
    source.generation.store(1, Ordering::SeqCst);
    let model = ReadModel::new(GatedDb(source.clone()), Duration::from_secs(3600));

    // A build of generation 1, held before it installs its model.
    let build = Gated::hold(&source.next_build);
    let builder = tokio::spawn({
        let model = model.clone();
        async move { model.build_now().await }
    });
    build.reached.await.unwrap();

    // A read checks (none has yet) and reads generation 1; its answer is held.
    let check = Gated::hold(&source.next_generation);
    let reader = tokio::spawn({
        let model = model.clone();
        async move { model.current().await.map(|m| m.map(|m| *m)) }
    });
    check.reached.await.unwrap();

    // A write through this process commits generation 2.
    source.generation.store(2, Ordering::SeqCst);
    model.written().await;

    // The check answers with the generation it read, then the held build installs.
    check.open.send(()).unwrap();
    assert_eq!(reader.await.unwrap().unwrap(), None, "no model yet");
    build.open.send(()).unwrap();
    builder.await.unwrap().unwrap();
    model.build_now().await.unwrap();

    assert_eq!(
        current(&model).await,
        Some(2),
        "the writer's next read sees its write"
    );
}
