//! The framework ceiling of `make bench`: the same trivial JSON handler as `/healthz`, on a bare
//! actix-web `App` with no middleware at all, with as many workers as the services use. The
//! services' `/healthz` through the whole shared stack is reported as a ratio to this.
//!
//! `cargo run --release -p service-kit --example ceiling -- PORT`

use actix_web::{web, App, HttpResponse, HttpServer};

/// The process allocates through mimalloc (its `override` feature also serves the C libraries:
/// SQLite, Paho, OpenSSL). Under load glibc's malloc spent a quarter of a list page's CPU in its
/// arenas (perf, docs/benchmarks.md). Chosen here, by the binary, not by a library: tests and
/// tools linking the libraries keep the system allocator, so valgrind and AddressSanitizer see
/// their heap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(r#"{"status":"ok"}"#)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let port: u16 = match std::env::args().nth(1) {
        Some(port) => port.parse()?,
        None => 18300,
    };
    // As many as the services start with their default `http.workers = 0`.
    let workers = service_kit::settings::HttpSettings {
        workers: 0,
        ..Default::default()
    }
    .effective_workers();
    HttpServer::new(|| App::new().route("/healthz", web::get().to(healthz)))
        .workers(workers)
        .bind(("127.0.0.1", port))?
        .run()
        .await?;
    Ok(())
}
