//! An application under test on a runtime and thread of its own (as in production, where actix
//! workers are threads of their own), so that its workers, pool and broker connection are closed
//! when the test drops the [`AppThread`], whatever runtime the test itself runs on.

use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::oneshot;

/// The running application; dropping it stops it (its runtime ends with it).
pub struct AppThread {
    _stop: oneshot::Sender<()>,
}

/// The application's shutdown signal: resolves when its [`AppThread`] is dropped.
pub struct Stopped(oneshot::Receiver<()>);

impl Future for Stopped {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        Pin::new(&mut self.0).poll(cx).map(drop)
    }
}

/// Builds an application with `build` on a runtime of two workers and a thread of its own,
/// hands `started(&app)` (its port, handles the test keeps, …) back to the test, then serves it
/// with `serve(app, stopped)` until the returned [`AppThread`] is dropped. Panics when the
/// application does not build.
pub async fn spawn_app_thread<A, T, E, B, S>(
    build: impl FnOnce() -> B + Send + 'static,
    started: impl FnOnce(&A) -> T + Send + 'static,
    serve: impl FnOnce(A, Stopped) -> S + Send + 'static,
) -> (T, AppThread)
where
    B: Future<Output = Result<A, E>>,
    S: Future,
    T: Send + 'static,
    E: Debug + Send + 'static,
{
    let (started_tx, started_rx) = oneshot::channel();
    let (stop, stopped) = oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("application runtime");
        runtime.block_on(async move {
            let app = match build().await {
                Ok(app) => app,
                Err(err) => {
                    let _ = started_tx.send(Err(err));
                    return;
                }
            };
            let _ = started_tx.send(Ok(started(&app)));
            serve(app, Stopped(stopped)).await;
        });
    });
    let started = started_rx
        .await
        .expect("application thread")
        .expect("build app");
    (started, AppThread { _stop: stop })
}
