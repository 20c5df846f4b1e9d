//! The broker connection: service-kit's [`keep_connected`] makes the first connect and every
//! reconnect (one attempt at a time; paho's own automatic reconnect is not used, see
//! `service_kit::mqtt`), and [`track`] follows its [`Link`]: every new connection queues every
//! client (the republish-all).

use std::sync::Arc;

use service_kit::mqtt::Link;
use tokio::sync::watch;

use super::{set_connected, Shared};

/// Tracks the connection; every new connection queues every client.
pub(super) async fn track(shared: Arc<Shared>, mut link: watch::Receiver<Link>) {
    let mut connects = 0;
    while link.changed().await.is_ok() {
        let now = *link.borrow_and_update();
        if now.connects > connects {
            tracing::info!("republishing every client after a new broker connection");
            set_connected(&shared, true);
            shared.request_republish_all();
            shared.wake.notify_one();
        }
        if !now.up {
            set_connected(&shared, false);
        }
        connects = now.connects;
    }
}
