//! `citizen-api migrate` on a database that lacks an extension the migrations use: it stops
//! before migrating and names the extension with the command that creates it.

use std::process::Command;

use sqlx::{Connection, Executor, PgConnection};

/// Runs the binary's `migrate` against `url`: (success, stderr + stdout).
fn migrate(url: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_citizen-api"))
        .arg("migrate")
        .env("CITIZEN_API__DATABASE__URL", url)
        .env("CITIZEN_API__TELEMETRY__FORMAT", "pretty")
        .output()
        .expect("run citizen-api migrate");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    (out.status.success(), text)
}

async fn exec(url: &str, sql: &str) {
    let mut conn = PgConnection::connect(url).await.unwrap();
    conn.execute(sql).await.unwrap();
    conn.close().await.unwrap();
}

#[tokio::test]
async fn migrate_names_a_missing_extension_and_the_command_that_creates_it() {
    let Some(db) = test_support::postgres("migrate_ext").await else {
        return;
    };
    exec(&db.url, "DROP EXTENSION pg_trgm").await;
    let (ok, text) = migrate(&db.url);
    assert!(!ok, "{text}");
    assert!(
        text.contains("extension pg_trgm is missing")
            && text.contains("CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;")
            && text.contains(&db.name),
        "{text}"
    );
    assert!(
        !text.contains("gin_trgm_ops"),
        "stopped before migrating: {text}"
    );

    // Installed, but outside `public`, where the migrations look for its operator classes.
    exec(
        &db.url,
        "CREATE SCHEMA ext; CREATE EXTENSION pg_trgm WITH SCHEMA ext",
    )
    .await;
    let (ok, text) = migrate(&db.url);
    assert!(!ok, "{text}");
    assert!(
        text.contains("ALTER EXTENSION pg_trgm SET SCHEMA public;"),
        "{text}"
    );

    exec(&db.url, "ALTER EXTENSION pg_trgm SET SCHEMA public").await;
    let (ok, text) = migrate(&db.url);
    assert!(ok, "{text}");
    assert!(text.contains("migrations applied"), "{text}");
}
