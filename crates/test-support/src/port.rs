//! A server of the test's own on a port of 127.0.0.1 that it listens on, or nothing does
//! (connections refused), as the test switches it: what [`crate::smtp::SmtpServer`] and
//! [`crate::push::PushReceiver`] are.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::JoinHandle;

use crate::lock;

/// A server of the test's own: its state `S`, shared with the tasks serving its connections, on
/// a port the test opens and closes.
pub struct TestServer<S> {
    port: Arc<Port>,
    state: Arc<Mutex<S>>,
}

impl<S: Send + 'static> TestServer<S> {
    /// Listening on a free port, each connection served by `serve(state, connection)`.
    pub(crate) async fn listen<F, Fut>(state: S, serve: F) -> Self
    where
        F: Fn(Arc<Mutex<S>>, TcpStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = std::io::Result<()>> + Send + 'static,
    {
        let state = Arc::new(Mutex::new(state));
        Self {
            port: Arc::new(Port::start(&state, serve).await),
            state,
        }
    }

    /// Listening again (if it was closed).
    pub async fn open(&self) {
        self.port.open().await;
    }

    /// Nothing listens: connections are refused (connections already accepted go on).
    pub async fn close(&self) {
        self.port.close().await;
    }

    /// The port's number.
    pub(crate) fn port(&self) -> u16 {
        self.port.port
    }

    pub(crate) fn state(&self) -> MutexGuard<'_, S> {
        lock(&self.state)
    }
}

impl<S> Clone for TestServer<S> {
    fn clone(&self) -> Self {
        Self {
            port: self.port.clone(),
            state: self.state.clone(),
        }
    }
}

/// Serves one connection.
type Serve = Arc<dyn Fn(TcpStream) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// A port of 127.0.0.1 on which a server of the test listens, or nothing does, as the test
/// switches it with [`Port::open`] and [`Port::close`].
struct Port {
    port: u16,
    serve: Serve,
    accepting: Mutex<Option<JoinHandle<()>>>,
}

impl Port {
    /// Listening on a free port, each connection served by `serve(state, connection)` on a task
    /// of its own (an error ends the connection).
    async fn start<T, S, F>(state: &Arc<T>, serve: S) -> Self
    where
        T: Send + Sync + 'static,
        S: Fn(Arc<T>, TcpStream) -> F + Send + Sync + 'static,
        F: Future<Output = std::io::Result<()>> + Send + 'static,
    {
        let state = state.clone();
        let serve: Serve = Arc::new(move |stream| {
            let served = serve(state.clone(), stream);
            Box::pin(async move {
                let _ = served.await;
            })
        });
        let port = Self {
            port: crate::process::closed_port(),
            serve,
            accepting: Mutex::new(None),
        };
        port.open().await;
        port
    }

    /// Listens again (if it does not).
    async fn open(&self) {
        if lock(&self.accepting).is_some() {
            return;
        }
        let listener = self.bind().await;
        let serve = self.serve.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream));
            }
        });
        *lock(&self.accepting) = Some(task);
    }

    /// Stops listening (connections already accepted go on).
    async fn close(&self) {
        let task = lock(&self.accepting).take();
        if let Some(task) = task {
            task.abort();
            let _ = task.await;
        }
    }

    async fn bind(&self) -> TcpListener {
        let address = SocketAddr::from(([127, 0, 0, 1], self.port));
        for _ in 0..100 {
            let socket = TcpSocket::new_v4().expect("a socket");
            socket.set_reuseaddr(true).expect("SO_REUSEADDR");
            if socket.bind(address).is_ok() {
                return socket.listen(1024).expect("listen");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("port {} could not be bound again", self.port);
    }
}
