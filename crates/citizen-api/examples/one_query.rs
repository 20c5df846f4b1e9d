//! The one-query ceiling of the citizen-api benchmark (scripts/bench-citizen.sh): a bare
//! actix-web `App` (no middleware) whose one handler runs one indexed `SELECT` by primary key
//! through sqlx on the same database as the service, with the same pool settings and as many
//! workers as the service. The detail lookup and the lists are reported as ratios to this.
//!
//! `cargo run --release -p citizen-api --example one_query -- PORT DATABASE_URL [POOL]`
//! then `GET /one/{report_id}`.

use actix_web::{web, App, HttpResponse, HttpServer};
use secrecy::SecretString;
use service_kit::db::{Database, DatabaseSettings};
use sqlx::Row;
use uuid::Uuid;

/// The process allocates through mimalloc (its `override` feature also serves the C libraries:
/// SQLite, Paho, OpenSSL). Under load glibc's malloc spent a quarter of a list page's CPU in its
/// arenas (perf, docs/benchmarks.md). Chosen here, by the binary, not by a library: tests and
/// tools linking the libraries keep the system allocator, so valgrind and AddressSanitizer see
/// their heap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

async fn one(db: web::Data<Database>, path: web::Path<String>) -> HttpResponse {
    let Ok(id) = path.parse::<Uuid>() else {
        return HttpResponse::NotFound().finish();
    };
    let title: Result<Option<String>, sqlx::Error> = match db.get_ref() {
        Database::Postgres(pool) => sqlx::query("SELECT title FROM reports WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await
            .and_then(|row| row.map(|r| r.try_get("title")).transpose()),
        Database::Sqlite(pool) => sqlx::query("SELECT title FROM reports WHERE id = ?1")
            .bind(id.to_string())
            .fetch_optional(pool)
            .await
            .and_then(|row| row.map(|r| r.try_get("title")).transpose()),
    };
    match title {
        Ok(Some(title)) => HttpResponse::Ok().json(serde_json::json!({ "id": id, "title": title })),
        Ok(None) => HttpResponse::NotFound().finish(),
        Err(_) => HttpResponse::ServiceUnavailable().finish(),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().unwrap_or_else(|| "18301".into()).parse()?;
    let url = args
        .next()
        .ok_or_else(|| anyhow::anyhow!("usage: one_query PORT DATABASE_URL [POOL]"))?;
    let pool: u32 = args.next().unwrap_or_else(|| "10".into()).parse()?;
    let settings = DatabaseSettings {
        url: SecretString::from(url),
        max_connections: pool,
        migrate_on_start: false,
        acquire_timeout_seconds: 5,
    };
    let db = web::Data::new(Database::connect(&settings, citizen_api::store::SCHEMA).await?);
    // As many as the service starts with its default `http.workers = 0`.
    let workers = service_kit::settings::HttpSettings {
        workers: 0,
        ..Default::default()
    }
    .effective_workers();
    HttpServer::new(move || {
        App::new()
            .app_data(db.clone())
            .route("/one/{id}", web::get().to(one))
    })
    .workers(workers)
    .bind(("127.0.0.1", port))?
    .run()
    .await?;
    Ok(())
}
